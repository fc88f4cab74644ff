// Due tasks in the Calendar's Agenda as a user meets them: sign in, open the Calendar view, see the demo's tasks due
// this week on their days (with a checkbox, their list, and the day's count), tick one (checked on the emulator over
// HTTP). Screenshots of the Agenda before and after go to test-results/ui.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { getAsAlice, openDeskContainer, showOnlyViews, signInThroughConsent, useWorkbench } from './workbench';

interface ApiTasks { items?: Array<{ title: string; status: string }> }
interface ApiLists { items: Array<{ id: string; title: string }> }

describe('Due tasks in the Agenda (UI)', function () {
  this.timeout(180000);
  const opened = useWorkbench('failed-calendar-tasks-', { seed: 'demo' });

  const calendarPane = (page: Page) => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Calendar"]') });
  const row = (page: Page, label: string | RegExp) => calendarPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: label }) }).first();

  it('signs in and opens the Agenda', async () => {
    const workbench = opened();
    const { page } = workbench;
    await openDeskContainer(page);
    await showOnlyViews(page, ['Calendar']);
    const header = page.locator('.part.sidebar .pane-header[aria-label^="Calendar"]');
    await header.waitFor({ state: 'visible', timeout: 30000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await signInThroughConsent(workbench, { within: calendarPane(page) });
    await row(page, /^Agenda$/).waitFor({ state: 'visible', timeout: 30000 });
  });

  it('shows the tasks due this week on their days and completes one with its checkbox', async () => {
    const workbench = opened();
    const { page } = workbench;
    // The demo's "Book dentist appointment" is due in three days.
    const dentist = row(page, 'Book dentist appointment');
    await dentist.waitFor({ state: 'visible', timeout: 30000 });
    assert.match(await dentist.locator('.label-description').innerText(), /My Tasks/);
    assert.equal(await dentist.locator('.custom-view-tree-node-item-icon.codicon-tasklist').count(), 1);
    const dayRow = dentist.locator('xpath=preceding-sibling::div[@aria-level="2"][1]');
    assert.match(await dayRow.locator('.label-description').innerText(), /\b\d+ tasks?\b/, 'the day counts its tasks');
    await workbench.screenshot('calendar-agenda-tasks');

    const checkbox = dentist.locator('.custom-view-tree-node-item-checkbox');
    assert.equal(await checkbox.getAttribute('aria-checked'), 'false');
    await checkbox.click();
    const lists = await getAsAlice<ApiLists>(workbench.emulatorUrl, '/tasks/v1/users/@me/lists');
    const myTasks = lists.items.find((list) => list.title === 'My Tasks');
    assert.ok(myTasks);
    for (let attempt = 0; attempt < 100; attempt++) {
      const tasks = await getAsAlice<ApiTasks>(workbench.emulatorUrl, `/tasks/v1/lists/${myTasks.id}/tasks?showCompleted=true&showHidden=true`);
      if (tasks.items?.find((task) => task.title === 'Book dentist appointment')?.status === 'completed') break;
      if (attempt === 99) assert.fail('the task was not completed on the emulator');
      await page.waitForTimeout(100);
    }
    await row(page, 'Book dentist appointment').locator('.custom-view-tree-node-item-checkbox[aria-checked="true"]').waitFor({ state: 'visible', timeout: 15000 });
    // The row is drawn again from the Tasks API's answer: its description says so.
    await row(page, 'Book dentist appointment').locator('.label-description', { hasText: /completed/ }).waitFor({ state: 'attached', timeout: 15000 });
    await workbench.screenshot('calendar-agenda-task-completed');
  });
});
