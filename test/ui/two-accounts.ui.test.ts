// Two accounts at once, as a user meets them (issue 29): signed in as alice through the consent page, bob added with
// "Desk: Add Another Account…" (the consent page again, bob chosen). Tasks, Drive and Calendar each show a root per
// account (name, e-mail); a task ticked under alice's root is completed in alice's Tasks and one under bob's root in
// bob's (checked on the emulator over HTTP as each). The screenshot shows the three views with both roots.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { emulatorToken, notification, openDeskContainer, runCommand, showOnlyViews, signInThroughConsent, useWorkbench, RESULTS_DIR } from './workbench';

interface ApiTask { id: string; title: string; status: string }
interface ApiList { id: string; title: string }

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

describe('Two accounts at once (UI)', function () {
  this.timeout(240000);
  const opened = useWorkbench('failed-two-accounts-', { seed: 'demo' });

  /** A side-bar pane by its title. */
  const pane = (page: Page, title: string): Locator => page.locator('.part.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label^="${title}"]`) });
  /** The rows of a pane whose label is `label` (two accounts can have a list of the same name). */
  const rows = (page: Page, title: string, label: string): Locator => pane(page, title).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) });

  /** A task's status in `account`'s list `listTitle`, asked of the emulator as that account. */
  async function statusOf(account: string, listTitle: string, taskTitle: string): Promise<string> {
    const { emulatorUrl } = opened();
    const headers = { Authorization: `Bearer ${await emulatorToken(emulatorUrl, account)}` };
    const lists = (await (await fetch(`${emulatorUrl}/tasks/v1/users/@me/lists`, { headers })).json()) as { items: ApiList[] };
    const list = lists.items.find((item) => item.title === listTitle);
    assert.ok(list, `${account} has "${listTitle}"`);
    const tasks = (await (await fetch(`${emulatorUrl}/tasks/v1/lists/${encodeURIComponent(list.id)}/tasks?showCompleted=true&showHidden=true`, { headers })).json()) as { items: ApiTask[] };
    return tasks.items.find((task) => task.title === taskTitle)?.status ?? '';
  }

  async function completedOnEmulator(account: string, listTitle: string, taskTitle: string): Promise<void> {
    let status = '';
    for (let attempt = 0; attempt < 75 && status !== 'completed'; attempt++) {
      status = await statusOf(account, listTitle, taskTitle);
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 'completed', `${account}'s "${taskTitle}" was not completed on the emulator`);
  }

  /** Ticks the checkbox of the task row `taskTitle` and waits until the row shows it checked. */
  async function tick(page: Page, taskTitle: string): Promise<void> {
    const task = rows(page, 'Tasks', taskTitle).first();
    await task.waitFor({ state: 'visible', timeout: 30000 });
    const checkbox = task.locator('.custom-view-tree-node-item-checkbox');
    assert.equal(await checkbox.getAttribute('aria-checked'), 'false');
    await checkbox.click();
    await rows(page, 'Tasks', taskTitle).first().locator('.custom-view-tree-node-item-checkbox[aria-checked="true"]').waitFor({ timeout: 15000 });
  }

  /** Alice's roots in Drive and Calendar folded, so bob's root shows below hers in the small panes. */
  async function foldAlicesRoots(page: Page): Promise<void> {
    for (const view of ['Drive', 'Calendar']) {
      const aliceRoot = rows(page, view, 'Alice Demo').first();
      await aliceRoot.waitFor({ state: 'visible', timeout: 30000 });
      if ((await aliceRoot.getAttribute('aria-expanded')) === 'true') await aliceRoot.locator('.label-name').click();
      await rows(page, view, 'Alice Demo').first().and(page.locator('[aria-expanded="false"]')).waitFor({ timeout: 15000 });
    }
  }

  it('signs in as alice, adds bob beside her, and shows a root per account in Tasks, Drive and Calendar', async () => {
    const workbench = opened();
    const { page, browserContext } = workbench;
    await openDeskContainer(page);
    await signInThroughConsent(workbench, { within: pane(page, 'Tasks'), account: ALICE });
    await rows(page, 'Tasks', 'My Tasks').first().waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await rows(page, 'Tasks', 'Alice Demo').count(), 0, 'one account: no account root');

    const consentPage = browserContext.waitForEvent('page', { timeout: 30000 });
    await runCommand(page, 'Desk: Add Another Account…');
    const consent = await consentPage;
    await consent.waitForLoadState('domcontentloaded');
    await consent.locator(`button[name="account"][value="${BOB}"]`).click();
    await consent.waitForLoadState('domcontentloaded');
    await consent.close();
    await notification(page, BOB).first().waitFor({ state: 'visible', timeout: 30000 });

    await showOnlyViews(page, ['Tasks', 'Drive', 'Calendar']);
    await foldAlicesRoots(page);
    for (const view of ['Tasks', 'Drive', 'Calendar']) {
      for (const [name, email] of [['Alice Demo', ALICE], ['Bob Demo', BOB]] as const) {
        const root = rows(page, view, name).first();
        await root.waitFor({ state: 'visible', timeout: 30000 });
        assert.match(await root.innerText(), new RegExp(email.replace(/\./g, '\\.')), `${view}: ${name}'s root shows the e-mail`);
      }
    }
  });

  it('completes a task under alice\'s root in alice\'s Tasks and one under bob\'s root in bob\'s, and shows both roots', async () => {
    const { page } = opened();
    await showOnlyViews(page, ['Tasks']);
    // Alice's "My Tasks" comes first (her root is first), bob's second.
    const aliceList = rows(page, 'Tasks', 'My Tasks').nth(0);
    if ((await aliceList.getAttribute('aria-expanded')) !== 'true') await aliceList.click();
    await tick(page, 'Water the plants');
    await completedOnEmulator(ALICE, 'My Tasks', 'Water the plants');
    assert.notEqual(await statusOf(BOB, 'My Tasks', 'Call the landlord'), 'completed');
    // Alice's list folded again, so bob's rows have the room.
    await rows(page, 'Tasks', 'My Tasks').nth(0).click();
    const bobList = rows(page, 'Tasks', 'My Tasks').nth(1);
    await bobList.waitFor({ state: 'visible', timeout: 15000 });
    if ((await bobList.getAttribute('aria-expanded')) !== 'true') await bobList.click();
    await tick(page, 'Call the landlord');
    await completedOnEmulator(BOB, 'My Tasks', 'Call the landlord');

    // The picture: the three views, each with both roots (alice's Drive and Calendar folded so bob's shows beside).
    await showOnlyViews(page, ['Tasks', 'Drive', 'Calendar']);
    await foldAlicesRoots(page);
    for (const view of ['Drive', 'Calendar']) await rows(page, view, 'Bob Demo').first().waitFor({ state: 'visible', timeout: 15000 });
    await page.mouse.move(900, 600);
    const file = path.join(RESULTS_DIR, 'two-accounts.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    assert.ok(fs.statSync(file).size > 0);
  });
});
