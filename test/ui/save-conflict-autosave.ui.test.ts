// A save conflict with auto-save on (the default of VS Code for the Web and code-server), as the README describes it:
// Desk asks its Compare / Overwrite / Cancel question before the auto save writes; after Cancel the editor keeps the
// typed text, unsaved, and VS Code reports the refused auto save in its own words ("Failed to save 'ideas.txt': The
// content of the file is newer…"). Screenshots: test-results/ui/save-conflict-autosave-*.png.
//
// The order is held by state, not by typing speed: the text is typed with auto save off, the file changes on Drive
// while the editor is dirty (an editor without edits reloads the other version, and one that reloads just as typing
// starts keeps its text but not the version VS Code compares with, which gave VS Code's notice and no question on a
// loaded machine), and only then is auto save turned on ("File: Toggle Auto Save"), which auto-saves every dirty
// editor at once.
import type { Page } from 'playwright-core';
import { changeOnDriveAsAlice, runCommand, saveScreenshot, typeAtEndOfDriveFile, useWorkbench } from './workbench';

describe('Save conflicts with auto-save (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-save-conflict-autosave-', { seed: 'demo', settings: { 'files.autoSave': 'off', 'files.autoSaveDelay': 1000 } });

  const dialog = (page: Page) => page.locator('.monaco-dialog-box');

  it('asks before the auto save; after Cancel the text stays unsaved and VS Code says the file is newer', async () => {
    const workbench = opened();
    const { page } = workbench;
    await typeAtEndOfDriveFile(workbench, 'ideas.txt', '\nMy own line, auto-saved');
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).waitFor({ state: 'visible', timeout: 10000 });
    // Changed elsewhere while the editor holds unsaved text, so the first auto save meets the newer version.
    await changeOnDriveAsAlice(workbench.emulatorUrl, 'ideas.txt', 'Their version, saved from a phone\n');
    await runCommand(page, 'File: Toggle Auto Save');

    await dialog(page).filter({ hasText: 'changed on Drive' }).waitFor({ state: 'visible', timeout: 20000 });
    await saveScreenshot(page, 'save-conflict-autosave-question.png');
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();

    await page.locator('.notifications-toasts .notification-toast', { hasText: /Failed to save 'ideas\.txt'.*newer/ }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).waitFor({ state: 'visible', timeout: 10000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'My own line, auto-saved' }).first().waitFor({ state: 'visible' });
    await saveScreenshot(page, 'save-conflict-autosave-after-cancel.png');
  });
});
