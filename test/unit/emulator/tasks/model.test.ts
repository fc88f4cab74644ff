import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/emulator/core/errors';
import { DEFAULT_LIST_TITLE, LIMITS, StoredTask, TaskFilters, TasksModel, truncateDue } from '../../../../src/emulator/tasks/model';
import { MemoryStore } from '../../../../src/emulator/store/store';
import { TaskInput } from '../../../../src/shared/schemas/tasks';

const ALICE = 'alice-id';
const BOB = 'bob-id';

const ALL: TaskFilters = { showCompleted: true, showHidden: true, showDeleted: true, maxResults: 100 };
const DEFAULTS: TaskFilters = { showCompleted: true, showHidden: false, showDeleted: false, maxResults: 100 };

function expectApiError(action: () => unknown, code: number, reason?: string, location?: string): ApiError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (reason) assert.equal(error.reason, reason);
    if (location) assert.equal(error.detail.location, location);
    return error;
  }
  assert.fail(`expected a ${code} ApiError`);
}

describe('tasks model', () => {
  let clock: number;
  let model: TasksModel;
  let store: MemoryStore;
  let list: string;

  const titles = (filters: TaskFilters = DEFAULTS, listId = list): string[] =>
    model.listTasks(ALICE, listId, filters).items.map((task) => task.title);
  const insert = (title: string, placement: { parent?: string; previous?: string } = {}, extra: TaskInput = {}): StoredTask =>
    model.insertTask(ALICE, list, { title, ...extra }, placement);

  beforeEach(() => {
    clock = Date.parse('2026-11-22T10:00:00.000Z');
    store = new MemoryStore();
    model = new TasksModel(store, () => clock);
    list = model.insertTaskList(ALICE, { title: 'Work' }).id;
  });

  describe('task lists', () => {
    it('creates the default "My Tasks" list on first access, once', () => {
      const fresh = new TasksModel(new MemoryStore(), () => clock);
      const first = fresh.listTaskLists(BOB, { maxResults: 100 });
      assert.deepEqual(first.items.map((item) => item.title), [DEFAULT_LIST_TITLE]);
      assert.equal(fresh.listTaskLists(BOB, { maxResults: 100 }).items.length, 1);
      assert.equal(fresh.getTaskList(BOB, '@default').id, first.items[0]?.id);
    });

    it('keeps users apart: another user\'s list is a 404', () => {
      expectApiError(() => model.getTaskList(BOB, list), 404, 'notFound');
      expectApiError(() => model.insertTask(BOB, list, { title: 'x' }, {}), 404);
      expectApiError(() => { model.deleteTaskList(BOB, list); }, 404);
      assert.ok(model.getTaskList(ALICE, list));
    });

    it('requires a title on insert and update, patch merges', () => {
      expectApiError(() => model.insertTaskList(ALICE, {}), 400, 'required');
      expectApiError(() => model.updateTaskList(ALICE, list, {}, 'update'), 400, 'required');
      const before = model.getTaskList(ALICE, list).etag;
      const patched = model.updateTaskList(ALICE, list, {}, 'patch');
      assert.equal(patched.title, 'Work');
      assert.notEqual(patched.etag, before, 'every change gets a new etag');
      assert.equal(model.updateTaskList(ALICE, list, { title: 'Job' }, 'update').title, 'Job');
    });

    it('pages task lists with opaque tokens', () => {
      for (let index = 0; index < 4; index++) model.insertTaskList(ALICE, { title: `L${index}` });
      const first = model.listTaskLists(ALICE, { maxResults: 2 });
      assert.equal(first.items.length, 2);
      assert.ok(first.nextPageToken);
      const second = model.listTaskLists(ALICE, { maxResults: 2, pageToken: first.nextPageToken });
      const third = model.listTaskLists(ALICE, { maxResults: 2, pageToken: second.nextPageToken });
      assert.equal(third.nextPageToken, undefined);
      const all = [...first.items, ...second.items, ...third.items].map((item) => item.title);
      assert.deepEqual(all, [DEFAULT_LIST_TITLE, 'Work', 'L0', 'L1', 'L2', 'L3']);
      expectApiError(() => model.listTaskLists(ALICE, { maxResults: 2, pageToken: 'garbage' }), 400, 'invalid', 'pageToken');
      // a list deleted between pages shifts nothing
      const again = model.listTaskLists(ALICE, { maxResults: 2 });
      model.deleteTaskList(ALICE, list);
      const rest = model.listTaskLists(ALICE, { maxResults: 10, pageToken: again.nextPageToken });
      assert.deepEqual(rest.items.map((item) => item.title), ['L0', 'L1', 'L2', 'L3']);
    });

    it('deleting a list deletes its tasks; the default list cannot be deleted', () => {
      const task = insert('a');
      model.deleteTaskList(ALICE, list);
      expectApiError(() => model.getTaskList(ALICE, list), 404);
      assert.equal(store.collection('tasks.tasks').get(task.id), undefined);
      expectApiError(() => { model.deleteTaskList(ALICE, '@default'); }, 400);
    });

    it('limits a user to 2000 lists', () => {
      for (let index = model.listTaskLists(ALICE, { maxResults: 1000 }).items.length; index < LIMITS.listsPerUser; index++) {
        model.insertTaskList(ALICE, { title: `L${index}` });
      }
      expectApiError(() => model.insertTaskList(ALICE, { title: 'one too many' }), 403, 'limitExceeded');
    });
  });

  describe('ordering and positions', () => {
    it('inserts first by default and after `previous` when given', () => {
      const a = insert('a');
      insert('b');
      insert('c', { previous: a.id });
      assert.deepEqual(titles(), ['b', 'a', 'c']);
    });

    it('uses 20-digit zero-padded positions that sort like the list', () => {
      let previous: string | undefined;
      for (let index = 0; index < 50; index++) previous = insert(`t${index}`, { previous }).id;
      // squeeze many tasks into one gap to force a renumbering
      const first = model.listTasks(ALICE, list, DEFAULTS).items[0];
      for (let index = 0; index < 40; index++) insert(`s${index}`, { previous: first.id });
      const items = model.listTasks(ALICE, list, DEFAULTS).items;
      for (const task of items) assert.match(task.position, /^\d{20}$/);
      const positions = items.map((task) => task.position);
      assert.deepEqual([...positions].sort(), positions);
      assert.equal(new Set(positions).size, positions.length);
      assert.equal(items[0]?.title, 't0');
      assert.equal(items[1]?.title, 's39');
      assert.equal(items[41]?.title, 't1');
    });

    it('keeps order through long runs of inserts into one gap (local respacing)', () => {
      let previous: string | undefined;
      const expected: string[] = [];
      for (let index = 0; index < 200; index++) {
        previous = insert(`base${index}`, { previous }).id;
        expected.push(`base${index}`);
      }
      const items = model.listTasks(ALICE, list, DEFAULTS).items;
      let chain = (items[99]).id;
      const run: string[] = [];
      for (let index = 0; index < 300; index++) {
        chain = insert(`run${index}`, { previous: chain }).id;
        run.push(`run${index}`);
      }
      // and some in front of everything, past the low end of the range
      for (let index = 0; index < 30; index++) insert(`front${index}`);
      const front = Array.from({ length: 30 }, (_, index) => `front${29 - index}`);
      const all = model.listTasks(ALICE, list, { ...DEFAULTS, maxResults: 1000 }).items;
      assert.deepEqual(all.map((task) => task.title), [...front, ...expected.slice(0, 100), ...run, ...expected.slice(100)]);
      const positions = all.map((task) => task.position);
      assert.deepEqual([...positions].sort(), positions);
      assert.equal(new Set(positions).size, positions.length);
    });

    it('lists in tree order: each parent followed by its subtasks', () => {
      const a = insert('a');
      const b = insert('b', { previous: a.id });
      insert('a2', { parent: a.id });
      insert('a1', { parent: a.id });
      const b1 = insert('b1', { parent: b.id });
      insert('b1x', { parent: b1.id });
      assert.deepEqual(titles(), ['a', 'a1', 'a2', 'b', 'b1', 'b1x']);
      assert.equal(model.getTask(ALICE, list, b1.id).parent, b.id);
    });

    it('rejects a parent or previous that is missing, in another list, hidden or deleted', () => {
      const other = model.insertTaskList(ALICE, { title: 'Other' }).id;
      const elsewhere = model.insertTask(ALICE, other, { title: 'x' }, {});
      const a = insert('a');
      expectApiError(() => insert('n', { parent: 'nope' }), 400, 'invalid', 'parent');
      expectApiError(() => insert('n', { parent: elsewhere.id }), 400, 'invalid', 'parent');
      expectApiError(() => insert('n', { previous: elsewhere.id }), 400, 'invalid', 'previous');
      const child = insert('c', { parent: a.id });
      expectApiError(() => insert('n', { previous: child.id }), 400, 'invalid', 'previous');
      const done = insert('done', {}, { status: 'completed' });
      model.clear(ALICE, list);
      expectApiError(() => insert('n', { parent: done.id }), 400, 'invalid', 'parent');
      expectApiError(() => insert('n', { previous: done.id }), 400, 'invalid', 'previous');
      model.deleteTask(ALICE, list, a.id);
      expectApiError(() => insert('n', { parent: a.id }), 400, 'invalid', 'parent');
    });
  });

  describe('move', () => {
    it('moves within the list: top level first by default, after previous, under a parent', () => {
      const a = insert('a');
      const b = insert('b', { previous: a.id });
      const c = insert('c', { previous: b.id });
      model.moveTask(ALICE, list, c.id, {});
      assert.deepEqual(titles(), ['c', 'a', 'b']);
      model.moveTask(ALICE, list, c.id, { previous: b.id });
      assert.deepEqual(titles(), ['a', 'b', 'c']);
      const moved = model.moveTask(ALICE, list, c.id, { parent: a.id });
      assert.equal(moved.parent, a.id);
      assert.deepEqual(titles(), ['a', 'c', 'b']);
      const back = model.moveTask(ALICE, list, c.id, { previous: a.id });
      assert.equal(back.parent, undefined);
      assert.deepEqual(titles(), ['a', 'c', 'b']);
    });

    it('carries subtasks along and refuses a move under itself or its descendant', () => {
      const a = insert('a');
      const b = insert('b', { previous: a.id });
      const a1 = insert('a1', { parent: a.id });
      const a1x = insert('a1x', { parent: a1.id });
      expectApiError(() => model.moveTask(ALICE, list, a.id, { parent: a.id }), 400, 'invalid', 'parent');
      expectApiError(() => model.moveTask(ALICE, list, a.id, { parent: a1x.id }), 400, 'invalid', 'parent');
      expectApiError(() => model.moveTask(ALICE, list, a.id, { previous: a.id }), 400, 'invalid', 'previous');
      model.moveTask(ALICE, list, a.id, { previous: b.id });
      assert.deepEqual(titles(), ['b', 'a', 'a1', 'a1x']);
    });

    it('moves a subtree to another list with destinationTasklist', () => {
      const other = model.insertTaskList(ALICE, { title: 'Other' }).id;
      const o = model.insertTask(ALICE, other, { title: 'o' }, {});
      const a = insert('a');
      insert('a1', { parent: a.id });
      insert('z', { previous: a.id });
      const moved = model.moveTask(ALICE, list, a.id, { destinationTasklist: other, previous: o.id });
      assert.equal(moved.id, a.id);
      assert.deepEqual(titles(), ['z']);
      assert.deepEqual(titles(DEFAULTS, other), ['o', 'a', 'a1']);
      expectApiError(() => model.getTask(ALICE, list, a.id), 404);
      assert.equal(model.getTask(ALICE, other, a.id).title, 'a');
      // the moved subtree keeps working in its new list
      insert('after-move', { previous: (model.listTasks(ALICE, list, DEFAULTS).items[0]).id });
      model.insertTask(ALICE, other, { title: 'a0' }, { parent: a.id });
      assert.deepEqual(titles(DEFAULTS, other), ['o', 'a', 'a0', 'a1']);
      expectApiError(() => model.moveTask(BOB, list, moved.id, {}), 404);
    });

    it('lets a hidden task move only to the first top-level position', () => {
      const a = insert('a');
      const done = insert('done', { previous: a.id }, { status: 'completed' });
      model.clear(ALICE, list);
      expectApiError(() => model.moveTask(ALICE, list, done.id, { previous: a.id }), 400, 'invalid', 'previous');
      model.moveTask(ALICE, list, done.id, {});
      assert.deepEqual(titles(ALL), ['done', 'a']);
    });
  });

  describe('status, due, clear, delete', () => {
    it('sets `completed` when completed and clears it on needsAction', () => {
      const task = insert('a');
      assert.equal(task.completed, undefined);
      clock += 5000;
      const done = model.updateTask(ALICE, list, task.id, { status: 'completed' }, 'patch');
      assert.equal(done.completed, clock);
      const reopened = model.updateTask(ALICE, list, task.id, { status: 'needsAction' }, 'patch');
      assert.equal(reopened.completed, undefined);
      const explicit = model.updateTask(ALICE, list, task.id, { status: 'completed', completed: '2026-01-02T03:04:05.000Z' }, 'patch');
      assert.equal(explicit.completed, Date.parse('2026-01-02T03:04:05.000Z'));
    });

    it('keeps only the date of `due`', () => {
      assert.equal(truncateDue('2026-12-24T18:30:00.000Z'), '2026-12-24T00:00:00.000Z');
      assert.equal(truncateDue('2026-12-24T23:30:00-05:00'), '2026-12-24T00:00:00.000Z');
      const task = insert('a', {}, { due: '2026-12-24T18:30:00.000Z' });
      assert.equal(task.due, '2026-12-24T00:00:00.000Z');
    });

    it('update replaces (omitted fields cleared), patch merges', () => {
      const task = insert('a', {}, { notes: 'n', due: '2026-12-24T00:00:00Z' });
      const patched = model.updateTask(ALICE, list, task.id, { title: 'b' }, 'patch');
      assert.equal(patched.notes, 'n');
      assert.equal(patched.due, '2026-12-24T00:00:00.000Z');
      const cleared = model.updateTask(ALICE, list, task.id, { notes: null }, 'patch');
      assert.equal(cleared.notes, undefined);
      const replaced = model.updateTask(ALICE, list, task.id, { title: 'c' }, 'update');
      assert.equal(replaced.title, 'c');
      assert.equal(replaced.due, undefined);
      assert.equal(replaced.status, 'needsAction');
    });

    it('changes the etag and updated time of the task and the list envelope on every change', () => {
      const task = insert('a');
      const { etag, updated: updatedBefore } = task;
      const envelope = model.listTasks(ALICE, list, DEFAULTS).etag;
      clock += 1;
      const updated = model.updateTask(ALICE, list, task.id, { notes: 'x' }, 'patch');
      assert.notEqual(updated.etag, etag);
      assert.ok(updated.updated > updatedBefore);
      assert.notEqual(model.listTasks(ALICE, list, DEFAULTS).etag, envelope);
    });

    it('clear hides completed tasks, which then show only with showHidden', () => {
      insert('open');
      insert('done', {}, { status: 'completed' });
      model.clear(ALICE, list);
      assert.deepEqual(titles(), ['open']);
      const hidden = model.listTasks(ALICE, list, { ...DEFAULTS, showHidden: true }).items;
      assert.deepEqual(hidden.map((task) => [task.title, task.hidden]), [['done', true], ['open', false]]);
    });

    it('deleting a task marks it and its subtasks deleted (visible with showDeleted)', () => {
      const a = insert('a');
      insert('a1', { parent: a.id });
      insert('b', { previous: a.id });
      model.deleteTask(ALICE, list, a.id);
      assert.deepEqual(titles(), ['b']);
      const withDeleted = model.listTasks(ALICE, list, { ...DEFAULTS, showDeleted: true }).items;
      assert.deepEqual(withDeleted.map((task) => [task.title, task.deleted]), [['a', true], ['a1', true], ['b', false]]);
    });

    it('filters by showCompleted, updatedMin, due and completed ranges', () => {
      const early = insert('early', {}, { due: '2026-11-01T00:00:00Z' });
      clock += 60_000;
      const cutoff = clock;
      insert('late', {}, { due: '2026-12-01T00:00:00Z', status: 'completed' });
      insert('nodue');
      assert.deepEqual(titles({ ...DEFAULTS, showCompleted: false }), ['nodue', 'early']);
      assert.deepEqual(titles({ ...DEFAULTS, updatedMin: cutoff }), ['nodue', 'late']);
      assert.deepEqual(titles({ ...DEFAULTS, dueMin: Date.parse('2026-11-15T00:00:00Z') }), ['late']);
      assert.deepEqual(titles({ ...DEFAULTS, dueMax: Date.parse('2026-11-15T00:00:00Z') }), ['early']);
      assert.deepEqual(titles({ ...DEFAULTS, completedMin: cutoff - 1 }), ['late']);
      assert.deepEqual(titles({ ...DEFAULTS, completedMax: cutoff - 1 }), []);
      assert.ok(early);
    });
  });

  describe('paging', () => {
    it('pages tasks in tree order with stable tokens; the last page has no token', () => {
      let previous: string | undefined;
      const expected: string[] = [];
      for (let index = 0; index < 25; index++) {
        const task = insert(`t${String(index).padStart(2, '0')}`, { previous });
        previous = task.id;
        expected.push(task.title);
        if (index % 5 === 0) {
          model.insertTask(ALICE, list, { title: `${task.title}.sub` }, { parent: task.id });
          expected.push(`${task.title}.sub`);
        }
      }
      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = model.listTasks(ALICE, list, { ...DEFAULTS, maxResults: 7, pageToken });
        seen.push(...page.items.map((task) => task.title));
        pageToken = page.nextPageToken;
        pages++;
      } while (pageToken);
      assert.deepEqual(seen, expected);
      assert.equal(pages, Math.ceil(expected.length / 7));
    });

    it('a token keeps its place when tasks are inserted before it', () => {
      let previous: string | undefined;
      for (let index = 0; index < 10; index++) previous = insert(`t${index}`, { previous }).id;
      const first = model.listTasks(ALICE, list, { ...DEFAULTS, maxResults: 5 });
      insert('new-first');
      const second = model.listTasks(ALICE, list, { ...DEFAULTS, maxResults: 5, pageToken: first.nextPageToken });
      assert.deepEqual(second.items.map((task) => task.title), ['t5', 't6', 't7', 't8', 't9']);
    });

    it('refuses a token from another list or a forged one', () => {
      for (let index = 0; index < 3; index++) insert(`t${index}`);
      const page = model.listTasks(ALICE, list, { ...DEFAULTS, maxResults: 1 });
      const other = model.insertTaskList(ALICE, { title: 'Other' }).id;
      expectApiError(() => model.listTasks(ALICE, other, { ...DEFAULTS, pageToken: page.nextPageToken }), 400, 'invalid', 'pageToken');
      expectApiError(() => model.listTasks(ALICE, list, { ...DEFAULTS, pageToken: '%%%' }), 400, 'invalid', 'pageToken');
    });
  });

  describe('limits and persistence', () => {
    it('limits subtasks per task to 2000', () => {
      const parent = insert('p');
      for (let index = 0; index < LIMITS.subtasksPerTask; index++) insert(`c${index}`, { parent: parent.id });
      expectApiError(() => insert('one too many', { parent: parent.id }), 403, 'limitExceeded');
    });

    it('limits a list to 20,000 tasks that are not hidden; clearing completed ones makes room', function () {
      this.timeout(30_000);
      for (let index = 0; index < LIMITS.visibleTasksPerList; index++) {
        model.insertTask(ALICE, list, { title: `t${index}`, status: index < 10 ? 'completed' : 'needsAction' }, {});
      }
      expectApiError(() => insert('one too many'), 403, 'limitExceeded');
      const other = model.insertTaskList(ALICE, { title: 'Other' }).id;
      const elsewhere = model.insertTask(ALICE, other, { title: 'elsewhere' }, {});
      expectApiError(() => model.moveTask(ALICE, other, elsewhere.id, { destinationTasklist: list }), 403, 'limitExceeded');
      model.clear(ALICE, list);
      insert('fits after clear');
      model.moveTask(ALICE, other, elsewhere.id, { destinationTasklist: list });
      assert.equal(model.getTask(ALICE, list, elsewhere.id).title, 'elsewhere');
    });

    it('rebuilds its indexes from the store (a restart) with the same order', () => {
      const a = insert('a');
      insert('a1', { parent: a.id });
      insert('b', { previous: a.id });
      const reopened = new TasksModel(store, () => clock);
      assert.deepEqual(reopened.listTasks(ALICE, list, DEFAULTS).items.map((task) => task.title), ['a', 'a1', 'b']);
      assert.equal(reopened.listTaskLists(ALICE, { maxResults: 10 }).items.length, 2);
    });
  });
});
