// The Channels view as a user meets it: sign in, start the built-in receiver from the palette (Desk then makes its own
// channel for Drive's live changes), watch a calendar's events and all Drive changes through the palette's prompts,
// let changes made elsewhere arrive, and look at the rows: expiry countdowns, message counts, the notifications.
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import type { Page } from 'playwright-core';
import { emulatorToken, openDeskContainer, runCommand, showOnlyViews, signInThroughConsent, useWorkbench } from './workbench';

describe('Channels view (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-channels-', { seed: 'demo' });

  const pane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Channels"]') });
  const rows = (page: Page) => pane(page).locator('.monaco-list-row[role="treeitem"]');
  const row = (page: Page, text: string | RegExp) => rows(page).filter({ hasText: text }).first();

  /** Answers the palette's input box once it asks `prompt`: keeps the offered value, or types `value`. */
  async function answer(page: Page, prompt: string | RegExp, value?: string): Promise<void> {
    await page.locator('.quick-input-widget .quick-input-message', { hasText: prompt }).first().waitFor({ state: 'visible', timeout: 15000 });
    const input = page.locator('.quick-input-widget input.input');
    if (value !== undefined) await input.fill(value);
    await input.press('Enter');
  }

  /** Waits for a row whose label and description match; on timeout the error lists what the rows said. */
  async function rowShows(page: Page, text: RegExp, timeoutMs = 30000): Promise<void> {
    try {
      await row(page, text).waitFor({ state: 'visible', timeout: timeoutMs });
    } catch (error) {
      const said = await rows(page).allInnerTexts();
      throw new Error(`no row matched ${String(text)} in ${timeoutMs / 1000} s; the rows: ${said.map((line) => line.replace(/\s+/g, ' ')).join(' | ')}`, { cause: error });
    }
  }

  async function asAnotherClient(pathname: string, json: unknown): Promise<void> {
    const { emulatorUrl } = opened();
    const response = await fetch(`${emulatorUrl}${pathname}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await emulatorToken(emulatorUrl)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(json),
    });
    assert.equal(response.status, 200, await response.text());
  }

  /** Set once signed in: a retry of the test runs in the same window (the workbench lives for the whole file). */
  let signedIn = false;
  let receiverStarted = false;

  it('shows each channel with its expiry countdown and message count, and the notifications under it', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await showOnlyViews(page, ['Channels']);
    if (!signedIn) await signInThroughConsent(workbench, { within: pane(page) });
    signedIn = true;

    // The palette offers Start only while the receiver is stopped: a retry finds it running.
    if (!receiverStarted) await runCommand(page, 'Desk Channels: Start Notification Receiver');
    receiverStarted = true;
    // Desk's own channel for Drive's live changes comes with the receiver (desk.drive.pushChanges is on by default).
    const deskOwn = row(page, 'Desk\'s live Drive changes');
    await deskOwn.waitFor({ state: 'visible', timeout: 30000 });

    await runCommand(page, 'Desk Channels: Watch a Calendar\'s Events');
    await answer(page, 'calendar whose events');
    await answer(page, 'HTTPS address');
    await answer(page, 'token', 'calendar-token');
    await row(page, 'Events of calendar primary').waitFor({ state: 'visible', timeout: 30000 });

    await runCommand(page, 'Desk Channels: Watch All Drive Changes');
    await answer(page, 'HTTPS address');
    await answer(page, 'token', 'drive-token');
    const userDrive = row(page, 'All Drive changes');
    await userDrive.waitFor({ state: 'visible', timeout: 30000 });

    // Changes made elsewhere: a file, and two events.
    await asAnotherClient('/drive/v2/files', { title: 'from-the-phone.txt', mimeType: 'text/plain' });
    const start = new Date(Date.now() + 86_400_000);
    for (const summary of ['Standup', 'Review']) {
      await asAnotherClient('/calendar/v3/calendars/primary/events', { summary, start: { dateTime: start.toISOString() }, end: { dateTime: new Date(start.getTime() + 1_800_000).toISOString() } });
    }
    // The sync and one `exists` at least: Calendar says only that something changed, so the emulator (as Google
    // may) folds an `exists` into one still waiting behind a message in flight; on a slow machine the two events share one.
    await rowShows(page, /Events of calendar primary.*[23] messages/);
    await rowShows(page, /All Drive changes.*2 messages/);
    await rowShows(page, /Desk's live Drive changes.*messages/);

    // The user's Drive channel opened: its notifications, newest first.
    await userDrive.locator('.label-name').click();
    await row(page, /#\d+ change/).waitFor({ state: 'visible', timeout: 15000 });
    await row(page, '#1 sync').waitFor({ state: 'visible', timeout: 15000 });
    const descriptions = await rows(page).locator('.label-description').allInnerTexts();
    assert.ok(descriptions.some((text) => /expires in \d+m \d+s · 2 messages/.test(text)), `descriptions: ${descriptions.join(' | ')}`);
    assert.ok(descriptions.some((text) => /expires in \d+d \d+h · [23] messages/.test(text)), `descriptions: ${descriptions.join(' | ')}`);
    // Notification times as the Calendar view writes times: 24-hour, no AM/PM.
    assert.ok(descriptions.some((text) => /^\d{2}:\d{2}$/.test(text.trim())), `descriptions: ${descriptions.join(' | ')}`);
    assert.ok(!descriptions.some((text) => /\b[AP]M\b/.test(text)), `descriptions: ${descriptions.join(' | ')}`);
    // The receiver's counter has its own icon: not the bell of VS Code's notifications, nor the radio tower of its ports.
    await page.locator('.part.statusbar .statusbar-item .codicon-inbox').first().waitFor({ state: 'visible', timeout: 10000 });
    // A wider side bar, so the descriptions (countdown, count) are read whole.
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    if (sidebar) {
      const y = sidebar.y + sidebar.height / 2;
      await page.mouse.move(sidebar.x + sidebar.width, y);
      await page.mouse.down();
      await page.mouse.move(sidebar.x + sidebar.width + 200, y, { steps: 8 });
      await page.mouse.up();
      // Away from the sash, so its highlight fades before the picture.
      await page.mouse.move(sidebar.x + sidebar.width + 500, y);
      await page.waitForTimeout(800);
    }
    await workbench.screenshot('channels-view');

    // A row's hover says in words what is watched, where the notifications go and when the channel expires; the ids come last.
    await row(page, 'Events of calendar primary').locator('.label-name').hover();
    const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Notifications go to' }).first();
    await hover.waitFor({ state: 'visible', timeout: 15000 });
    const said = await hover.innerText();
    assert.match(said, /^Events of your primary calendar/, said);
    // The address offered was the built-in receiver's, and a token was given.
    assert.match(said, /Notifications go to Desk's built-in receiver\.\s+Each notification carries your token\.\s+Expires [^\n]*\d{2}:\d{2}\./, said);
    assert.match(said, /notifications? arrived/, said);
    await workbench.screenshot('channels-hover', { keepPointer: true });
  });
});
