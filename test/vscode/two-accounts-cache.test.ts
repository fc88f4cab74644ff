// Two accounts signed in at once, what each keeps (issue 29, items 2 and 3): each account's first rows are cached in
// its own files and shown by its own tree after a reload; nothing of bob's shows once alice is the only one signed in
// (his files go at his sign-out). Bob's Agenda uses his own Calendar time zone (his settings, not alice's) and shows
// his own due tasks. Bob is added beside alice through the real provider and the emulator's consent page.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { AccountRootNode } from '../../src/core/accounts/accountRoots';
import type { CalendarTreeProvider } from '../../src/features/calendar/tree/treeProvider';
import type { TasksApi } from '../../src/features/tasks/port';
import { TASKS_SNAPSHOT } from '../../src/features/tasks/tree/snapshot';
import { TasksTreeProvider } from '../../src/features/tasks/tree/treeProvider';
import { consentBrowser } from '../support/consentBrowser';
import { activateAndSignIn, emulatorRequest, eventually, labelText, WindowStubs } from './support';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

interface ApiList { id: string; title: string }
interface ApiTask { id: string; title: string }

const isAccountRoot = (node: unknown): node is AccountRootNode => (node as { kind?: unknown }).kind === 'account';
type Roots = { getChildren(element?: unknown): Promise<unknown[]>; getTreeItem(element: unknown): Promise<vscode.TreeItem> };

/** The Tasks API with every call held (the network of a reload that has not answered yet). */
function heldApi(real: TasksApi): TasksApi {
  const never = new Promise<never>(() => undefined);
  return new Proxy(real, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // eslint-disable-next-line require-yield
      return String(property).startsWith('all') ? async function* (): AsyncGenerator<never> { await never; } : async () => never;
    },
  });
}

