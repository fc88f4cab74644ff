// The views' cache of their last rows inside a real extension host, against the harness's emulator: a Tasks tree
// started as after a window reload shows the cached lists (marked refreshing) before the network answers, then the
// fresh ones under the same ids; a corrupted file is ignored and removed; sign-out removes every cached file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { backendKey } from '../../src/auth/sessionStore';
import { REMEMBERED_ACCOUNTS_KEY, type RememberedAccounts } from '../../src/core/storage/viewCache';
import { updateDurably } from '../../src/core/storage/durableMemento';
import type { DeskApi } from '../../src/extension';
import type { TasksApi } from '../../src/features/tasks/port';
import { isTasksSnapshot } from '../../src/features/tasks/tree/snapshot';
import type { TasksNode } from '../../src/features/tasks/tree/nodes';
import { TasksTreeProvider } from '../../src/features/tasks/tree/treeProvider';
import { activateAndSignIn, eventually, labelText, WindowStubs } from './support';

/** The real Tasks API, each call held until `open()` (the network of a reload that has not answered yet). */
function heldApi(real: TasksApi): { api: TasksApi; open(): void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const api = new Proxy(real, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => unknown;
      if (String(property).startsWith('all')) {
        return async function* (...args: unknown[]): AsyncGenerator {
          await gate;
          yield* call.apply(target, args) as AsyncGenerator;
        };
      }
      return async (...args: unknown[]) => {
        await gate;
        return call.apply(target, args);
      };
    },
  });
  return { api, open };
}

