// Shared drives as a user meets them: "Shared drives" beside My Drive lists the seeded "Team Desk", which expands to
// its folders and files; its row's menu offers the drive's own commands (members, rename, hide, delete).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { openDeskContainer, SCREENSHOT_DIR, showOnlyViews, signInThroughConsent, treeRows, useWorkbench } from './workbench';

describe('Drive shared drives (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-shared-', { seed: 'demo' });

  const row = (page: Page, label: string) => treeRows(page).filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  async function shot(page: Page, name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, name);
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
    return file;
  }

  it('shows Shared drives beside My Drive, with Team Desk expanded to its folders and files', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    await showOnlyViews(page, ['Drive']);

    await row(page, 'Shared drives').waitFor({ state: 'visible', timeout: 30000 });
    const labels = (await treeRows(page).locator('.label-name').allInnerTexts()).map((text) => text.trim());
    assert.ok(labels.indexOf('Shared drives') > labels.indexOf('My Drive') && labels.indexOf('Shared drives') < labels.indexOf('Shared with me'), labels.join(', '));
    // Collapse My Drive so the shared drive has the view.
    await row(page, 'My Drive').click();
    await row(page, 'Shared drives').click();
    await row(page, 'Team Desk').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'Team Desk').click();
    await row(page, 'Planning').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'team-handbook.md').waitFor({ state: 'visible' });
    await row(page, 'Planning').click();
    await row(page, 'sprint-12.md').waitFor({ state: 'visible', timeout: 30000 });
    await shot(page, 'drive-shared-drives.png');
  });

  it('the drive\'s row offers its own commands', async () => {
    const { page } = opened();
    await row(page, 'Team Desk').click({ button: 'right' });
    const menu = page.locator('.context-view');
    for (const command of ['Shared Drive Members…', 'Rename Shared Drive…', 'Hide Shared Drive', 'Delete Shared Drive…']) {
      await menu.locator('.action-label', { hasText: command }).first().waitFor({ state: 'visible', timeout: 15000 });
    }
    assert.equal(await menu.locator('.action-label', { hasText: 'Move to Trash' }).count(), 0, 'a drive is not trashed like a file');
    await shot(page, 'drive-shared-drive-menu.png');
    await page.keyboard.press('Escape');
  });
});
