// Sharing as a user meets it: Shared with me (from the demo data) shows bob's files with their owner, hovering one
// shows who has access (fetched on hover), and Share… opens the list of people with their roles.
import * as assert from 'node:assert/strict';
import { openDeskContainer, showOnlyViews, signInThroughConsent, treeRow, useWorkbench } from './workbench';

describe('Drive sharing (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-sharing-', { seed: 'demo' });

  it('lists Shared with me with owners, and the hover says who has access', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    await showOnlyViews(page, ['Drive']);

    await treeRow(page, 'Shared with me').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'Shared with me').click();
    const report = treeRow(page, 'q3-report.txt');
    await report.waitFor({ state: 'visible', timeout: 30000 });
    assert.match(await report.innerText(), /Bob Demo/);
    await treeRow(page, 'Team notes').waitFor({ state: 'visible' });

    await report.hover();
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Who has access' }).first();
    await hover.waitFor({ state: 'visible', timeout: 15000 });
    assert.match(await hover.innerText(), /Bob Demo \(Owner\), Alice Demo \(Viewer\)/);
    await opened().screenshot('drive-shared-with-me', { keepPointer: true });
  });

  it('Share… lists the people with access and the actions', async () => {
    const workbench = opened();
    const { page } = workbench;
    // The previous test leaves its hover open (and a failed attempt its menu): close them so they cannot take the click.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.mouse.move(900, 700);
    await page.locator('.context-view .monaco-menu').waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
    await treeRow(page, 'Team notes').click({ button: 'right' });
    // As a hand does: onto the entry first, then click (a menu ignores a click that lands before it settles).
    const share = page.locator('.context-view .action-label', { hasText: 'Share…' }).first();
    await share.hover();
    await share.click();
    const pick = page.locator('.quick-input-widget');
    await pick.locator('.monaco-list-row', { hasText: 'Bob Demo' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await pick.locator('.monaco-list-row', { hasText: 'Add people…' }).first().waitFor({ state: 'visible' });
    await opened().screenshot('drive-share-flow', { keepPointer: true });
    await page.keyboard.press('Escape');
  });
});