describe('View cache in VS Code (first rows after a reload)', function () {
  this.timeout(30000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  /** A view's file of an account (default: the one signed in): one folder per account. */
  const cacheFile = (slot = 'tasks', account = api.desk.session.currentAccount ?? ''): string => path.join(api.desk.extensionContext.globalStorageUri.fsPath, 'view-cache', encodeURIComponent(account), `${slot}.json`);

  /** A Tasks tree as a window reload builds it: nothing loaded, reading the cache. */
  function reloadedTree(tasksApi: TasksApi, slot = 'tasks'): TasksTreeProvider {
    return new TasksTreeProvider(vscode, {
      api: tasksApi,
      showCompleted: () => false,
      pageSize: () => 100,
      withProgress: (work) => work(),
      isSignedIn: () => api.desk.session.isSignedIn(),
      log: () => undefined,
      cache: api.desk.viewCache.view(slot, isTasksSnapshot),
    });
  }

  /** Loads the lists and "My Tasks" in the real view, so its cache file holds them. */
  async function fillCache(): Promise<void> {
    api.tasks.tree.refreshAll();
    const roots = await api.tasks.tree.getChildren();
    const myTasks = roots.find((node) => labelText(api.tasks.tree.getTreeItem(node)) === 'My Tasks');
    assert.ok(myTasks);
    await api.tasks.tree.getChildren(myTasks);
    await api.tasks.tree.allTasks(myTasks.kind === 'list' ? myTasks.listId : '');
    await eventually('the tasks cache file', () => {
      const text = fs.existsSync(cacheFile()) ? fs.readFileSync(cacheFile(), 'utf8') : '';
      return text.includes('"My Tasks"') && text.includes('Plan the weekend trip') ? true : undefined;
    });
  }

  before(async () => {
    api = await activateAndSignIn();
  });

  afterEach(() => { stubs.restore(); });

  it('shows the cached lists and tasks before the network answers, marked refreshing, then the fresh rows under the same ids', async () => {
    await fillCache();
    const held = heldApi(api.tasks.api);
    const tree = reloadedTree(held.api);
    try {
      const cached = await tree.getChildren();
      const describe = (node: TasksNode): string => `${labelText(tree.getTreeItem(node))}|${String(tree.getTreeItem(node).description ?? '')}`;
      assert.ok(cached.map(describe).includes('My Tasks|refreshing…'), cached.map(describe).join(', '));
      const myTasks = cached.find((node) => labelText(tree.getTreeItem(node)) === 'My Tasks');
      assert.ok(myTasks);
      assert.ok((await tree.getChildren(myTasks)).map((node) => labelText(tree.getTreeItem(node))).includes('Plan the weekend trip'));

      const redrawn = new Promise<void>((resolve) => tree.onDidChangeTreeData(() => { resolve(); }));
      held.open();
      await redrawn;
      const fresh = await tree.getChildren();
      assert.deepEqual(fresh.map((node) => node.id), cached.map((node) => node.id), 'the fresh rows keep the ids (expansion and selection stay)');
      assert.ok(!fresh.map(describe).some((text) => text.endsWith('refreshing…')), fresh.map(describe).join(', '));
    } finally {
      held.open();
      tree.dispose();
    }
  });

  it('ignores and removes a corrupted cache file: the view loads from the network without an error row', async () => {
    // A slot of its own: the real Tasks view may write its slot again after the file is torn here.
    const slot = 'tasks-torn';
    await fillCache();
    fs.writeFileSync(cacheFile(slot), '{"format":1,"account":');
    const tree = reloadedTree(api.tasks.api, slot);
    try {
      const rows = await tree.getChildren();
      assert.ok(rows.length > 0 && rows.every((node) => node.kind === 'list'), rows.map((node) => node.id).join(', '));
      assert.ok(rows.every((node) => tree.getTreeItem(node).description !== 'refreshing…'));
    } finally {
      tree.dispose();
    }
    await eventually('the corrupted file replaced or removed', () => {
      const text = fs.existsSync(cacheFile(slot)) ? fs.readFileSync(cacheFile(slot), 'utf8') : '';
      return text === '' || isTasksSnapshot((JSON.parse(text) as { data?: unknown }).data) ? true : undefined;
    });
  });

  it('does not show a file cached for another account, and removes it', async () => {
    await fillCache();
    const text = fs.readFileSync(cacheFile(), 'utf8');
    const account = (JSON.parse(text) as { account: string }).account;
    fs.writeFileSync(cacheFile(), text.replace(JSON.stringify(account), JSON.stringify('someone-else@example.com')));
    const held = heldApi(api.tasks.api);
    const tree = reloadedTree(held.api);
    try {
      const roots = tree.getChildren();
      // Nothing cached for this account: the rows wait for the network.
      held.open();
      assert.ok((await roots).every((node) => tree.getTreeItem(node).description !== 'refreshing…'));
      assert.ok(!fs.existsSync(cacheFile()) || !fs.readFileSync(cacheFile(), 'utf8').includes('someone-else@example.com'));
    } finally {
      tree.dispose();
    }
  });

  it('shows the remembered account\'s cached rows without waiting for the signed-in check (slow while a window starts)', async () => {
    await fillCache();
    const held = heldApi(api.tasks.api);
    const tree = new TasksTreeProvider(vscode, {
      api: held.api, showCompleted: () => false, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined,
      // The signed-in check never answers: the rows must not wait for it.
      isSignedIn: () => new Promise<boolean>(() => undefined),
      cache: api.desk.viewCache.view('tasks', isTasksSnapshot),
    });
    try {
      const rows = await tree.getChildren();
      assert.ok(rows.some((node) => labelText(tree.getTreeItem(node)) === 'My Tasks' && tree.getTreeItem(node).description === 'refreshing…'), rows.map((node) => node.id).join(', '));
    } finally {
      held.open();
      tree.dispose();
    }
  });

  it('drops rows shown for the remembered account when the account check answers another one, then shows the fresh rows', async () => {
    await fillCache();
    const text = fs.readFileSync(cacheFile(), 'utf8');
    const account = (JSON.parse(text) as { account: string }).account;
    const state = api.desk.extensionContext.globalState;
    const backend = backendKey(api.desk.backend.expected);
    assert.deepEqual(state.get<RememberedAccounts>(REMEMBERED_ACCOUNTS_KEY), { backend, accounts: [account] }, 'the check remembers the signed-in account');
    // As if the last window had another account signed in (its file and the memory of it), and this one has alice.
    // A slot of its own: the real Tasks view may write its slot meanwhile.
    const slot = 'tasks-other-account';
    fs.mkdirSync(path.dirname(cacheFile(slot, 'someone-else@example.com')), { recursive: true });
    fs.writeFileSync(cacheFile(slot, 'someone-else@example.com'), text.replace(JSON.stringify(account), JSON.stringify('someone-else@example.com')));
    // An account check still in flight (the real views ask too) would, on answering, remember alice again over what
    // is set below, and the reloaded view would show no rows: it ends first (concurrent asks share one check).
    await api.desk.viewCache.currentAccounts();
    // Durably: the echo of another write of Desk's global state in flight would otherwise take this one away, and the
    // reloaded view would then wait for the held network instead of showing the other account's rows.
    await updateDurably(state, REMEMBERED_ACCOUNTS_KEY, { backend, accounts: ['someone-else@example.com'] });
    const held = heldApi(api.tasks.api);
    const tree = reloadedTree(held.api, slot);
    try {
      const redrawn = new Promise<void>((resolve) => tree.onDidChangeTreeData(() => { resolve(); }));
      const shown = await tree.getChildren();
      assert.ok(shown.length > 0, 'the other account\'s cached rows are shown first');
      assert.ok(shown.every((node) => tree.getTreeItem(node).description === 'refreshing…'));
      // The check answers before the network (held): the other account's rows go at once.
      await redrawn;
      assert.equal(tree.model.refreshing, false);
      held.open();
      const fresh = await tree.getChildren();
      assert.ok(fresh.some((node) => labelText(tree.getTreeItem(node)) === 'My Tasks') && fresh.every((node) => tree.getTreeItem(node).description !== 'refreshing…'));
      await eventually('the account remembered again', () => (state.get<RememberedAccounts>(REMEMBERED_ACCOUNTS_KEY)?.accounts[0] === account ? true : undefined));
      await eventually('the other account\'s file removed', () => (!fs.existsSync(cacheFile(slot, 'someone-else@example.com')) ? true : undefined));
    } finally {
      held.open();
      tree.dispose();
    }
  });

  it('keeps the first rows of My Drive, the Agenda and My Library, one file per view', async () => {
    const folder = path.dirname(cacheFile());
    const fileOf = (view: string): string => path.join(folder, `${view}.json`);
    api.drive.provider.refresh();
    const myDrive = (await api.drive.provider.getChildren()).find((node) => node.kind === 'section' && node.section === 'myDrive');
    assert.ok(myDrive);
    const driveRows = (await api.drive.provider.getChildren(myDrive)).filter((node) => node.kind === 'file').map((node) => node.item.id);
    assert.ok(driveRows.length > 0);
    await eventually('the My Drive cache file', () => (fs.existsSync(fileOf('drive-my-drive')) && driveRows.every((id) => fs.readFileSync(fileOf('drive-my-drive'), 'utf8').includes(id)) ? true : undefined));

    api.calendar.tree.refreshAll();
    await api.calendar.tree.getChildren();
    await api.calendar.tree.getChildren(api.calendar.tree.agenda);
    await eventually('the Agenda cache file', () => (fs.existsSync(fileOf('calendar-agenda')) ? true : undefined));

    const books = api.books.tree;
    const library = (await books.getChildren()).find((node) => node.kind === 'library' && node.mine);
    assert.ok(library);
    const shelves = (await books.getChildren(library)).flatMap((node) => (node.kind === 'shelf' ? [node.shelf.id] : []));
    assert.ok(shelves.length > 0);
    await eventually('the Bookshelves cache file', () => (fs.existsSync(fileOf('books')) ? true : undefined));
  });

  it('removes every cached view at sign-out', async () => {
    await fillCache();
    stubs.stub('showInformationMessage', async () => undefined);
    await vscode.commands.executeCommand('desk.signOut');
    try {
      assert.equal(api.desk.session.signedIn, false);
      await eventually('the cache folder emptied', () => (fs.existsSync(path.dirname(cacheFile())) && fs.readdirSync(path.dirname(cacheFile())).length > 0 ? undefined : true));
    } finally {
      stubs.restore();
      await activateAndSignIn();
    }
  });
});
