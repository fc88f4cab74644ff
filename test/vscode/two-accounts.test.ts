// Two accounts signed in at once (issue 29, item 2): alice, then bob added beside her with "Desk: Add Another
// Account…" through the real provider and the emulator's consent page. Tasks, Drive and Calendar show one root per
// account (name, e-mail) with that account's rows; a task completed under bob's root is bob's (checked over HTTP as
// bob) and alice's task of the same title stays open; bob signing out leaves alice's view as it was.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { AccountRootNode } from '../../src/core/accounts/accountRoots';
import { consentBrowser } from '../support/consentBrowser';
import { activateAndSignIn, emulatorRequest, eventually, labelText, WindowStubs } from './support';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

interface ApiList { id: string; title: string }
interface ApiTask { id: string; title: string; status: string }

/** An account's root row (the class is the feature bundle's own, so it is told by its kind). */
const isAccountRoot = (node: unknown): node is AccountRootNode => (node as { kind?: unknown }).kind === 'account';

type Roots = { getChildren(element?: unknown): Promise<unknown[]>; getTreeItem(element: unknown): Promise<vscode.TreeItem> };

describe('Two accounts at once: one root per account, each command in its row\'s account', function () {
  this.timeout(120000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  const title = `Two accounts ${Date.now()}`;
  const created: Array<{ account: string; listId: string; taskId: string }> = [];

  async function addAccount(account: string): Promise<void> {
    api.setAuthUrlOpener(consentBrowser(account, (result) => {
      if (result instanceof Error) console.error(`consent failed: ${result.message}`);
    }));
    try {
      await vscode.commands.executeCommand('desk.addAccount');
    } finally {
      api.setAuthUrlOpener(undefined);
    }
  }

  async function signOutOf(account: string): Promise<void> {
    for (const session of await api.desk.auth.listSessions()) if (session.account.label === account) await api.desk.auth.removeSession(session.id);
    await api.desk.session.check();
  }

  /** The account roots' labels and descriptions, once the view shows one per account. */
  async function accountRoots(roots: Roots, count: number): Promise<AccountRootNode[]> {
    return eventually(`${count} account roots`, async () => {
      const top = await roots.getChildren();
      return top.length === count && top.every((node) => isAccountRoot(node)) ? (top) : undefined;
    });
  }

  before(async () => {
    api = await activateAndSignIn(ALICE);
    stubs.stub('showInformationMessage', async () => undefined);
    // A task of the same title in each account's first list, to complete under each root.
    for (const account of [ALICE, BOB]) {
      const lists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, account)).body.items ?? [];
      const list = lists[0];
      assert.ok(list, `${account} has a task list`);
      const task = (await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${list.id}/tasks`, { title }, account)).body;
      created.push({ account, listId: list.id, taskId: task.id });
    }
  });

  after(async () => {
    stubs.restore();
    await signOutOf(BOB);
    for (const { account, listId, taskId } of created) await emulatorRequest('DELETE', `/tasks/v1/lists/${listId}/tasks/${taskId}`, undefined, account);
  });

  it('adds bob beside alice: the session lists both, and Tasks, Drive and Calendar show a root for each (name, e-mail)', async () => {
    assert.deepEqual(api.desk.session.accounts.map((account) => account.email), [ALICE]);
    assert.ok(!(isAccountRoot((await api.tasks.roots.getChildren())[0])), 'one account: no account level');
    await addAccount(BOB);
    assert.deepEqual(api.desk.session.accounts.map((account) => account.email), [ALICE, BOB]);
    assert.equal(api.desk.session.currentAccount, ALICE, 'alice stays the first account');
    // The menu lists accounts: alice may hold two sessions (another suite asked for more scopes), shown as one.
    assert.deepEqual([...new Set((await api.desk.auth.listSessions()).map((session) => session.account.label))].sort(), [ALICE, BOB], 'VS Code\'s Accounts menu lists both');
    for (const roots of [api.tasks.roots, api.drive.roots, api.calendar.roots] as Roots[]) {
      const top = await accountRoots(roots, 2);
      const items = await Promise.all(top.map((node) => roots.getTreeItem(node)));
      assert.deepEqual(items.map((item) => [labelText(item), item.description]), [['Alice Demo', ALICE], ['Bob Demo', BOB]]);
      assert.ok((await roots.getChildren(top[1])).length > 0, 'bob\'s root holds his rows');
    }
  });

  it('asks which account for a command run from the palette, and acts in the account chosen', async () => {
    const listTitle = `${title} list`;
    const offered = stubs.pickByLabel(/Bob Demo/);
    stubs.answerInputs(listTitle);
    await vscode.commands.executeCommand('desk.tasks.createList');
    assert.deepEqual(offered[0], ['Alice Demo', 'Bob Demo']);
    const listsOf = async (account: string): Promise<ApiList[]> => (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, account)).body.items ?? [];
    const bobs = (await listsOf(BOB)).find((list) => list.title === listTitle);
    assert.ok(bobs, 'the list is bob\'s');
    assert.equal((await listsOf(ALICE)).some((list) => list.title === listTitle), false, 'alice has no such list');
    await emulatorRequest('DELETE', `/tasks/v1/users/@me/lists/${bobs.id}`, undefined, BOB);
  });

  it('completes a task under each account\'s root in that account, and bob signing out leaves alice\'s view', async () => {
    const roots = api.tasks.roots as Roots;
    const top = await accountRoots(roots, 2);
    for (const [index, account] of [ALICE, BOB].entries()) {
      const mine = created.find((entry) => entry.account === account);
      assert.ok(mine);
      const lists = await roots.getChildren(top[index]);
      const list = lists.find((node) => (node as { listId?: string }).listId === mine.listId);
      assert.ok(list, `${account}'s list under ${account}'s root (${JSON.stringify(lists.map((node) => (node as { listId?: string }).listId))}, wanted ${mine.listId})`);
      // The task was made over HTTP, outside Desk: Refresh on the list row, as a user would (an earlier suite may have loaded it).
      await vscode.commands.executeCommand('desk.tasks.refresh', list);
      const task = await eventually(`the task under ${account}'s list`, async () => (await roots.getChildren(list)).find((node) => (node as { task?: { id: string } }).task?.id === mine.taskId));
      await vscode.commands.executeCommand('desk.tasks.completeTask', task);
      const status = async (who: string, entry: typeof mine): Promise<string> => (await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${entry.listId}/tasks/${entry.taskId}`, undefined, who)).body.status;
      assert.equal(await status(account, mine), 'completed', `${account}'s task completed in ${account}'s account`);
      if (account === ALICE) {
        const bobs = created.find((entry) => entry.account === BOB);
        assert.ok(bobs);
        assert.equal(await status(BOB, bobs), 'needsAction', 'bob\'s task of the same title stays open');
      }
    }
    await signOutOf(BOB);
    assert.deepEqual(api.desk.session.accounts.map((account) => account.email), [ALICE]);
    assert.equal(api.desk.session.currentAccount, ALICE);
    const alone = await eventually('alice\'s lists shown alone again', async () => {
      const rows = await roots.getChildren();
      return rows.length > 0 && !rows.some((node) => isAccountRoot(node)) ? rows : undefined;
    });
    assert.ok(alone.some((node) => (node as { listId?: string }).listId === created[0]?.listId));
  });
});
