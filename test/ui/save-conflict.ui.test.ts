// A save that meets a newer version on Drive, and task notes longer than Tasks keeps, as the user sees them: Desk's
// own question (Compare / Overwrite / Cancel; the notes' limit with ways to keep the text), then, whatever the
// answer, nothing of VS Code's own: no "Failed to save … Unable to write file 'desk-drive:/…?id=…'" with Revert and
// no "the content of the file is newer" notice; the editor stays dirty with the text, Compare opens the diff.
// Screenshots go to test-results/ui/.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { changeOnDriveAsAlice, saveScreenshot, showOnlyViews, typeAtEndOfDriveFile, useWorkbench } from './workbench';

describe('Save conflicts (UI)', function () {
  this.timeout(180000);
  // Saves made by the user (Ctrl+S): an auto save after a delay, the web's default, is refused in VS Code's words (core/ui/saveConflict.ts).
  const opened = useWorkbench('failed-save-conflict-', { seed: 'demo', settings: { 'files.autoSave': 'off' } });

  const dialog = (page: Page) => page.locator('.monaco-dialog-box');
  const toasts = (page: Page) => page.locator('.notifications-toasts .notification-toast');

  /**
   * After the answer, no notice at all about the file: neither VS Code's raw write error with Revert nor its "newer"
   * notice. Called once the next save's question is up, so the answered save has ended (saves of one file run one
   * after another) and anything it showed is on screen.
   */
  async function assertVsCodeShowedNothing(page: Page, file: string): Promise<void> {
    const shown = await toasts(page).allInnerTexts();
    assert.ok(!shown.some((text) => text.includes(file) || /Failed to save|Unable to write|newer/.test(text)), `notices: ${shown.join(' | ')}`);
  }

  it('Cancel keeps the typed text in a dirty editor, with no raw error and no Revert', async () => {
    const workbench = opened();
    const { page } = workbench;
    await typeAtEndOfDriveFile(workbench, 'ideas.txt', '\nMy own line, typed in Desk');
    await changeOnDriveAsAlice(workbench.emulatorUrl, 'ideas.txt', 'Their version, saved from a phone\n');

    await page.keyboard.press('Control+S');
    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    await saveScreenshot(page, 'save-conflict-question.png');
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();

    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).waitFor({ state: 'visible', timeout: 10000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'My own line, typed in Desk' }).first().waitFor({ state: 'visible' });
    await saveScreenshot(page, 'save-conflict-after-cancel.png');
  });

  it('Compare opens the Drive version beside the typed text, still unsaved, with nothing of VS Code\'s own', async () => {
    const { page } = opened();
    await page.locator('.editor-group-container .view-lines', { hasText: 'My own line, typed in Desk' }).first().click();
    await page.keyboard.press('Control+S');
    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    // The Cancel of the test before has ended: nothing of VS Code's about it.
    await assertVsCodeShowedNothing(page, 'ideas.txt');
    await dialog(page).locator('.monaco-button', { hasText: 'Compare' }).click();

    await page.locator('.editor-group-container .tab', { hasText: '(Drive) ↔ (yours)' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'Their version, saved from a phone' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).first().waitFor({ state: 'visible', timeout: 10000 });
    await saveScreenshot(page, 'save-conflict-compare.png');

    // Saving from the diff asks again: the Compare save has ended, and showed nothing of VS Code's own.
    await page.keyboard.press('Control+S');
    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    await assertVsCodeShowedNothing(page, 'ideas.txt');
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).first().waitFor({ state: 'visible', timeout: 10000 });
  });

  it('task notes longer than Tasks keeps: Desk says so, offers ways to keep the text, and the editor stays unsaved', async () => {
    const { page } = opened();
    await page.keyboard.press('Escape');
    await showOnlyViews(page, ['Tasks']);
    const tasksRow = (label: string) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Tasks"]') }).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();
    const myTasks = tasksRow('My Tasks');
    await myTasks.waitFor({ state: 'visible', timeout: 30000 });
    if ((await myTasks.getAttribute('aria-expanded')) !== 'true') await myTasks.click();
    await tasksRow('Book the hotel').click({ button: 'right' });
    const editNotes = page.locator('.context-view .action-label', { hasText: 'Edit Notes…' }).first();
    await editNotes.waitFor({ state: 'visible', timeout: 15000 });
    await editNotes.hover();
    await editNotes.click();
    await page.locator('.editor-group-container .tab.active', { hasText: 'Book the hotel.md' }).waitFor({ state: 'visible', timeout: 20000 });
    const lines = page.locator('.editor-group-container .view-lines').first();
    await lines.click();
    await page.keyboard.press('Control+End');
    // Past the 8192 characters Tasks keeps, inserted at once (typing 8 000 keys would take minutes).
    await page.keyboard.insertText(`\n${'A long paragraph of notes. '.repeat(320)}The end.`);
    await page.keyboard.press('Control+S');
    const question = dialog(page).filter({ hasText: 'too long for Google Tasks' });
    await question.waitFor({ state: 'visible', timeout: 20000 });
    const buttons = (await question.locator('.monaco-button').allInnerTexts()).map((label) => label.trim());
    assert.deepEqual(buttons.filter((label) => /Revert|Discard/.test(label)), [], `buttons: ${buttons.join(', ')}`);
    await saveScreenshot(page, 'notes-too-long-question.png');
    await question.locator('.monaco-button', { hasText: 'Select the Excess' }).click();

    await page.locator('.editor-group-container .tab.dirty', { hasText: 'Book the hotel.md' }).waitFor({ state: 'visible', timeout: 10000 });
    await page.locator('.editor-group-container .selected-text').first().waitFor({ state: 'visible', timeout: 10000 });
    // The next save's question: the first has ended, with nothing of VS Code's own shown.
    await page.keyboard.press('Control+S');
    await question.waitFor({ state: 'visible', timeout: 20000 });
    await assertVsCodeShowedNothing(page, 'Book the hotel');
    await question.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'Book the hotel.md' }).waitFor({ state: 'visible', timeout: 10000 });
    await saveScreenshot(page, 'notes-too-long-after.png');
  });
});
