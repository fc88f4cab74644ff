// Revision history as a user meets it: another client saves two newer versions of a file; the file's context menu
// (Versions › Show Version History…) lists the versions, and "Compare with Current" shows the oldest beside the current
// content in VS Code's diff editor.
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import { emulatorToken, getAsAlice, openDeskContainer, showOnlyViews, signInThroughConsent, treeRow, useWorkbench } from './workbench';

describe('Drive revision history (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-revisions-', { seed: 'demo' });

  /** New content for a file, saved by another client of alice's account. */
  async function saveElsewhere(fileId: string, text: string): Promise<void> {
    const workbench = opened();
    const response = await fetch(`${workbench.emulatorUrl}/upload/drive/v2/files/${fileId}?uploadType=media`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${await emulatorToken(workbench.emulatorUrl)}`, 'Content-Type': 'text/plain' },
      body: text,
    });
    assert.equal(response.status, 200, await response.text());
  }

  it('compares the oldest version of a file with the current one from the file’s Versions menu', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    await showOnlyViews(page, ['Drive']);

    const listed = await getAsAlice<{ items: { id: string }[] }>(workbench.emulatorUrl, `/drive/v2/files?q=${encodeURIComponent("title = 'ideas.txt'")}`);
    const fileId = listed.items[0]?.id;
    assert.ok(fileId, 'the demo has ideas.txt');
    await saveElsewhere(fileId, 'A TODO → task quick fix.\nDrag files between folders.\nRevision history with diffs.\n');
    await saveElsewhere(fileId, 'A TODO → task quick fix (done).\nDrag files between folders.\nRevision history with diffs.\nLabels with typed fields.\n');

    await treeRow(page, 'ideas.txt').waitFor({ state: 'visible', timeout: 30000 });
    await treeRow(page, 'ideas.txt').click({ button: 'right' });
    // Grouped as VS Code's explorer groups its menu: open, transfer, copy/move, share, modify; the rare ones in submenus.
    const topMenu = page.locator('.context-view .monaco-menu').first();
    await topMenu.locator('.action-label', { hasText: 'Rename…' }).waitFor({ state: 'visible', timeout: 15000 });
    const entries = (await topMenu.locator('.action-label').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== '');
    assert.deepEqual(entries, ['Open File', 'Show Comments…', 'Download…', 'Make a Copy', 'Move to Folder…', 'Share…', 'Unstar', 'Rename…', 'Move to Trash', 'Delete Forever…', 'Versions', 'Labels', 'More Actions']);
    await opened().screenshot('drive-file-menu', { keepPointer: true });
    const versions = page.locator('.context-view .action-label', { hasText: 'Versions' }).first();
    await versions.hover();
    const history = page.locator('.context-view .action-label', { hasText: 'Show Version History…' }).first();
    await history.waitFor({ state: 'visible', timeout: 10000 });
    // A plain text file has bytes to pin, but only Google documents can be published; no entry repeats "Drive:".
    const submenu = (await page.locator('.context-view .monaco-submenu .action-label').allInnerTexts()).map((text) => text.trim()).filter((text) => text !== '');
    assert.ok(submenu.includes('Keep a Version Forever…'), submenu.join(' | '));
    assert.ok(!submenu.some((text) => /Publish/.test(text) || /^Drive:/.test(text)), submenu.join(' | '));
    await opened().screenshot('drive-file-versions-menu', { keepPointer: true });
    // As a hand does: straight right into the submenu, then up to its entry (a diagonal would cross "Labels").
    const from = await versions.boundingBox();
    const to = await history.boundingBox();
    assert.ok(from && to);
    await page.mouse.move(to.x + 20, from.y + from.height / 2, { steps: 5 });
    await page.mouse.move(to.x + 20, to.y + to.height / 2, { steps: 5 });
    await page.mouse.click(to.x + 20, to.y + to.height / 2);

    const pick = page.locator('.quick-input-widget');
    const oldest = pick.locator('.monaco-list-row', { hasText: 'version 1' }).first();
    await oldest.waitFor({ state: 'visible', timeout: 20000 });
    await pick.locator('.monaco-list-row', { hasText: 'version 3' }).first().waitFor({ state: 'visible' });
    await opened().screenshot('drive-revision-history', { keepPointer: true });
    await oldest.click();
    const compare = pick.locator('.monaco-list-row', { hasText: 'Compare with Current' }).first();
    await compare.waitFor({ state: 'visible', timeout: 10000 });
    await compare.click();

    const diff = page.locator('.editor-group-container .monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .tab', { hasText: '↔ current' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await diff.locator('.view-lines', { hasText: 'Labels with typed fields.' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await diff.locator('.view-lines', { hasText: 'A TODO → task quick fix.' }).first().waitFor({ state: 'visible' });
    // Let the diff decorations settle before the picture.
    await page.waitForTimeout(500);
    await opened().screenshot('drive-revision-diff', { keepPointer: true });
  });
});
