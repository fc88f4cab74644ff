import * as assert from 'node:assert/strict';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { GoogleApiError } from '../../../../../src/api/errors';
import type { TasksApi } from '../../../../../src/features/tasks/port';
import type { ViewSnapshotStore } from '../../../../../src/core/storage/viewCache';
import { buildTaskTree, comparePositions, flattenTree, TasksTreeModel, TaskTreeEntry } from '../../../../../src/features/tasks/tree/model';
import type { TasksSnapshot } from '../../../../../src/features/tasks/tree/snapshot';
import type { TasksNode } from '../../../../../src/features/tasks/tree/nodes';
import { FakeTasksApi, list } from '../../../../support/fakes/tasks';

function task(id: string, position: string, extra: Partial<Task> = {}): Task {
  return {
    kind: 'tasks#task', id, etag: `"${id}"`, title: id, updated: '2026-11-20T10:00:00.000Z',
    selfLink: `http://x/${id}`, position, status: 'needsAction', links: [], ...extra,
  };
}

/** The tree as nested id arrays: easy to read in assertions. */
function shape(entries: readonly TaskTreeEntry[]): unknown[] {
  return entries.map((entry) => (entry.children.length ? [entry.task.id, shape(entry.children)] : entry.task.id));
}

describe('task tree model', () => {
  it('nests subtasks under their parents and orders siblings by position, whatever the input order', () => {
    const tasks = [
      task('b2', '00000000000000000001', { parent: 'b' }),
      task('b', '00000000000000000002'),
      task('a', '00000000000000000001'),
      task('b1', '00000000000000000000', { parent: 'b' }),
    ];
    assert.deepEqual(shape(buildTaskTree(tasks, { complete: true })), ['a', ['b', ['b1', 'b2']]]);
  });

  it('leaves out deleted and hidden (cleared) tasks', () => {
    const tasks = [task('a', '1'), task('gone', '2', { deleted: true }), task('cleared', '3', { hidden: true, status: 'completed' })];
    assert.deepEqual(shape(buildTaskTree(tasks, { complete: true })), ['a']);
  });

  it('holds back a subtask whose parent has not arrived until every page is in, then shows it at the top level', () => {
    const firstPage = [task('a', '1'), task('orphan', '0', { parent: 'later' })];
    assert.deepEqual(shape(buildTaskTree(firstPage, { complete: false })), ['a']);
    assert.deepEqual(shape(buildTaskTree(firstPage, { complete: true })), ['orphan', 'a']);
    const allPages = [...firstPage, task('later', '2')];
    assert.deepEqual(shape(buildTaskTree(allPages, { complete: true })), ['a', ['later', ['orphan']]]);
  });

  it('survives a parent cycle from a broken server and still shows every task once', () => {
    const tasks = [task('x', '1', { parent: 'y' }), task('y', '2', { parent: 'x' }), task('self', '3', { parent: 'self' })];
    const flat = flattenTree(buildTaskTree(tasks, { complete: true })).map((entry) => entry.task.id).sort();
    assert.deepEqual(flat, ['self', 'x', 'y']);
  });

  it('compares positions of unequal length as numbers', () => {
    assert.ok(comparePositions('9', '10') < 0);
    assert.ok(comparePositions('00000000000000000009', '00000000000000000010') < 0);
    assert.equal(comparePositions('5', '5'), 0);
  });

  it('compares positions as BigInt does, and sorts 40 tasks whose positions are a million digits long in one pass each', () => {
    const asBigInt = (a: string, b: string): number => {
      if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
      return a < b ? -1 : a > b ? 1 : 0;
    };
    let seed = 9;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const position = (): string => Array.from({ length: next() % 6 }, () => ['0', '1', '9', '00', 'a'][next() % 5]).join('');
    for (let sample = 0; sample < 20000; sample++) {
      const [a, b] = [position(), position()];
      assert.equal(Math.sign(comparePositions(a, b)), asBigInt(a, b), JSON.stringify([a, b]));
    }
    // Leading zeros aside, a later task has one digit fewer: the smaller number, so it comes first.
    const tasks = Array.from({ length: 40 }, (_, index) => task(`t${index}`, `${'0'.repeat(index)}${index % 2 === 0 ? '7' : '3'}${'1'.repeat(1_000_000 - index)}`));
    const order = buildTaskTree(tasks, { complete: true }).map((entry) => entry.task.id);
    assert.deepEqual(order, tasks.map((entry) => entry.id).reverse());
  });

  it('flattens depth first with depths for pickers', () => {
    const tasks = [task('a', '1'), task('a1', '1', { parent: 'a' }), task('b', '2')];
    assert.deepEqual(flattenTree(buildTaskTree(tasks, { complete: true })).map((entry) => `${entry.task.id}:${entry.depth}`), ['a:0', 'a1:1', 'b:0']);
  });
});

