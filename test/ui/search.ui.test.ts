// "Desk: Search…" as a user meets it, keyboard only: sign in, run the command, type a word of the demo data, see the
// results grouped by service (Tasks, Drive, Calendar, Books, each with its icon and a line of context), move down to a
// Drive file with the arrow keys and press Enter: the file opens in an editor and is selected in the Drive tree. The
// next search starts with the last text. Screenshots of the grouped results and of the opened file go to test-results/ui.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openDeskContainer, runCommand, signInThroughConsent, useWorkbench } from './workbench';

describe('Desk search (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-search-', { seed: 'demo' });

  const quickInput = (page: Page) => page.locator('.quick-input-widget');
  const rowWith = (page: Page, text: string) => quickInput(page).locator('.monaco-list-row', { hasText: text }).first();

  it('signs in', async () => {
    const workbench = opened();
    await openDeskContainer(workbench.page);
    await signInThroughConsent(workbench);
  });

  it('groups results by service as they arrive and opens a Drive file with the keyboard', async () => {
    const workbench = opened();
    const { page } = workbench;
    await page.keyboard.press('Escape');
    await runCommand(page, 'Desk: Search…');
    const input = quickInput(page).locator('input.input');
    await quickInput(page).locator('.quick-input-title', { hasText: 'Search Desk' }).waitFor({ state: 'visible', timeout: 15000 });
    await input.fill('');
    await input.pressSequentially('plan', { delay: 60 });
    // Demo data: a task, a Google Doc, a recurring meeting and catalogue books all say "plan".
    await rowWith(page, 'Plan the weekend trip').waitFor({ state: 'visible', timeout: 20000 });
    await rowWith(page, 'Project plan').waitFor({ state: 'visible', timeout: 20000 });
    await rowWith(page, 'Weekly planning').waitFor({ state: 'visible', timeout: 20000 });
    // The catalogue answers last: with its books in, every service has answered and the list no longer changes
    // under the keys (a row arriving after ArrowUp moved the focus away from the last row).
    await rowWith(page, 'Google Books').waitFor({ state: 'visible', timeout: 20000 });
    // A group's name is shown at its first row (VS Code draws the separator there).
    const groupOf = async (text: string) => (await rowWith(page, text).locator('.quick-input-list-separator').innerText().catch(() => '')).trim();
    assert.equal(await groupOf('Plan the weekend trip'), 'Tasks');
    assert.equal(await groupOf('Weekly planning'), 'Calendar');
    assert.equal(await rowWith(page, 'Weekly planning').count(), 1, 'a repeating event is one row');
    assert.match(await rowWith(page, 'Weekly planning').innerText(), /repeats · alice@example\.com/);
    assert.match(await rowWith(page, 'Project plan').innerText(), /My Drive › Projects/, 'a file says its folder');
    assert.equal(await rowWith(page, 'Project plan').locator('.codicon-file').count(), 1, 'a file row has the Drive icon');
    assert.equal(await rowWith(page, 'Weekly planning').locator('.codicon-calendar').count(), 1);
    await workbench.screenshot('search-grouped');
    // The list loops: one up from the first row is the last one, a book (the catalogue answers last).
    await page.keyboard.press('ArrowUp');
    const last = await quickInput(page).locator('.monaco-list-row.focused').innerText();
    assert.match(last, /Google Books|On /, `the Books group ends the list (focused: ${last})`);
    await page.keyboard.press('ArrowDown');

    // Keyboard only: down from the first task until the Drive file is the focused row, then Enter.
    for (let step = 0; step < 30; step++) {
      const focused = await quickInput(page).locator('.monaco-list-row.focused').innerText().catch(() => '');
      if (focused.includes('Project plan')) break;
      await page.keyboard.press('ArrowDown');
    }
    assert.match(await quickInput(page).locator('.monaco-list-row.focused').innerText(), /Project plan/);
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: 'Project plan' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.part.sidebar .monaco-list-row.selected', { hasText: 'Project plan' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Goal: ship Desk' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await workbench.screenshot('search-opened-file');

    // The last text comes back.
    await runCommand(page, 'Desk: Search…');
    await quickInput(page).locator('.quick-input-title', { hasText: 'Search Desk' }).waitFor({ state: 'visible', timeout: 15000 });
    assert.equal(await input.inputValue(), 'plan');
    await page.keyboard.press('Escape');
  });
});
