import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/emulator/core/errors';
import { StoredTask, TaskFilters, TasksModel } from '../../../../src/emulator/tasks/model';
import { MemoryStore } from '../../../../src/emulator/store/store';
import { seededRandom } from '../../../../src/emulator/core/random';

const USER = 'user-1';
const EVERYTHING: TaskFilters = { showCompleted: true, showHidden: true, showDeleted: true, maxResults: 100 };


/** Every task of a list in listing order, across pages. */
function listing(model: TasksModel, listId: string, pageSize = 100): StoredTask[] {
  const items: StoredTask[] = [];
  let pageToken: string | undefined;
  do {
    const page = model.listTasks(USER, listId, { ...EVERYTHING, maxResults: pageSize, pageToken });
    items.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return items;
}

/** The order a reader expects, computed naively from parents and positions alone. */
function naiveTreeOrder(tasks: readonly StoredTask[]): string[] {
  const children = new Map<string, StoredTask[]>();
  for (const task of tasks) {
    const key = task.parent ?? '';
    children.set(key, [...(children.get(key) ?? []), task]);
  }
  const order: string[] = [];
  const walk = (key: string): void => {
    for (const task of [...(children.get(key) ?? [])].sort((a, b) => (a.position < b.position ? -1 : 1))) {
      order.push(task.id);
      walk(task.id);
    }
  };
  walk('');
  return order;
}

describe('tasks model: the cached tree order under random operations', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`matches a naive tree walk and a fresh rebuild after 400 random operations (seed ${seed})`, () => {
      const next = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
      const store = new MemoryStore();
      let clock = 1_700_000_000_000;
      const model = new TasksModel(store, () => clock++);
      const lists = [model.insertTaskList(USER, { title: 'A' }).id, model.insertTaskList(USER, { title: 'B' }).id];
      let refused = 0;
      for (let step = 0; step < 400; step++) {
        const listId = pick(lists) as string;
        const visible = listing(model, listId).filter((task) => !task.deleted && !task.hidden);
        const maybe = (): string | undefined => (next() < 0.5 ? pick(visible)?.id : undefined);
        const roll = next();
        try {
          if (roll < 0.45 || visible.length === 0) {
            // Inserts after a random sibling of a random parent, often into the same gap.
            const parent = maybe();
            const siblings = visible.filter((task) => (task.parent ?? undefined) === parent);
            model.insertTask(USER, listId, { title: `t${step}`, status: next() < 0.2 ? 'completed' : 'needsAction' }, { parent, previous: next() < 0.8 ? pick(siblings)?.id : undefined });
          } else if (roll < 0.75) {
            const task = pick(visible) as StoredTask;
            const across = next() < 0.2;
            const destination = across ? (lists.find((id) => id !== listId) as string) : listId;
            const targets = across ? listing(model, destination).filter((item) => !item.deleted && !item.hidden) : visible;
            const parent = next() < 0.5 ? pick(targets)?.id : undefined;
            const previous = pick(targets.filter((item) => (item.parent ?? undefined) === parent))?.id;
            model.moveTask(USER, listId, task.id, { parent, previous, ...(across ? { destinationTasklist: destination } : {}) });
          } else if (roll < 0.85) {
            model.deleteTask(USER, listId, (pick(visible) as StoredTask).id);
          } else if (roll < 0.9) {
            model.clear(USER, listId);
          } else {
            model.updateTask(USER, listId, (pick(visible) as StoredTask).id, { status: next() < 0.5 ? 'completed' : 'needsAction' }, 'patch');
          }
        } catch (error) {
          // Random moves under a descendant or onto a moved task are refused; anything else is a bug.
          assert.ok(error instanceof ApiError && error.code === 400, String(error));
          refused++;
        }
      }
      const reopened = new TasksModel(store, () => clock);
      for (const listId of lists) {
        const live = listing(model, listId, 7);
        assert.deepEqual(live.map((task) => task.id), naiveTreeOrder(live), 'listing is in tree order');
        assert.deepEqual(listing(reopened, listId, 100).map((task) => task.id), live.map((task) => task.id), 'a rebuild agrees');
        for (const task of live) assert.equal(task.listId, listId);
      }
      assert.ok(refused < 200, `too many refused operations (${refused}) for the test to mean much`);
    });
  }
});
