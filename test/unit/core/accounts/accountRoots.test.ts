import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { AccountRootNode, AccountRootsProvider, accountScoped } from '../../../../src/core/accounts/accountRoots';
import { DeskSession, SessionProvider, SignedInAccount } from '../../../../src/core/accounts/session';
import { FakeEventEmitter, fakeVscode } from '../../../support/fakeVscode';

const ALICE: SignedInAccount = { email: 'alice@example.com', name: 'Alice Demo' };
const BOB: SignedInAccount = { email: 'bob@example.com', name: 'Bob Demo' };

/** Stored sessions the test sets, with names, as the provider lists them. */
function fakeProvider(): SessionProvider & { signedIn: SignedInAccount[]; changed: FakeEventEmitter<unknown> } {
  const changed = new FakeEventEmitter<unknown>();
  const provider = {
    signedIn: [] as SignedInAccount[],
    changed,
    onDidChangeSessions: changed.event,
    listSessions: async () => provider.signedIn.map((account, index) => ({ id: `s${index}`, accessToken: 'x', account: { id: account.email, label: account.email }, scopes: [] })),
    listAccounts: async () => provider.signedIn,
    accessTokenFor: async (_scopes: readonly string[], options: { account?: string | undefined } = {}) => `token-of-${options.account ?? provider.signedIn.at(0)?.email ?? 'nobody'}`,
    createSession: async () => { throw new Error('not in this test'); },
  };
  return provider as unknown as SessionProvider & typeof provider;
}

const { TreeItem } = fakeVscode();

function fakeVs(): typeof vscode {
  return { ...fakeVscode(), commands: { executeCommand: async () => undefined } } as unknown as typeof vscode;
}

interface Row { readonly label: string; readonly parent?: Row }

/** An account's tree: two rows whose labels say which token loaded them (the account the calls ran as). */
class AccountTree {
  readonly changes = new FakeEventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  refreshed = 0;
  disposed = false;
  constructor(private readonly token: () => Promise<string>, readonly name: string) {}
  async getChildren(element?: Row): Promise<Row[]> {
    if (element) return [];
    const token = await this.token();
    return [{ label: `${this.name}:${token}:a` }, { label: `${this.name}:${token}:b` }];
  }
  getTreeItem(element: Row): vscode.TreeItem {
    const item = new TreeItem(element.label);
    item.id = element.label;
    return item;
  }
  getParent(element: Row): Row | undefined {
    return element.parent;
  }
  refreshAll(): void {
    this.refreshed++;
  }
  whoAmI(): string {
    return this.name;
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('several accounts: one root per account in each view', () => {
  it('lists the signed-in accounts with their names, and says when one is added beside the other or one signs out', async () => {
    const provider = fakeProvider();
    const session = new DeskSession(fakeVs(), provider);
    provider.signedIn = [ALICE];
    await session.check();
    const heard: string[][] = [];
    session.onDidChangeAccounts((accounts) => heard.push(accounts.map((account) => account.email)));
    const signedInHeard: boolean[] = [];
    session.onDidChangeSignedIn((signedIn) => signedInHeard.push(signedIn));
    provider.signedIn = [ALICE, BOB];
    await session.check();
    assert.deepEqual(session.accounts, [ALICE, BOB]);
    assert.deepEqual(heard, [[ALICE.email, BOB.email]]);
    assert.deepEqual(signedInHeard, [], 'adding bob is no sign-in for alice\'s rows: they stay');
    provider.signedIn = [ALICE];
    await session.check();
    assert.deepEqual(heard, [[ALICE.email, BOB.email], [ALICE.email]]);
    assert.deepEqual(signedInHeard, [], 'bob signing out leaves alice as she was');
    assert.equal(session.currentAccount, ALICE.email);
  });

  it('shows the one account\'s tree as it is; with two, a root per account (name, e-mail), each loaded with its own token', async () => {
    const vs = fakeVs();
    const provider = fakeProvider();
    const session = new DeskSession(vs, provider);
    provider.signedIn = [ALICE];
    await session.check();
    const token = session.tokenSource();
    const primary = new AccountTree(() => token({ forceRefresh: false }), 'primary');
    const made: AccountTree[] = [];
    const roots = new AccountRootsProvider<Row>(vs, { session, primary, create: () => { const tree = new AccountTree(() => token({ forceRefresh: false }), `tree${made.length}`); made.push(tree); return tree; } });

    const single = await roots.getChildren();
    assert.deepEqual(single.map((row) => (row as Row).label), ['primary:token-of-alice@example.com:a', 'primary:token-of-alice@example.com:b'], 'one account: no account level');
    assert.equal((await roots.getTreeItem(single[0] as Row)).id, 'primary:token-of-alice@example.com:a', 'and its ids unchanged');
    assert.equal(made.length, 0);

    provider.signedIn = [ALICE, BOB];
    await session.check();
    const top = await roots.getChildren();
    assert.ok(top.every((row) => row instanceof AccountRootNode));
    const items = await Promise.all(top.map((row) => roots.getTreeItem(row)));
    assert.deepEqual(items.map((item) => [item.label, item.description]), [['Alice Demo', ALICE.email], ['Bob Demo', BOB.email]]);
    const aliceRows = await roots.getChildren(top[0]);
    const bobRows = await roots.getChildren(top[1]);
    assert.deepEqual(aliceRows.map((row) => (row as Row).label), ['primary:token-of-alice@example.com:a', 'primary:token-of-alice@example.com:b']);
    assert.deepEqual(bobRows.map((row) => (row as Row).label), ['tree0:token-of-bob@example.com:a', 'tree0:token-of-bob@example.com:b']);
    assert.equal(roots.getParent(bobRows[0] as Row), top[1], 'a top row\'s parent is its account\'s root (reveal)');
    assert.notEqual((await roots.getTreeItem(aliceRows[0])).id, (await roots.getTreeItem(bobRows[0])).id);

    // The feature's code reaches the tree of the account an operation runs as; a refresh of everything reaches all.
    const scoped = accountScoped<AccountTree>(primary, roots, session, ['refreshAll']);
    assert.equal(scoped.whoAmI(), 'primary');
    assert.equal(await session.runAs(BOB.email, async () => scoped.whoAmI()), 'tree0');
    scoped.refreshAll();
    assert.deepEqual([primary.refreshed, made[0]?.refreshed], [1, 1]);
    await session.runAs(BOB.email, async () => { scoped.refreshAll(); });
    assert.deepEqual([primary.refreshed, made[0]?.refreshed], [1, 2], 'a refresh as bob is bob\'s tree only');

    // Bob signs out: his tree goes, alice's is shown alone again as before.
    provider.signedIn = [ALICE];
    await session.check();
    assert.equal(made[0]?.disposed, true);
    assert.equal(primary.disposed, false);
    assert.deepEqual((await roots.getChildren()).map((row) => (row as Row).label), ['primary:token-of-alice@example.com:a', 'primary:token-of-alice@example.com:b']);
    roots.dispose();
  });
});
