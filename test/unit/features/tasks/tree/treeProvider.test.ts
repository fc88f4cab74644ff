import * as assert from 'node:assert/strict';
import { GoogleApiError } from '../../../../../src/api/errors';
import type { TasksNode } from '../../../../../src/features/tasks/tree/nodes';
import type { TasksApi } from '../../../../../src/features/tasks/port';
import { ExpandedLists } from '../../../../../src/features/tasks/tree/expandedLists';
import { TasksTreeProvider } from '../../../../../src/features/tasks/tree/treeProvider';
import { MapMemento } from '../../../../support/memento';
import { fakeVscode } from '../../../../support/fakeVscode';
import { labelText } from '../../../../support/treeItemText';
import { FakeTasksApi, list, task } from '../../../../support/fakes/tasks';

function provider(api: FakeTasksApi, options: { signedIn?: boolean; showCompleted?: boolean } = {}): { tree: TasksTreeProvider; changes: Array<TasksNode | undefined> } {
  const tree = new TasksTreeProvider(fakeVscode(), {
    api: api as unknown as TasksApi,
    showCompleted: () => options.showCompleted ?? true,
    pageSize: () => 2,
    withProgress: (work) => work(),
    isSignedIn: async () => options.signedIn ?? true,
    log: () => undefined,
    today: () => new Date(2026, 10, 25),
  });
  const changes: Array<TasksNode | undefined> = [];
  tree.onDidChangeTreeData((node) => changes.push(node));
  return { tree, changes };
}

const labels = (tree: TasksTreeProvider, nodes: readonly TasksNode[]): string[] => nodes.map((node) => labelText(tree.getTreeItem(node).label));

describe('Tasks tree provider', () => {
  it('shows nothing while signed out, so the welcome view with its sign-in buttons appears', async () => {
    const api = new FakeTasksApi([list('L', 'Home')], {});
    const { tree } = provider(api, { signedIn: false });
    assert.deepEqual(await tree.getChildren(), []);
  });

  it('renders the first page at once, then the rest when it arrives, and redraws only that list', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], {
      L: [[task('a', '1'), task('b', '2')], [task('c', '3'), task('b1', '1', { parent: 'b' })]],
    });
    let release: () => void = () => undefined;
    api.gate = new Promise<void>((resolve) => { release = resolve; });
    const { tree, changes } = provider(api);
    const [home] = await tree.getChildren();
    assert.ok(home);
    assert.deepEqual(labels(tree, await tree.getChildren(home)), ['a', 'b', 'Loading more tasks…']);

    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(changes.some((node) => node?.id === 'list/L'), 'the list row was not redrawn after the last page');
    const rows = await tree.getChildren(home);
    assert.deepEqual(labels(tree, rows), ['a', 'b', 'c']);
    const b = rows.at(1);
    assert.ok(b && b.kind === 'task' && b.hasChildren);
    const [b1] = await tree.getChildren(b);
    assert.ok(b1);
    assert.equal(tree.getParent(b1)?.id, b.id);
    assert.equal(tree.getParent(b)?.id, 'list/L');
    assert.equal(tree.getTreeItem(home).description, '4 open');
    const hover = tree.resolveTreeItem(tree.getTreeItem(home), home).tooltip as { value: string };
    assert.match(hover.value, /4 open tasks/);
    assert.ok(api.calls.every((call) => call.list === 'L'), 'a collapsed list was loaded');
  });

  it('never redraws a list row while its children are still being fetched', async () => {
    const api = new FakeTasksApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    const { tree, changes } = provider(api);
    const [home] = await tree.getChildren();
    assert.ok(home);
    const fetching = tree.getChildren(home);
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(changes.length, 0, 'a redraw was sent while the fetch was pending');
    assert.deepEqual(labels(tree, await fetching), ['a']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(changes.map((node) => node?.id), ['list/L']);
    assert.equal(tree.getTreeItem(home).description, '1 open');
  });

  it('refreshing one list reloads that list only', async () => {
    const api = new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], { L: [[task('a', '1')]], M: [[task('m', '1')]] });
    const { tree, changes } = provider(api);
    const top = await tree.getChildren();
    const [home, work] = [top.at(0), top.at(1)];
    assert.ok(home && work);
    await tree.getChildren(home);
    await tree.getChildren(work);
    api.calls.length = 0;
    changes.length = 0;
    tree.refreshList('L');
    assert.deepEqual(changes.map((node) => node?.id), ['list/L']);
    await tree.getChildren(home);
    await tree.getChildren(work);
    assert.deepEqual(api.calls.map((call) => call.list), ['L']);
  });

  it('shows a load failure as a row that retries, and loads again on the next request', async () => {
    const api = new FakeTasksApi([list('L', 'Home')], { L: [[task('a', '1')]] });
    api.failLists.set('L', new GoogleApiError(503, 'Backend Error', 'backendError', [], undefined));
    const { tree } = provider(api);
    const [home] = await tree.getChildren();
    assert.ok(home);
    const errorRow = (await tree.getChildren(home)).at(0);
    assert.ok(errorRow && errorRow.kind === 'message');
    const item = tree.getTreeItem(errorRow);
    assert.match(labelText(item.label), /Could not load the tasks: Service error: Backend Error/);
    assert.equal((item.command as { command: string }).command, 'desk.tasks.refresh');
    api.failLists.clear();
    assert.deepEqual(labels(tree, await tree.getChildren(home)), ['a']);
  });

  it('passes the show-completed setting to the service and ticks completed tasks', async () => {
    const api = new FakeTasksApi([list('L', 'Home')], { L: [[task('done', '1', { status: 'completed' }), task('open', '2', { due: '2026-11-24T00:00:00.000Z' })]] });
    const { tree } = provider(api, { showCompleted: false });
    const [home] = await tree.getChildren();
    assert.ok(home);
    const rows = await tree.getChildren(home);
    const [done, open] = [rows.at(0), rows.at(1)];
    assert.ok(done && open);
    assert.equal(api.calls[0]?.showCompleted, false);
    assert.deepEqual(tree.getTreeItem(done).checkboxState, { state: 1, tooltip: 'Reopen this task' });
    assert.equal(tree.getTreeItem(done).contextValue, 'task-completed');
    assert.equal(tree.getTreeItem(open).description, 'yesterday · overdue');
  });
});

describe('Tasks tree provider: lists left open', () => {
  it('starts a list the user left open expanded, in any workspace, and forgets it once collapsed', async () => {
    const memento = new MapMemento();
    const remembered = new ExpandedLists(memento);
    remembered.set('L', true);
    // Another window, another workspace: a new ExpandedLists over the same global state.
    const tree = new TasksTreeProvider(fakeVscode(), {
      api: new FakeTasksApi([list('L', 'Home'), list('M', 'Work')], { L: [[]], M: [[]] }) as unknown as TasksApi,
      showCompleted: () => true,
      pageSize: () => 2,
      withProgress: (work) => work(),
      isSignedIn: async () => true,
      log: () => undefined,
      expandedLists: new ExpandedLists(memento),
    });
    const top = await tree.getChildren();
    const [home, work] = [top.at(0), top.at(1)];
    assert.ok(home && work);
    assert.equal(tree.getTreeItem(home).collapsibleState, 2, 'Home was left open');
    assert.equal(tree.getTreeItem(work).collapsibleState, 1);
    remembered.set('L', false);
    assert.equal(new ExpandedLists(memento).has('L'), false);
  });
});