/** A date key (YYYY-MM-DD) of `ms` in `zone`. */
function dateIn(zone: string, ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

describe('Two accounts at once: each account\'s cache, time zone and due tasks', function () {
  this.timeout(120000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  const title = `Bob's due task ${Date.now()}`;
  let bobsTask: { listId: string; taskId: string } | undefined;
  const folderOf = (account: string): string => path.join(api.desk.extensionContext.globalStorageUri.fsPath, 'view-cache', encodeURIComponent(account));

  async function signOutOf(account: string): Promise<void> {
    for (const session of await api.desk.auth.listSessions()) if (session.account.label === account) await api.desk.auth.removeSession(session.id);
    await api.desk.session.check();
  }

  /** The root of `account` in a view showing one per account. */
  async function rootOf(roots: Roots, account: string): Promise<AccountRootNode> {
    return eventually(`${account}'s root`, async () => (await roots.getChildren()).find((node): node is AccountRootNode => isAccountRoot(node) && node.account.email === account));
  }

  before(async () => {
    api = await activateAndSignIn(ALICE);
    stubs.stub('showInformationMessage', async () => undefined);
    // A task of bob's due tomorrow (in his zone): his Agenda shows it, alice's does not.
    const lists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, BOB)).body.items ?? [];
    const list = lists[0];
    assert.ok(list, 'bob has a task list');
    const due = `${dateIn('America/New_York', Date.now() + 86_400_000)}T00:00:00.000Z`;
    const task = (await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${list.id}/tasks`, { title, due }, BOB)).body;
    bobsTask = { listId: list.id, taskId: task.id };
    api.setAuthUrlOpener(consentBrowser(BOB, (result) => {
      if (result instanceof Error) console.error(`consent failed: ${result.message}`);
    }));
    try {
      await vscode.commands.executeCommand('desk.addAccount');
    } finally {
      api.setAuthUrlOpener(undefined);
    }
    assert.deepEqual(api.desk.session.accounts.map((account) => account.email), [ALICE, BOB]);
  });

  after(async () => {
    stubs.restore();
    await signOutOf(BOB);
    if (bobsTask) await emulatorRequest('DELETE', `/tasks/v1/lists/${bobsTask.listId}/tasks/${bobsTask.taskId}`, undefined, BOB);
  });

  it('bob\'s Agenda uses his Calendar time zone and shows his due tasks; alice\'s keeps hers', async () => {
    const roots = api.calendar.roots as Roots;
    const bob = await rootOf(roots, BOB);
    const agenda = await eventually('bob\'s Agenda row', async () => (await roots.getChildren(bob)).find((node) => (node as { kind?: string }).kind === 'agenda'));
    const days = await roots.getChildren(agenda);
    const rows = (await Promise.all(days.filter((node) => (node as { kind?: string }).kind === 'day').map((day) => roots.getChildren(day)))).flat();
    const labels = await Promise.all(rows.map(async (row) => labelText(await roots.getTreeItem(row))));
    assert.ok(labels.includes(title), `bob's due task in his Agenda: ${labels.join(', ')}`);
    const bobsTree = api.calendar.roots.treeOf(BOB) as CalendarTreeProvider | undefined;
    assert.equal(bobsTree?.model.zone, 'America/New_York', 'bob\'s Agenda is built in his zone');
    assert.equal(await api.calendar.timeZone(), 'Europe/Berlin', 'alice\'s zone (Desk\'s clock) stays hers');
    await eventually('bob\'s Agenda cached in his own file', () => {
      const file = path.join(folderOf(BOB), 'calendar-agenda.json');
      return fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('"timeZone":"America/New_York"') ? true : undefined;
    });
  });

  it('keeps each account\'s first rows in its own files, and a reload shows bob\'s under his root before the network answers', async () => {
    const roots = api.tasks.roots as Roots;
    const bobsLists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, BOB)).body.items ?? [];
    const alicesLists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, ALICE)).body.items ?? [];
    await roots.getChildren(await rootOf(roots, ALICE));
    await roots.getChildren(await rootOf(roots, BOB));
    const fileOf = (account: string): string => path.join(folderOf(account), 'tasks.json');
    await eventually('a tasks file per account', () => (fs.existsSync(fileOf(ALICE)) && fs.existsSync(fileOf(BOB)) ? true : undefined));
    const bobsFile = fs.readFileSync(fileOf(BOB), 'utf8');
    assert.ok(bobsLists.every((list) => bobsFile.includes(list.id)), 'bob\'s file holds his lists');
    assert.ok(!alicesLists.some((list) => bobsFile.includes(list.id)), 'and none of alice\'s');

    // Bob's tree as a window reload builds it: his cached lists at once, marked refreshing, the network still out.
    const reloaded = new TasksTreeProvider(vscode, {
      api: heldApi(api.tasks.api), showCompleted: () => false, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined,
      isSignedIn: async () => true, cache: api.desk.viewCache.slot(TASKS_SNAPSHOT, BOB),
    });
    try {
      const rows = await reloaded.getChildren();
      const shown = rows.map((node) => `${labelText(reloaded.getTreeItem(node))}|${String(reloaded.getTreeItem(node).description ?? '')}`);
      assert.deepEqual(rows.map((node) => (node as { listId?: string }).listId).sort(), bobsLists.map((list) => list.id).sort(), shown.join(', '));
      assert.ok(shown.every((text) => text.endsWith('|refreshing…')), shown.join(', '));
    } finally {
      reloaded.dispose();
    }
  });

  it('shows nothing of bob\'s once alice is the only one signed in, and removes his files', async () => {
    assert.ok(fs.existsSync(folderOf(BOB)));
    await signOutOf(BOB);
    await eventually('bob\'s cache folder removed', () => (fs.existsSync(folderOf(BOB)) ? undefined : true));
    assert.ok(fs.existsSync(path.join(folderOf(ALICE), 'tasks.json')), 'alice\'s files stay');
    assert.equal(await api.desk.viewCache.slot(TASKS_SNAPSHOT, BOB).read(), undefined);
    const bobsLists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, BOB)).body.items ?? [];
    const rows = await eventually('alice\'s lists shown alone', async () => {
      const top = await api.tasks.roots.getChildren();
      return top.length > 0 && !top.some((node) => isAccountRoot(node)) ? top : undefined;
    });
    assert.ok(!rows.some((node) => bobsLists.some((list) => list.id === (node as { listId?: string }).listId)), 'none of bob\'s lists');
  });
});
