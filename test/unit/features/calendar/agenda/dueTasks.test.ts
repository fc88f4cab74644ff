import * as assert from 'node:assert/strict';
import { dayCount, dayRows, DueTask, dueTaskDescription, withDueTasks } from '../../../../../src/features/calendar/agenda/dueTasks';
import { DueTasksApi, DueTaskStore } from '../../../../../src/features/calendar/agenda/dueTaskStore';
import { groupByDay, occurrenceOf } from '../../../../../src/features/calendar/tree/model';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { allDay, timed } from '../../../../support/fakes/calendar';
import { FakeTasksApi, list, task } from '../../../../support/fakes/tasks';

const ZONE = 'Europe/Berlin';
// Wednesday 25 November 2026, 10:00 in Berlin.
const NOW = Date.parse('2026-11-25T09:00:00Z');
const WINDOW = { now: NOW, timeZone: ZONE, days: 7 };
const due = (id: string, date: string, extra: Partial<Task> = {}): DueTask => ({ listId: 'l', listTitle: 'My Tasks', task: task(id, '1', { title: id, due: `${date}T00:00:00.000Z`, ...extra }) });

describe('Calendar Agenda: due tasks', () => {
  const events = [
    occurrenceOf('primary', timed('standup', '2026-11-26T08:00:00Z', '2026-11-26T08:15:00Z', { summary: 'Stand-up' }), ZONE),
    occurrenceOf('primary', allDay('holiday', '2026-11-26', '2026-11-27', { summary: 'Holiday' }), ZONE),
  ].flatMap((occurrence) => (occurrence ? [occurrence] : []));

  it('puts each task on its due day, after the all-day events and before the timed ones, and counts it', () => {
    const days = withDueTasks(groupByDay(events, WINDOW), [due('report', '2026-11-26')], WINDOW, true);
    const tomorrow = days.find((day) => day.key === '2026-11-26');
    assert.ok(tomorrow);
    assert.equal(tomorrow.relative, 'tomorrow');
    assert.deepEqual(dayRows(tomorrow).map((row) => (row.kind === 'task' ? `task:${row.dueTask.task.id}` : `event:${row.occurrence.event.id}`)), ['event:holiday', 'task:report', 'event:standup']);
    assert.equal(dayCount(tomorrow.occurrences.length, tomorrow.tasks.length), '2 events · 1 task');
  });

  it('gives a day with only tasks a group of its own, in date order, and leaves out days beyond the window', () => {
    const days = withDueTasks(groupByDay(events, WINDOW), [due('a', '2026-11-28'), due('far', '2026-12-09'), due('today', '2026-11-25')], WINDOW, true);
    assert.deepEqual(days.map((day) => `${day.key}:${day.tasks.map((one) => one.task.id).join(',')}`), ['2026-11-25:today', '2026-11-26:', '2026-11-28:a']);
    assert.equal(days[0]?.relative, 'today');
    assert.equal(dayCount(0, 1), '1 task');
  });

  it('shows open overdue tasks on Today, marked, and completed ones only when the Tasks view shows them', () => {
    const tasks = [
      due('late', '2026-11-20'),
      due('late-done', '2026-11-20', { status: 'completed', completed: '2026-11-21T00:00:00.000Z' }),
      due('done', '2026-11-27', { status: 'completed', completed: '2026-11-24T00:00:00.000Z' }),
    ];
    const shown = withDueTasks([], tasks, WINDOW, true);
    assert.deepEqual(shown.map((day) => `${day.key}:${day.tasks.map((one) => one.task.id).join(',')}`), ['2026-11-25:late', '2026-11-27:done']);
    assert.equal(dueTaskDescription(tasks[0], '2026-11-25'), 'overdue since 2026-11-20 · My Tasks');
    assert.equal(dueTaskDescription(tasks[2], '2026-11-25'), 'completed · My Tasks');
    assert.deepEqual(withDueTasks([], tasks, WINDOW, false).map((day) => day.key), ['2026-11-25'], 'hide completed hides them here too');
  });

  it('reads every list once, keeps the copy, and completing a task updates it', async () => {
    const api = new FakeTasksApi([list('home', 'Home'), list('work', 'Work')], {
      home: [[task('a', '1', { title: 'Passport', due: '2026-11-27T00:00:00.000Z' }), task('b', '2', { title: 'No date' })]],
      work: [[task('c', '1', { title: 'Report', due: '2026-11-26T00:00:00.000Z' })]],
    });
    const patched: string[] = [];
    const fakeApi: DueTasksApi = {
      allTaskLists: () => api.allTaskLists(),
      allTasks: (listId, options) => api.allTasks(listId, options),
      patchTask: async (listId, taskId, body) => {
        patched.push(`${listId}/${taskId}:${body.status ?? ''}`);
        return task(taskId, '1', { title: 'Report', due: '2026-11-26T00:00:00.000Z', status: 'completed' });
      },
    };
    let changes = 0;
    const store = new DueTaskStore({ api: () => fakeApi, showCompleted: () => false, onChange: () => changes++, now: () => NOW });
    const loaded = await store.ensureLoaded();
    assert.deepEqual(loaded.map((one) => `${one.listTitle}:${one.task.title}`), ['Home:Passport', 'Work:Report'], 'only tasks with a due date');
    const calls = api.calls.length;
    await store.ensureLoaded();
    assert.equal(api.calls.length, calls, 'kept');
    assert.ok(api.calls.every((call) => call.showCompleted === false));
    const report = loaded[1];
    await store.setCompleted(report, true);
    assert.deepEqual(patched, ['work/c:completed']);
    assert.equal(store.tasks?.[1]?.task.status, 'completed');
    assert.equal(changes, 1);
    store.forget();
    assert.equal(store.tasks, undefined);
    await store.ensureLoaded();
    assert.ok(api.calls.length > calls, 'read again after forget');
  });
});
