// The Calendar view as a user meets it: the welcome buttons while signed out, sign-in through the emulator's consent
// page, the Agenda expanded with today's and the coming days' events, then the free/busy webview opened from the
// palette (calendars and range picked in quick picks) and walked with the keyboard. Screenshots go to test-results/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { openDeskContainer, showOnlyViews, runCommand, signInThroughConsent, useWorkbench, RESULTS_DIR } from './workbench';

const RESULTS = RESULTS_DIR;

describe('Calendar view (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-calendar-', { seed: 'demo', settings: { 'desk.calendar.daysAhead': 14 } });

  async function shot(page: Page, name: string): Promise<string> {
    const file = path.join(RESULTS, name);
    fs.mkdirSync(RESULTS, { recursive: true });
    const size = page.viewportSize();
    if (size) await page.mouse.move(size.width - 10, size.height - 60);
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
    return file;
  }

  const calendarPane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Calendar"]') });
  const row = (page: Page, label: string | RegExp) => calendarPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  it('offers the emulator and Google sign-in while signed out', async () => {
    const { page } = opened();
    await openDeskContainer(page);
    await showOnlyViews(page, ['Calendar']);
    const header = page.locator('.part.sidebar .pane-header[aria-label^="Calendar"]');
    await header.waitFor({ state: 'visible', timeout: 30000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const welcome = calendarPane(page).locator('.welcome-view-content');
    await welcome.waitFor({ state: 'visible', timeout: 30000 });
    const buttons = await welcome.locator('.monaco-button').allInnerTexts();
    assert.ok(buttons.some((text) => /Use the Local Emulator/i.test(text)), `buttons: ${buttons.join(' | ')}`);
    assert.ok(buttons.some((text) => /Sign in with Google/i.test(text)), `buttons: ${buttons.join(' | ')}`);
  });

  it('signs in and shows the Agenda expanded, by day, with the calendars below', async () => {
    const workbench = opened();
    const { page } = workbench;
    // A retry finds the first attempt signed in already: no welcome button then.
    const agenda = row(page, /^Agenda$/);
    if (!(await agenda.isVisible())) await signInThroughConsent(workbench, { within: calendarPane(page) });
    await agenda.waitFor({ state: 'visible', timeout: 30000 });
    // The demo is laid around the moment it is seeded: something later today, or first thing tomorrow when it is late.
    const today = row(page, /^(Today|Tomorrow)$/);
    await today.waitFor({ state: 'visible', timeout: 30000 });
    // An event of the seeded week, with its time and calendar in the description (due tasks, with their checkbox, come first in a day).
    const events = calendarPane(page).locator('.monaco-list-row[role="treeitem"][aria-level="3"]').filter({ hasNot: page.locator('.custom-view-tree-node-item-checkbox') });
    await events.first().waitFor({ state: 'visible', timeout: 30000 });
    const description = await events.first().locator('.label-description').innerText();
    assert.match(description, /(\d\d:\d\d|All day)/);
    // The status bar counts down to the next event once signed in (if one is within a day).
    await shot(page, 'calendar-view.png');
    // The calendars are below the Agenda's days: collapsed, the Agenda shows them.
    if ((await agenda.getAttribute('aria-expanded')) === 'true') await agenda.locator('.monaco-tl-twistie').click();
    await row(page, /^Team$/).waitFor({ state: 'visible', timeout: 30000 });
  });

  it('opens the free/busy webview from the palette and moves between busy blocks with the keyboard', async () => {
    const { page } = opened();
    await runCommand(page, 'Desk Calendar: Show Free/Busy');
    const input = page.locator('.quick-input-widget input.input');
    // First pick: the calendars (the Agenda's are ticked already); then the range.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Team' }).first().waitFor({ state: 'visible', timeout: 15000 });
    await input.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'The next 7 days' }).first().waitFor({ state: 'visible', timeout: 15000 });
    await input.fill('The next 7 days');
    await input.press('Enter');
    const frame = await webviewFrame(page, '.busy');
    const blocks = frame.locator('.busy');
    assert.ok((await blocks.count()) > 0, 'no busy blocks');
    assert.match(String(await blocks.first().getAttribute('aria-label')), /busy \d\d:\d\d–\d\d:\d\d/);
    await blocks.first().focus();
    await page.keyboard.press('ArrowRight');
    const focused = await frame.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id);
    assert.equal(focused, 'b1', 'the arrow key moved to the next block');
    assert.match(await frame.locator('#status').innerText(), /busy/);
    await shot(page, 'calendar-freebusy.png');
  });
});

/** The webview's content frame (a webview is an iframe holding an iframe) once `selector` is in it. */
async function webviewFrame(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        if (await frame.locator(selector).count() > 0) return frame;
      } catch {
        // a frame that went away while looking
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview frame with ${selector}`);
}
