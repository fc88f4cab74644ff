import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ViewCache } from '../../../../../src/core/storage/viewCache';
import { DueTaskStore, type DueTasksApi } from '../../../../../src/features/calendar/agenda/dueTaskStore';
import { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import { CalendarTreeModel, type DayNode } from '../../../../../src/features/calendar/tree/model';
import { AGENDA_SNAPSHOT } from '../../../../../src/features/calendar/tree/snapshot';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { entry, FakeCalendarApi, timed } from '../../../../support/fakes/calendar';

const NOW = Date.parse('2026-11-23T12:00:00Z');

/** One account's tasks: one list with one task due on `due`. */
function tasksOf(title: string, due: string): DueTasksApi {
  const task: Task = { kind: 'tasks#task', id: `${title}-id`, etag: '"t"', title, status: 'needsAction', due, position: '00000000000000000000' } as Task;
  return {
    allTaskLists: async function* () { yield { kind: 'tasks#taskList', id: 'list', etag: '"l"', title: 'My Tasks' }; },
    allTasks: async function* () { yield task; },
    patchTask: async () => task,
  } as unknown as DueTasksApi;
}

/** An account's Agenda model as the feature builds one per account: its API, zone, due tasks and cache slot. */
function agendaOf(cache: ViewCache, account: string, zone: string, api: FakeCalendarApi, tasks: DueTasksApi): CalendarTreeModel {
  const store = new EventStore({ api: () => api, onChange: () => undefined, now: () => NOW, timeZone: () => zone });
  return new CalendarTreeModel({
    api: () => api,
    store,
    timeZone: async () => zone,
    daysAhead: () => 7,
    showHidden: () => false,
    isSignedIn: async () => true,
    withProgress: (work) => work(),
    log: () => undefined,
    now: () => NOW,
    dueTasks: { store: new DueTaskStore({ api: () => tasks, showCompleted: () => false, onChange: () => undefined, now: () => NOW }), enabled: () => true, showCompleted: () => false },
    cache: cache.slot(AGENDA_SNAPSHOT, account),
  });
}

describe('Calendar tree model per account (several signed in)', () => {
  it('builds each account\'s Agenda in its own time zone, with its own due tasks, kept in its own slot', async () => {
    const directory = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'desk-agenda-accounts-')), 'view-cache');
    const cache = new ViewCache({ directory, accounts: async () => ['alice@example.com', 'bob@example.com'] });
    // 23:30 UTC on the 23rd: the 24th in Berlin, still the 23rd in New York.
    const event = (): FakeCalendarApi => new FakeCalendarApi([entry('primary', { primary: true })], { primary: [timed('Late call', '2026-11-23T23:30:00Z', '2026-11-24T00:00:00Z')] });
    const alice = agendaOf(cache, 'alice@example.com', 'Europe/Berlin', event(), tasksOf('Alice files taxes', '2026-11-25T00:00:00.000Z'));
    const bob = agendaOf(cache, 'bob@example.com', 'America/New_York', event(), tasksOf('Bob renews passport', '2026-11-26T00:00:00.000Z'));
    const daysOf = async (model: CalendarTreeModel): Promise<Array<{ key: string; rows: string[] }>> => {
      await model.roots();
      const days = (await model.scopeChildren(model.agenda)).filter((node): node is DayNode => node.kind === 'day');
      return days.map((day) => ({ key: day.group.key, rows: model.dayChildren(day).map((row) => (row.kind === 'event' ? String(row.event.summary) : row.kind === 'dueTask' ? row.dueTask.task.title : row.kind)) }));
    };
    assert.deepEqual(await daysOf(alice), [{ key: '2026-11-24', rows: ['Late call'] }, { key: '2026-11-25', rows: ['Alice files taxes'] }]);
    assert.deepEqual(await daysOf(bob), [{ key: '2026-11-23', rows: ['Late call'] }, { key: '2026-11-26', rows: ['Bob renews passport'] }]);
    assert.equal(alice.zone, 'Europe/Berlin');
    assert.equal(bob.zone, 'America/New_York');
    const saved = async (account: string): Promise<string | undefined> => {
      for (;;) {
        const snapshot = await cache.slot(AGENDA_SNAPSHOT, account).read();
        if (snapshot) return snapshot.timeZone;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    assert.equal(await saved('alice@example.com'), 'Europe/Berlin');
    assert.equal(await saved('bob@example.com'), 'America/New_York');
  });
});
