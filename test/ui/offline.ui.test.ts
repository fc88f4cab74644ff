// Offline as a user sees it: the emulator stops (a network loss), the Tasks view keeps its rows with a header saying
// it is offline, a task ticked meanwhile shows at once and the status bar says "Offline · 1 change waiting"; the
// emulator starts again on the same data and, with no click, the status item goes and the emulator has the change.
// The Drive and Calendar views, loaded before, keep their rows offline too, under the same header.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { getAsAlice, openDeskContainer, showOnlyViews, signInThroughConsent, useWorkbench } from './workbench';

interface ApiTask { id: string; title: string; status: string }
interface ApiList { id: string; title: string }

describe('Offline (UI)', function () {
  this.timeout(180000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-offline-ui-'));
  const opened = useWorkbench('failed-offline-', { seed: 'demo', dataDir });
  after(() => { fs.rmSync(dataDir, { recursive: true, force: true }); });

  const tasksPane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Tasks"]') });
  const row = (page: Page, label: string) => tasksPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();
  const pane = (page: Page, title: string) => page.locator('.part.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label^="${title}"]`) });
  const paneRow = (page: Page, title: string, label: string | RegExp) => pane(page, title).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();
  const statusItem = (page: Page) => page.locator('.statusbar-item').filter({ hasText: /Offline|changes? waiting/ }).first();

  it('keeps the rows, says it is offline and what waits, and catches up on its own', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench, { within: tasksPane(page) });
    // Drive and the Calendar's Agenda are loaded while online, as a user would have seen them before the network went.
    await showOnlyViews(page, ['Drive', 'Calendar']);
    await paneRow(page, 'Drive', 'Notes').waitFor({ state: 'visible', timeout: 30000 });
    await paneRow(page, 'Calendar', /^(Today|Tomorrow)$/).waitFor({ state: 'visible', timeout: 30000 });
    await showOnlyViews(page, ['Tasks']);
    const myTasks = row(page, 'My Tasks');
    await myTasks.waitFor({ state: 'visible', timeout: 30000 });
    if ((await myTasks.getAttribute('aria-expanded')) !== 'true') await myTasks.click();
    const water = row(page, 'Water the plants');
    await water.waitFor({ state: 'visible', timeout: 30000 });

    await workbench.stopEmulator();
    await water.locator('.custom-view-tree-node-item-checkbox').click();
    await statusItem(page).waitFor({ state: 'visible', timeout: 60000 });
    await page.locator('.statusbar-item', { hasText: '1 change waiting' }).first().waitFor({ state: 'visible', timeout: 30000 });
    // The view keeps its rows, with its header message; the ticked task shows ticked.
    await tasksPane(page).locator('.message', { hasText: /Offline since/ }).first().waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'Plan the weekend trip').waitFor({ state: 'visible' });
    assert.equal(await water.locator('.custom-view-tree-node-item-checkbox').getAttribute('aria-checked'), 'true');
    await workbench.screenshot('offline-tasks-view-and-status');
    // Drive and Calendar: their rows stay, under the header saying since when Desk is offline; no error rows.
    await showOnlyViews(page, ['Drive', 'Calendar']);
    for (const title of ['Drive', 'Calendar']) await pane(page, title).locator('.message', { hasText: /Offline since/ }).first().waitFor({ state: 'visible', timeout: 30000 });
    await paneRow(page, 'Drive', 'Notes').waitFor({ state: 'visible', timeout: 30000 });
    await paneRow(page, 'Calendar', /^(Today|Tomorrow)$/).waitFor({ state: 'visible', timeout: 30000 });
    for (const title of ['Drive', 'Calendar']) {
      const text = (await pane(page, title).locator('.monaco-list-row[role="treeitem"]').allInnerTexts()).join(' | ');
      assert.doesNotMatch(text, /Could not load|ECONN|https?:\/\/|\?[a-z]+=/, `${title}: ${text}`);
    }
    await workbench.screenshot('offline-drive-calendar-views');
    await showOnlyViews(page, ['Tasks']);

    await workbench.restartEmulator();
    await statusItem(page).waitFor({ state: 'hidden', timeout: 90000 });
    await workbench.screenshot('offline-back-online');
    const lists = await getAsAlice<{ items: ApiList[] }>(workbench.emulatorUrl, '/tasks/v1/users/@me/lists');
    const list = lists.items.find((candidate) => candidate.title === 'My Tasks');
    assert.ok(list);
    const tasks = await getAsAlice<{ items: ApiTask[] }>(workbench.emulatorUrl, `/tasks/v1/lists/${list.id}/tasks?showCompleted=true&showHidden=true`);
    assert.equal(tasks.items.find((task) => task.title === 'Water the plants')?.status, 'completed');
  });
});