describe('Tasks tree model (no vscode)', () => {
  function model(api: FakeTasksApi, showCompleted = true): { model: TasksTreeModel; loaded: string[] } {
    const loaded: string[] = [];
    const built = new TasksTreeModel({
      api: api as unknown as TasksApi,
      showCompleted: () => showCompleted,
      pageSize: () => 2,
      withProgress: (work) => work(),
      log: () => undefined,
      onListLoaded: (listId) => loaded.push(listId),
    });
    return { model: built, loaded };
  }
  const ids = (nodes: readonly TasksNode[]): string[] => nodes.map((node) => node.id);

  it('gives list rows with stable ids, then a list\'s first page with a loading row, then all of it once the rest arrived', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], {
      L: [[task('a', '1'), task('b', '2')], [task('b1', '1', { parent: 'b' }), task('c', '3')]],
    });
    let release: () => void = () => undefined;
    api.gate = new Promise<void>((resolve) => { release = resolve; });
    const { model: tree, loaded } = model(api);
    const roots = await tree.roots();
    assert.deepEqual(ids(roots), ['list/L', 'list/M']);
    const home = tree.listNode('L');
    assert.ok(home && home === roots[0]);

    assert.deepEqual(ids(await tree.listChildren(home)), ['task/L/a', 'task/L/b', 'message/L/loading']);
    assert.equal(tree.openCount('L'), undefined, 'counted before the last page');
    release();
    const all = await tree.allTasks('L');
    assert.deepEqual(all.map((entry) => entry.task.id), ['a', 'b', 'c']);
    assert.deepEqual(loaded, ['L']);
    assert.equal(tree.openCount('L'), 4);

    const rows = await tree.listChildren(home);
    assert.deepEqual(ids(rows), ['task/L/a', 'task/L/b', 'task/L/c']);
    const b = tree.taskNode('L', 'b');
    assert.ok(b && b === rows[1] && b.hasChildren);
    const b1 = tree.taskChildren(b).at(0);
    assert.equal(b1?.id, 'task/L/b1');
    assert.equal(b1.parent, b);
    assert.deepEqual(b1.ancestors, ['b']);
    assert.ok(api.calls.every((call) => call.list === 'L'), 'a list nobody asked for was loaded');
  });

  it('invalidating a list reloads only that list; resetting forgets the lists too', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], { L: [[task('a', '1')]], M: [[task('m', '1')]] });
    const { model: tree } = model(api);
    const top = await tree.roots();
    const [home, work] = [top.at(0), top.at(1)];
    assert.ok(home?.kind === 'list' && work?.kind === 'list');
    await tree.listChildren(home);
    await tree.listChildren(work);
    api.calls.length = 0;
    tree.invalidateList('L');
    await tree.listChildren(home);
    await tree.listChildren(work);
    assert.deepEqual(api.calls.map((call) => call.list), ['L']);

    api.lists.push(list('N', 'New'));
    assert.deepEqual(ids(await tree.roots()), ['list/L', 'list/M'], 'the lists are kept until invalidated');
    tree.invalidateLists();
    assert.deepEqual(ids(await tree.roots()), ['list/L', 'list/M', 'list/N']);
    tree.reset();
    assert.equal(tree.openCount('L'), undefined);
  });

  it('keeps one row object per list across reloads of the lists, updated in place (VS Code refreshes a row by its object)', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], { L: [[task('a', '1')]] });
    const { model: tree } = model(api);
    const home = (await tree.roots()).at(0);
    assert.ok(home?.kind === 'list');
    api.lists[0] = list('L', 'Home and garden');
    tree.invalidateLists();
    const [again] = await tree.roots();
    assert.equal(again, home, 'the same object: a refresh fired for it reaches the row VS Code holds');
    assert.equal(tree.listNode('L'), home);
    assert.equal(home.list.title, 'Home and garden', 'the row shows the list as loaded last');
    tree.reset();
    assert.equal((await tree.roots())[0], home, 'a Refresh keeps the row object too');
    const row = (await tree.listChildren(home)).at(0);
    assert.equal(row?.parent, home, 'the rows of the list hang under that object');
  });

  it('puts a task Desk changed in place without reloading its list; a completed one leaves when completed tasks are hidden', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], { L: [[task('a', '1'), task('b', '2')]], M: [[task('m', '1')]] });
    const { model: tree } = model(api, false);
    const home = (await tree.roots()).at(0);
    assert.ok(home?.kind === 'list');
    await tree.listChildren(home);
    api.calls.length = 0;
    assert.equal(tree.applyTask('L', task('a', '1', { title: 'a renamed' })), true);
    const rows = await tree.listChildren(home);
    assert.deepEqual(rows.map((row) => (row.kind === 'task' ? row.task.title : row.kind)), ['a renamed', 'b']);
    assert.equal(tree.applyTask('L', task('b', '2', { status: 'completed' })), true);
    assert.deepEqual(ids(await tree.listChildren(home)), ['task/L/a'], 'completed tasks are hidden');
    assert.equal(tree.openCount('L'), 1);
    assert.deepEqual(api.calls, [], 'no list was reloaded');
    assert.equal(tree.applyTask('M', task('m', '1')), false, 'a list not loaded is reloaded by the caller');
    assert.equal(tree.applyTask('L', task('zz', '9')), false, 'a task the list lacks means the list is reloaded');
  });

  describe('first rows from the cache (the same FirstRowsFromCache as the other views)', () => {
    function cachedModel(api: FakeTasksApi, snapshot: TasksSnapshot): { tree: TasksTreeModel; reads: () => number } {
      let reads = 0;
      const cache: ViewSnapshotStore<TasksSnapshot> = {
        read: async () => {
          reads++;
          return snapshot;
        },
        write: async () => undefined,
      };
      const tree = new TasksTreeModel({
        api: api as unknown as TasksApi, showCompleted: () => true, pageSize: () => 2, withProgress: (work) => work(),
        log: () => undefined, onListLoaded: () => undefined, cache,
      });
      return { tree, reads: () => reads };
    }
    const lastSession: TasksSnapshot = { lists: [list('OLD', 'Last session')], tasks: { OLD: [task('o', '1')] } };

    it('shows the last session\'s lists at the first start, marked refreshing', async () => {
      const { tree } = cachedModel(new FakeTasksApi([list('L', 'Home')], { L: [[]] }), lastSession);
      assert.deepEqual(ids(await tree.roots()), ['list/OLD']);
      assert.equal(tree.refreshing, true);
    });

    it('keeps each list\'s "N open" after a reload, though the lists are collapsed: the cached count, then the fresh one', async () => {
      const api = new FakeTasksApi([list('OLD', 'Last session')], { OLD: [[task('o', '1'), task('p', '2')], [task('q', '3')]] });
      const { tree } = cachedModel(api, lastSession);
      const roots = await tree.roots();
      assert.deepEqual(ids(roots), ['list/OLD']);
      // Nobody expands the list (its row is collapsed after the reload): it has a count (last session's while it
      // loads), and it loads anyway, so the count becomes the fresh one.
      assert.ok([1, 3].includes(tree.openCount('OLD') ?? -1), `count ${String(tree.openCount('OLD'))}`);
      assert.deepEqual(api.calls.map((call) => call.list).slice(0, 1), ['OLD'], 'loaded without being expanded');
      await tree.allTasks('OLD');
      assert.equal(tree.openCount('OLD'), 3);
    });

    it('never shows them after a reset that came first (sign-in, sign-out, backend change, Refresh)', async () => {
      const { tree, reads } = cachedModel(new FakeTasksApi([list('L', 'Home')], { L: [[]] }), lastSession);
      tree.reset();
      assert.deepEqual(ids(await tree.roots()), ['list/L']);
      assert.equal(tree.refreshing, false);
      assert.equal(reads(), 0, 'the cache file was read after a reset');
    });

    it('does not show a snapshot with no list (an empty tree would show the view\'s welcome content)', async () => {
      const { tree, reads } = cachedModel(new FakeTasksApi([list('L', 'Home')], { L: [[]] }), { lists: [], tasks: {} });
      assert.deepEqual(ids(await tree.roots()), ['list/L']);
      assert.equal(tree.refreshing, false);
      assert.equal(reads(), 1);
    });
  });

  it('turns a failed load into an error row (in English by default) and loads again when asked next', async () => {
    const api = new FakeTasksApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    api.failLists.set('L', new GoogleApiError(503, 'Backend Error', 'backendError', [], undefined));
    const { model: tree } = model(api);
    const home = (await tree.roots()).at(0);
    assert.ok(home?.kind === 'list');
    const row = (await tree.listChildren(home)).at(0);
    assert.ok(row?.kind === 'message' && row.severity === 'error');
    assert.match(row.label, /^Could not load the tasks: Service error: Backend Error/);
    api.failLists.clear();
    assert.deepEqual(ids(await tree.listChildren(home)), ['task/L/a']);
  });

  it('says a list is empty according to the show-completed setting', async () => {
    for (const [showCompleted, wording] of [[false, 'No open tasks'], [true, 'No tasks']] as const) {
      const { model: tree } = model(new FakeTasksApi([list('L', 'Home')], { L: [[]] }), showCompleted);
      const home = (await tree.roots()).at(0);
      assert.ok(home?.kind === 'list');
      const row = (await tree.listChildren(home)).at(0);
      assert.ok(row?.kind === 'message');
      assert.equal(row.label, wording);
      assert.equal(tree.openCount('L'), 0);
    }
  });
});
