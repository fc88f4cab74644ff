import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { accountOfUri, AccountRefusedError, UriAccounts } from '../../../../src/core/accounts/accounts';
import { recallForAccount, rememberForAccount } from '../../../../src/core/storage/accountMemory';
import { DeskSession, SessionProvider } from '../../../../src/core/accounts/session';
import { FakeEventEmitter, fakeVscode } from '../../../support/fakeVscode';
import { MapMemento } from '../../../support/memento';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

/** A provider whose signed-in accounts the test sets; the token it hands out says whose it is. */
function fakeProvider(): SessionProvider & { accounts: string[]; asked: Array<string | undefined>; changed: FakeEventEmitter<unknown> } {
  const changed = new FakeEventEmitter<unknown>();
  const provider = {
    accounts: [] as string[],
    asked: [] as Array<string | undefined>,
    changed,
    onDidChangeSessions: changed.event,
    listSessions: async () => provider.accounts.map((label, index) => ({ id: `s${index}`, accessToken: `token-of-${label}`, account: { id: `id-${label}`, label }, scopes: [] })),
    accessTokenFor: async (_scopes: readonly string[], options: { account?: string | undefined } = {}) => {
      provider.asked.push(options.account);
      const account = options.account ?? provider.accounts[0];
      if (!account || !provider.accounts.includes(account)) throw new Error('not signed in');
      return `token-of-${account}`;
    },
    createSession: async () => { throw new Error('not in this test'); },
  };
  return provider as unknown as SessionProvider & typeof provider;
}

function sessionWith(provider: SessionProvider): DeskSession {
  const vs = { ...fakeVscode(), commands: { executeCommand: async () => undefined } } as unknown as typeof vscode;
  return new DeskSession(vs, provider);
}

const uri = (authority: string, path: string) => ({ scheme: 'desk-drive', authority, path });

describe('accounts: every Desk URI names its account', () => {
  it('reads the account from the authority, compared without case; a path-only URI names none', () => {
    assert.equal(accountOfUri(uri('Alice@Example.com', '/My Drive')), ALICE);
    assert.equal(accountOfUri(uri('', '/My Drive')), undefined);
    assert.equal(accountOfUri(uri('root', '/x')), undefined, 'an authority that is not an address names no account');
  });

  it('runs an operation as the URI\'s account only while it is signed in, and refuses it in Desk\'s words otherwise, running nothing', async () => {
    const provider = fakeProvider();
    const session = sessionWith(provider);
    const accounts = new UriAccounts({ gate: session });
    provider.accounts = [BOB];
    let ran = false;
    await assert.rejects(accounts.run(uri(ALICE, '/My Drive/Notes/groceries.txt'), 'save', 'groceries.txt', async () => { ran = true; }), (error: Error) => {
      assert.ok(error instanceof AccountRefusedError);
      assert.equal(error.message, 'Sign in as alice@example.com to save groceries.txt.');
      assert.equal(error.nobodySignedIn, false, 'bob is signed in: another account, not signed out');
      return true;
    });
    await assert.rejects(accounts.run(uri('', '/My Drive/Notes'), 'open', 'Notes', async () => { ran = true; }), /“Notes” does not say which Google account it belongs to/);
    // Nobody signed in (a workspace reopened signed out): the refusal says so, for the Explorer's sign-in notice.
    provider.accounts = [];
    await assert.rejects(accounts.run(uri(ALICE, '/My Drive'), 'open', 'My Drive', async () => { ran = true; }), (error: Error) => {
      assert.ok(error instanceof AccountRefusedError);
      assert.equal(error.nobodySignedIn, true);
      return true;
    });
    assert.equal(ran, false);

    // Signed in as alice (bob too): the work's requests take alice's token, whichever account the views show.
    provider.accounts = [BOB, ALICE];
    const token = session.tokenSource();
    assert.equal(await accounts.run(uri(ALICE, '/My Drive'), 'open', 'My Drive', () => token({ forceRefresh: false })), 'token-of-alice@example.com');
    assert.equal(await token({ forceRefresh: false }), 'token-of-bob@example.com', 'outside an operation: the first account, as before');
    assert.deepEqual(provider.asked, [ALICE, undefined]);
  });

  it('reads a path-only URI as the account Desk recorded for it, and as nobody else', async () => {
    const provider = fakeProvider();
    provider.accounts = [BOB];
    const accounts = new UriAccounts({ gate: sessionWith(provider), legacyAccount: (target) => (target.path.startsWith('/My Drive/Projects') ? ALICE : undefined) });
    await assert.rejects(accounts.run(uri('', '/My Drive/Projects/plan.txt'), 'save', 'plan.txt', async () => undefined), /Sign in as alice@example\.com to save plan\.txt\./);
    provider.accounts = [ALICE];
    assert.equal(await accounts.run(uri('', '/My Drive/Projects/plan.txt'), 'save', 'plan.txt', async (account) => account), ALICE);
  });

  it('tells the views of another account in place of the one shown, as a new sign-in (their caches go)', async () => {
    const provider = fakeProvider();
    const session = sessionWith(provider);
    provider.accounts = [ALICE];
    await session.check();
    assert.equal(session.currentAccount, ALICE);
    const heard: boolean[] = [];
    session.onDidChangeSignedIn((signedIn) => heard.push(signedIn));
    provider.accounts = [BOB];
    await session.check();
    assert.deepEqual(heard, [true]);
    assert.equal(session.currentAccount, BOB);
    provider.accounts = [];
    await session.check();
    assert.deepEqual(heard, [true, false]);
    assert.throws(() => session.viewAccount(), /Not signed in/);
  });

  it('remembers per account: what one account kept never answers for another, and a value from before accounts answers for none', async () => {
    const memento = new MapMemento();
    await memento.update('desk.search.lastQuery', 'from before');
    assert.equal(recallForAccount(memento, 'desk.search.lastQuery', ALICE), undefined);
    await rememberForAccount(memento, 'desk.search.lastQuery', 'Alice@example.com', 'dune');
    await rememberForAccount(memento, 'desk.search.lastQuery', BOB, 'stamps');
    assert.equal(recallForAccount(memento, 'desk.search.lastQuery', ALICE), 'dune');
    assert.equal(recallForAccount(memento, 'desk.search.lastQuery', BOB), 'stamps');
    assert.equal(recallForAccount(memento, 'desk.search.lastQuery', 'carol@example.com'), undefined);
  });
});
