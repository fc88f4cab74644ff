// Shared drives as a user meets them: "Shared drives" beside My Drive lists the seeded "Team Desk", which expands to
// its folders and files; its row's menu offers the drive's own commands (members, rename, hide, delete).
import * as assert from 'node:assert/strict';
import { openDeskContainer, type PageElement, showOnlyViews, signInThroughConsent, treeRow, treeRows, useWorkbench } from './workbench';

describe('Drive shared drives (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-shared-', { seed: 'demo' });

  it('shows Shared drives beside My Drive, with Team Desk expanded to its folders and files', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    await showOnlyViews(page, ['Drive']);

    await treeRow(page, 'Shared drives').waitFor({ state: 'visible', timeout: 30000 });
    const labels = (await treeRows(page).locator('.label-name').allInnerTexts()).map((text) => text.trim());
    assert.ok(labels.indexOf('Shared drives') > labels.indexOf('My Drive') && labels.indexOf('Shared drives') < labels.indexOf('Shared with me'), labels.join(', '));
    // Collapse My Drive so the shared drive has the view.
    await treeRow(page, 'My Drive').click();
    await treeRow(page, 'Shared drives').click();
    await treeRow(page, 'Team Desk').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'Team Desk').click();
    await treeRow(page, 'Planning').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'team-handbook.md').waitFor({ state: 'visible' });
    await treeRow(page, 'Planning').click();
    await treeRow(page, 'sprint-12.md').waitFor({ state: 'visible', timeout: 30000 });
    // The drive's own Trash closes its rows, indented under the drive (the user's Trash is a section of its own).
    const expanded = (await treeRows(page).locator('.label-name').allInnerTexts()).map((text) => text.trim());
    assert.deepEqual(expanded.slice(expanded.indexOf('Team Desk')), ['Team Desk', 'Planning', 'sprint-12.md', 'team-handbook.md', 'Trash', 'Shared with me', 'Trash']);
    const levels = await treeRows(page).evaluateAll((rows: PageElement[]) => rows.map((row) => row.getAttribute('aria-level')));
    assert.equal(levels[expanded.indexOf('Trash')], levels[expanded.indexOf('Planning')], 'the drive\'s Trash sits beside its folders');
    await opened().screenshot('drive-shared-drives', { keepPointer: true });
  });

  it('the drive\'s row offers its own commands', async () => {
    const { page } = opened();
    await treeRow(page, 'Team Desk').click({ button: 'right' });
    const menu = page.locator('.context-view');
    for (const command of ['Manage Shared Drive Members…', 'Rename Shared Drive…', 'Hide Shared Drive', 'Delete Shared Drive…']) {
      await menu.locator('.action-label', { hasText: command }).first().waitFor({ state: 'visible', timeout: 15000 });
    }
    assert.equal(await menu.locator('.action-label', { hasText: 'Move to Trash' }).count(), 0, 'a drive is not trashed like a file');
    await opened().screenshot('drive-shared-drive-menu', { keepPointer: true });
    await page.keyboard.press('Escape');
  });
});

describe('Drive shared drives as a contributor (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-shared-bob-', { seed: 'demo' });

  it('offers a contributor no Move to Trash and no Delete Forever on the drive\'s files, as Drive allows only managers', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench, { account: 'bob@example.com' });
    await showOnlyViews(page, ['Drive']);
    await treeRow(page, 'My Drive').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'My Drive').click();
    await treeRow(page, 'Shared drives').click();
    await treeRow(page, 'Team Desk').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'Team Desk').click();
    await treeRow(page, 'team-handbook.md').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'team-handbook.md').click({ button: 'right' });
    const menu = page.locator('.context-view');
    // A writer still renames (the menu is there), but trashing and deleting are not offered.
    await menu.locator('.action-label', { hasText: 'Rename…' }).first().waitFor({ state: 'visible', timeout: 15000 });
    const entries = (await menu.locator('.action-label').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== '');
    assert.ok(!entries.includes('Move to Trash'), entries.join(' | '));
    assert.ok(!entries.includes('Delete Forever…'), entries.join(' | '));
    await page.keyboard.press('Escape');
  });
});
