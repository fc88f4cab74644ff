// The Drive view as a user meets it: sign in through the emulator's consent page, browse the seeded My Drive,
// open a file from the tree, and watch the status bar announce a file another client created over HTTP.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fetch from 'node-fetch';
import type { Page } from 'playwright-core';
import { emulatorToken, openDeskContainer, showOnlyViews, signInThroughConsent, treeRows, useWorkbench, RESULTS_DIR } from './workbench';

const RESULTS = RESULTS_DIR;

describe('Drive view (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-drive-', { seed: 'demo' });

  async function shot(page: Page, name: string): Promise<string> {
    const file = path.join(RESULTS, name);
    fs.mkdirSync(RESULTS, { recursive: true });
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
    return file;
  }

  /** Another client of alice's account, straight over HTTP. */
  async function asAnotherClient(method: string, pathname: string, json?: unknown): Promise<number> {
    const workbench = opened();
    const token = await emulatorToken(workbench.emulatorUrl);
    const response = await fetch(`${workbench.emulatorUrl}${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    await response.text();
    return response.status;
  }

  const row = (page: Page, label: string) => treeRows(page).filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  it('signs in and shows My Drive with folders first', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench);

    // Give the Drive view the side bar: collapse the others (Tasks above it, Calendar below, open by default), whose
    // rows would also match a label looked for here ("Design review: Desk calendar" for "Desk").
    await showOnlyViews(page, ['Drive']);

    await row(page, 'My Drive').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'ideas.txt').waitFor({ state: 'visible', timeout: 30000 });
    const labels = (await treeRows(page).locator('.label-name').allInnerTexts()).map((text) => text.trim());
    const start = labels.indexOf('My Drive');
    assert.deepEqual(labels.slice(start + 1, start + 5), ['Notes', 'Photos', 'Projects', 'ideas.txt']);

    await row(page, 'Projects').click();
    await row(page, 'Desk').waitFor({ state: 'visible', timeout: 15000 });
    await row(page, 'Desk').click();
    await row(page, 'roadmap.txt').waitFor({ state: 'visible', timeout: 15000 });
    await row(page, 'Budget').waitFor({ state: 'visible' });
    await row(page, 'roadmap.txt').hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Owner' }).first().waitFor({ state: 'visible', timeout: 10000 }).catch(() => undefined);
    await shot(page, 'drive-tree.png');
  });

  it('opens a file from the tree in an editor', async () => {
    const workbench = opened();
    const { page } = workbench;
    await row(page, 'roadmap.txt').click();
    await page.locator('.editor-group-container .tab', { hasText: 'roadmap.txt' }).first().waitFor({ state: 'visible', timeout: 20000 });
    await page.locator('.editor-group-container .view-lines', { hasText: 'Q2: Drive file system' }).first().waitFor({ state: 'visible', timeout: 20000 });
  });

  it('announces a file created by another client in the status bar and lists it on click', async () => {
    const workbench = opened();
    const { page } = workbench;
    // The user is active in the window (the poller's quick path).
    await row(page, 'Notes').click();
    assert.equal(await asAnotherClient('POST', '/drive/v2/files', { title: 'from-phone.txt', mimeType: 'text/plain', parents: [{ id: 'root' }] }), 200);
    const item = page.locator('.part.statusbar .statusbar-item', { hasText: /from-phone\.txt|Drive change/ }).first();
    await item.waitFor({ state: 'visible', timeout: 60000 });
    assert.match(await item.innerText(), /from-phone\.txt added|\d+ Drive changes/);
    // The My Drive listing refreshed by itself.
    await row(page, 'from-phone.txt').waitFor({ state: 'visible', timeout: 15000 });
    await shot(page, 'drive-status-bar.png');

    await item.click();
    const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'from-phone.txt' }).first();
    await pick.waitFor({ state: 'visible', timeout: 15000 });
    await shot(page, 'drive-changes-pick.png');
    await pick.click();
    await page.locator('.editor-group-container .tab', { hasText: 'from-phone.txt' }).first().waitFor({ state: 'visible', timeout: 20000 });
    // Seen: the item goes away until the next change.
    await item.waitFor({ state: 'hidden', timeout: 15000 });
  });
});
