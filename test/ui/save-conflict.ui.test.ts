// A save that meets a newer version on Drive, as the user sees it: Desk's Compare / Overwrite / Cancel question,
// then, whatever the answer, no raw "Unable to write file 'desk-drive:/…?id=…'" error and no Revert button that
// would throw the typed text away; the editor stays dirty with the text, Compare opens the diff. Screenshots go to
// test-results/ui/.
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import type { Page } from 'playwright-core';
import { collapseView, emulatorToken, getAsAlice, openDeskContainer, saveScreenshot, signInThroughConsent, treeRows, useWorkbench } from './workbench';

describe('Save conflicts (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-save-conflict-', { seed: 'demo' });


  const row = (page: Page, label: string) => treeRows(page).filter({ has: page.locator('.label-name', { hasText: label }) }).first();
  const dialog = (page: Page) => page.locator('.monaco-dialog-box');
  const toasts = (page: Page) => page.locator('.notifications-toasts .notification-toast');

  /** Another client of alice's replaces the file's content. */
  async function changeOnDrive(title: string, text: string): Promise<void> {
    const { emulatorUrl } = opened();
    const q = encodeURIComponent(`title = '${title}' and trashed = false`);
    const [file] = (await getAsAlice<{ items: Array<{ id: string }> }>(emulatorUrl, `/drive/v2/files?q=${q}`)).items;
    assert.ok(file);
    const response = await fetch(`${emulatorUrl}/upload/drive/v2/files/${file.id}?uploadType=media`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${await emulatorToken(emulatorUrl)}`, 'Content-Type': 'text/plain' },
      body: text,
    });
    assert.equal(response.status, 200);
  }

  /** Whatever VS Code shows after the answer: Desk's or VS Code's own words, never the raw write error nor Revert. */
  async function assertNoRawErrorNorRevert(page: Page): Promise<void> {
    // The refusal notice VS Code shows for a newer file (no Revert among its buttons).
    const toast = toasts(page).filter({ hasText: 'ideas.txt' }).and(page.locator('.notification-fade-in-done')).first();
    await toast.waitFor({ state: 'visible', timeout: 20000 });
    const text = await toast.innerText();
    assert.doesNotMatch(text, /Unable to write file|\?id=|FileSystemError|desk-drive:/, text);
    const buttons = (await toast.locator('.monaco-button, .action-label').allInnerTexts()).map((label) => label.trim()).filter(Boolean);
    assert.ok(!buttons.includes('Revert'), `buttons: ${buttons.join(', ')}`);
  }

  it('Cancel keeps the typed text in a dirty editor, with no raw error and no Revert', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);
    await collapseView(page, 'Tasks');
    await row(page, 'ideas.txt').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'ideas.txt').click();
    const lines = page.locator('.editor-group-container .view-lines').first();
    await lines.waitFor({ state: 'visible', timeout: 20000 });
    await lines.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nMy own line, typed in Desk');
    await changeOnDrive('ideas.txt', 'Their version, saved from a phone\n');

    await page.keyboard.press('Control+S');
    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    await saveScreenshot(page, 'save-conflict-question.png');
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();

    await assertNoRawErrorNorRevert(page);
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).waitFor({ state: 'visible', timeout: 10000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'My own line, typed in Desk' }).first().waitFor({ state: 'visible' });
    await saveScreenshot(page, 'save-conflict-after-cancel.png');
  });

  it('Compare opens the Drive version beside the typed text, still unsaved, with no raw error and no Revert', async () => {
    const { page } = opened();
    await page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close').first().click().catch(() => undefined);
    await page.locator('.editor-group-container .view-lines', { hasText: 'My own line, typed in Desk' }).first().click();
    await page.keyboard.press('Control+S');
    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    await dialog(page).locator('.monaco-button', { hasText: 'Compare' }).click();

    await page.locator('.editor-group-container .tab', { hasText: '(Drive) ↔ (yours)' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'Their version, saved from a phone' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await assertNoRawErrorNorRevert(page);
    await saveScreenshot(page, 'save-conflict-compare.png');
  });
});
