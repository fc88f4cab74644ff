/** The Tasks search keeps what a pick loaded: the next pick of the account reads only the tasks changed since. */
import * as assert from 'node:assert/strict';
import type { ListTasksOptions } from '../../../../../src/api/tasks';
import { TaskSearchMemory, TasksSearchSource } from '../../../../../src/features/search/sources/tasks';
import type { Task, TaskList } from '../../../../../src/shared/schemas/tasks';
import { list, task } from '../../../../support/fakes/tasks';

/** One list on a server with `updated` times, updatedMin and showDeleted as the Tasks API has them. */
class UpdatedTasksApi {
  readonly downloaded: Array<{ options: ListTasksOptions; count: number }> = [];
  readonly tasks = new Map<string, Task>();
  constructor(readonly lists: TaskList[]) {}

  async *allTaskLists(): AsyncGenerator<TaskList> {
    yield* this.lists;
  }

  async *allTasks(_listId: string, options: ListTasksOptions = {}): AsyncGenerator<Task> {
    const since = options.updatedMin ? Date.parse(options.updatedMin) : -Infinity;
    const items = [...this.tasks.values()].filter((one) => (options.showDeleted || !one.deleted) && Date.parse(one.updated) >= since);
    this.downloaded.push({ options, count: items.length });
    yield* items;
  }
}

describe('Desk search: Tasks kept between picks', () => {
  const hour = 3_600_000;
  const start = Date.parse('2026-11-20T09:00:00Z');
  const at = (ms: number): string => new Date(ms).toISOString();

  it('a later pick of the account reads only the tasks updated since (deleted ones leave), another account reads all', async () => {
    const api = new UpdatedTasksApi([list('home', 'Home')]);
    for (let index = 0; index < 500; index++) api.tasks.set(`t${index}`, task(`t${index}`, String(index), { title: `Chore ${index}`, updated: at(start - (24 + index) * hour) }));
    api.tasks.set('t7', task('t7', '7', { title: 'Renew passport', updated: at(start - 31 * hour) }));
    const memory = new TaskSearchMemory();
    const pick = (account: string): TasksSearchSource => new TasksSearchSource(api, undefined, {}, async () => undefined, { memory, account });
    const signal = new AbortController().signal;

    assert.deepEqual((await pick('alice@example.com').search('passport', signal)).map((hit) => hit.title), ['Renew passport']);
    assert.deepEqual(api.downloaded.map((read) => read.count), [500], 'the first pick reads every task');

    api.tasks.set('new', task('new', '999', { title: 'Chore new', updated: at(start + hour) }));
    api.tasks.set('t7', { ...(api.tasks.get('t7') as Task), deleted: true, updated: at(start + hour) });
    const later = await pick('alice@example.com').search('passport', signal);
    const second = api.downloaded.at(1);
    assert.equal(second?.count, 3, 'the two tasks changed since the first pick, and the newest it saw (the margin)');
    assert.equal(second.options.showDeleted, true);
    assert.ok(Date.parse(second.options.updatedMin ?? '') < start - 24 * hour && Date.parse(second.options.updatedMin ?? '') > start - 25 * hour, 'from the newest task the first read saw (server time), less a margin');
    assert.deepEqual(later, [], 'the deleted task is gone');
    const found = await pick('alice@example.com').search('chore new', signal);
    assert.deepEqual(found.map((hit) => hit.title), ['Chore new']);

    const before = api.downloaded.length;
    await pick('bob@example.com').search('chore', signal);
    assert.equal(api.downloaded[before]?.count, 500, 'another account never starts from alice\'s tasks');
    assert.equal(api.downloaded[before]?.options.updatedMin, undefined);
  });
});
