// The Tasks view as a user meets it: the welcome buttons, the real consent page of the emulator in the
// browser, the task rows, and completing a task with its checkbox (checked on the emulator over HTTP).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { getAsAlice, openDeskContainer, type PageElement, runCommand, signInThroughConsent, useWorkbench, RESULTS_DIR } from './workbench';

interface ApiTask { id: string; title: string; status: string }
interface ApiList { id: string; title: string }

describe('Tasks view (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-tasks-', { seed: 'demo' });

  async function asAlice<T>(pathname: string): Promise<T> {
    const workbench = opened();
    return getAsAlice<T>(workbench.emulatorUrl, pathname);
  }

  /** The Tasks pane of the Desk container (the Drive pane sits below it). */
  const tasksPane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Tasks"]') });
  /** A row of the Tasks tree by its label. */
  const row = (page: Page, label: string) => tasksPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  it('offers the emulator and Google sign-in while signed out', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    const welcome = tasksPane(page).locator('.welcome-view-content');
    await welcome.waitFor({ state: 'visible', timeout: 30000 });
    const buttons = await welcome.locator('.monaco-button').allInnerTexts();
    assert.ok(buttons.some((text) => /Use the Local Emulator/i.test(text)), `buttons: ${buttons.join(' | ')}`);
    assert.ok(buttons.some((text) => /Sign in with Google/i.test(text)), `buttons: ${buttons.join(' | ')}`);
  });

  it('signs in through the consent page and shows the task lists', async () => {
    const workbench = opened();
    const { page } = workbench;
    await signInThroughConsent(workbench, {
      within: tasksPane(page),
      // The consent page is the emulator's, reached through the workbench's own address (a browser-hosted
      // workbench proxies localhost ports).
      beforeChoice: async (consent) => { assert.match(consent.url(), /\/o\/oauth2\/v2\/auth\?/); },
      afterChoice: async (consent) => { assert.match(await consent.locator('body').innerText(), /signed in|you can close|return to/i); },
    });

    await row(page, 'My Tasks').waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'Groceries').waitFor({ state: 'visible' });
  });

  it('shows real task rows and completes one with its checkbox', async () => {
    const workbench = opened();
    const { page } = workbench;
    const myTasks = row(page, 'My Tasks');
    if ((await myTasks.getAttribute('aria-expanded')) !== 'true') await myTasks.click();
    const water = row(page, 'Water the plants');
    await water.waitFor({ state: 'visible', timeout: 30000 });
    await row(page, 'Plan the weekend trip').waitFor({ state: 'visible' });
    await row(page, 'Book the hotel').waitFor({ state: 'visible' });

    const checkbox = water.locator('.custom-view-tree-node-item-checkbox');
    assert.equal(await checkbox.getAttribute('aria-checked'), 'false');
    await checkbox.click();

    const lists = await asAlice<{ items: ApiList[] }>('/tasks/v1/users/@me/lists');
    const list = lists.items.find((item) => item.title === 'My Tasks');
    assert.ok(list);
    let status = '';
    for (let attempt = 0; attempt < 50 && status !== 'completed'; attempt++) {
      const tasks = await asAlice<{ items: ApiTask[] }>(`/tasks/v1/lists/${encodeURIComponent(list.id)}/tasks`);
      status = tasks.items.find((task) => task.title === 'Water the plants')?.status ?? '';
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 'completed', 'the emulator did not record the completion');
    await row(page, 'Water the plants').locator('.custom-view-tree-node-item-checkbox[aria-checked="true"]').waitFor({ timeout: 15000 });

    // The hover (notes, resolved lazily) makes the picture more telling; hovers are timing-bound, so it is
    // not asserted here (the extension-host suite checks the hover's text).
    await page.mouse.move(800, 600);
    await row(page, 'Renew passport').locator('.label-name').hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Photos are in the top drawer' }).first().waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
    const file = path.join(RESULTS_DIR, 'tasks.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
  });

  it('adds a task from the command palette: picks the list, then asks for the title', async () => {
    const workbench = opened();
    const { page } = workbench;
    await runCommand(page, 'Desk Tasks: Add Task…');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('.monaco-list-row', { hasText: 'Groceries' }).first().waitFor({ state: 'visible', timeout: 15000 });
    await quickInput.locator('input.input').fill('Groceries');
    await quickInput.locator('input.input').press('Enter');
    // The same widget turns into the title input box: wait for its prompt before typing.
    await quickInput.locator('.quick-input-message, .quick-input-title', { hasText: /New task/ }).first().waitFor({ state: 'visible', timeout: 15000 });
    await quickInput.locator('input.input').fill('Batteries (AA)');
    await quickInput.locator('input.input').press('Enter');

    // Desk reveals and selects the new task (expanding its list): no click here, a click could race the
    // reveal and collapse the list again.
    const added = row(page, 'Batteries (AA)');
    await added.waitFor({ state: 'visible', timeout: 15000 });
    await page.waitForFunction((element: PageElement | null) => element?.getAttribute('aria-selected') === 'true', await added.elementHandle(), { timeout: 15000 });
    const lists = await asAlice<{ items: ApiList[] }>('/tasks/v1/users/@me/lists');
    const list = lists.items.find((item) => item.title === 'Groceries');
    assert.ok(list);
    const tasks = await asAlice<{ items: ApiTask[] }>(`/tasks/v1/lists/${encodeURIComponent(list.id)}/tasks`);
    assert.ok(tasks.items.some((task) => task.title === 'Batteries (AA)'));
    await workbench.screenshot('tasks-added-from-palette');
  });
});
