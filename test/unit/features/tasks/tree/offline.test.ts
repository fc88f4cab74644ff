import * as assert from 'node:assert/strict';
import { ServiceUnreachableError } from '../../../../../src/api/errors';
import type { ViewSnapshotStore } from '../../../../../src/core/storage/viewCache';
import type { TasksApi } from '../../../../../src/features/tasks/port';
import { TasksTreeModel } from '../../../../../src/features/tasks/tree/model';
import type { TasksSnapshot } from '../../../../../src/features/tasks/tree/snapshot';
import type { TasksNode } from '../../../../../src/features/tasks/tree/nodes';
import type { Task, TaskList } from '../../../../../src/shared/schemas/tasks';
import { FakeTasksApi, list } from '../../../../support/fakes/tasks';

function task(id: string, position: string, extra: Partial<Task> = {}): Task {
  return { kind: 'tasks#task', id, etag: `"${id}"`, title: id, updated: '2026-11-20T10:00:00.000Z', selfLink: `http://x/${id}`, position, status: 'needsAction', links: [], ...extra };
}

const unreachable = (): ServiceUnreachableError => new ServiceUnreachableError('tasks.list', Object.assign(new Error('request to http://127.0.0.1:8089/tasks/v1/lists/L/tasks?fields=items(id) failed, reason: connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

/** A fake whose every request can be made to fail as if the service were gone. */
class SwitchableApi extends FakeTasksApi {
  offline = false;
  override async *allTaskLists(): AsyncGenerator<TaskList> {
    if (this.offline) throw unreachable();
    yield* super.allTaskLists();
  }
  override async listTasks(listId: string, options: Parameters<FakeTasksApi['listTasks']>[1] = {}): ReturnType<FakeTasksApi['listTasks']> {
    if (this.offline) throw unreachable();
    return super.listTasks(listId, options);
  }
}

function model(api: FakeTasksApi, cache?: ViewSnapshotStore<TasksSnapshot>): TasksTreeModel {
  return new TasksTreeModel({ api: api as unknown as TasksApi, showCompleted: () => true, pageSize: () => 50, withProgress: (work) => work(), log: () => undefined, onListLoaded: () => undefined, ...(cache ? { cache } : {}) });
}

const labels = (nodes: readonly TasksNode[]): string[] => nodes.map((node) => (node.kind === 'message' ? `${node.severity}:${node.label}` : node.kind === 'task' ? node.task.title : node.list.title));
const listNode = async (tree: TasksTreeModel, id: string) => (await tree.roots()).find((node) => node.kind === 'list' && node.listId === id) as Parameters<TasksTreeModel['listChildren']>[0];

describe('Tasks tree offline: views keep what they show', () => {
  it('keeps the lists and the loaded tasks through a Refresh offline; a list never loaded says "Not available offline" in one row', async () => {
    const api = new SwitchableApi([list('L', 'Home'), list('M', 'Work')], { L: [[task('a', '1'), task('b', '2')]], M: [[task('m', '1')]] });
    const tree = model(api);
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'L'))), ['a', 'b']);
    api.offline = true;
    tree.reset();
    assert.deepEqual(labels(await tree.roots()), ['Home', 'Work']);
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'L'))), ['a', 'b']);
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'M'))), ['info:Not available offline']);
    // Back online, the rows are the service's again.
    api.offline = false;
    tree.reset();
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'M'))), ['m']);
  });

  it('after a reload offline, the cached first rows stay once the first load fails (no error rows)', async () => {
    const api = new SwitchableApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    api.offline = true;
    const snapshot: TasksSnapshot = { lists: [list('L', 'Home')], tasks: { L: [task('cached', '1')] } };
    const tree = model(api, { read: async () => snapshot, write: async () => undefined });
    assert.deepEqual(labels(await tree.roots()), ['Home']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(tree.refreshing, false, 'the failed first load ended the refresh');
    assert.deepEqual(labels(await tree.roots()), ['Home']);
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'L'))), ['cached']);
  });

  it('with nothing ever loaded, the lists say "Not available offline" once; a sign-in of another account forgets what was shown', async () => {
    const api = new SwitchableApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    const tree = model(api);
    await tree.roots();
    api.offline = true;
    tree.reset({ accountChanged: true });
    assert.deepEqual(labels(await tree.roots()), ['info:Not available offline']);
  });

  it('a change made offline shows at once: a task added at the top, a task completed in place', async () => {
    const api = new SwitchableApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    const tree = model(api);
    await tree.listChildren(await listNode(tree, 'L'));
    api.offline = true;
    assert.equal(tree.addLocalTask('L', task('local-1', '0', { title: 'New offline' })), true);
    assert.equal(tree.applyLocalTask('L', task('a', '1', { status: 'completed' })), true);
    tree.reset();
    const rows = await tree.listChildren(await listNode(tree, 'L'));
    assert.deepEqual(labels(rows), ['New offline', 'a']);
    assert.equal(rows[1]?.kind === 'task' && rows[1].task.status, 'completed');
  });

  it('a task moved or deleted offline shows at its new place at once, its subtasks with it', async () => {
    const api = new SwitchableApi([list('L', 'Home'), list('M', 'Work')], {
      L: [[task('a', '00000000000000000001'), task('b', '00000000000000000002'), task('c', '00000000000000000003'), task('c1', '00000000000000000001', { parent: 'c' })]],
      M: [[task('m', '00000000000000000001')]],
    });
    const tree = model(api);
    await tree.listChildren(await listNode(tree, 'L'));
    await tree.listChildren(await listNode(tree, 'M'));
    api.offline = true;
    assert.equal(tree.moveLocalTask('L', 'a', { previous: 'b', toListId: 'L' }), true);
    assert.equal(tree.moveLocalTask('L', 'c', { toListId: 'M', previous: 'm' }), true);
    assert.equal(tree.removeLocalTask('L', 'b'), true);
    tree.reset();
    assert.deepEqual(labels(await tree.listChildren(await listNode(tree, 'L'))), ['a']);
    const work = await tree.listChildren(await listNode(tree, 'M'));
    assert.deepEqual(labels(work), ['m', 'c']);
    const moved = work.at(1);
    assert.deepEqual(moved?.kind === 'task' ? labels(tree.taskChildren(moved)) : [], ['c1']);
  });
});
