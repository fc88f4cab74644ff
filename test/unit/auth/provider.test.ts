import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Response } from 'node-fetch';
import { AccountNotSignedInError, createTokenSource, DeskAuthenticationProvider, missingScopes, needsRefresh, NotSignedInError, REFRESH_MARGIN_MS, SessionExpiredError } from '../../../src/auth/provider';
import { backendKey, SESSIONS_SECRET_KEY, SessionStore, StoredSession } from '../../../src/auth/sessionStore';
import { emulatorEndpoints, GOOGLE_ENDPOINTS, ServiceEndpoints } from '../../../src/config/endpoints';
import { FakeSecretStorage, fakeVscode } from '../../support/fakeVscode';

const NOW = 1_700_000_000_000;
const EMULATOR = emulatorEndpoints('http://127.0.0.1:1');
const TASKS = 'https://www.googleapis.com/auth/tasks';

function stored(id: string, overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    id,
    accountId: `sub-${id}`,
    label: `${id}@example.com`,
    scopes: ['email', 'openid', 'profile', TASKS].sort(),
    refreshToken: `refresh-${id}`,
    accessToken: `access-${id}`,
    expiresAt: NOW + 60 * 60 * 1000,
    ...overrides,
  };
}

interface Harness {
  provider: DeskAuthenticationProvider;
  secrets: FakeSecretStorage;
  tokenRequests: URLSearchParams[];
  events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[];
  store: SessionStore;
}

/** A provider whose token endpoint is a function, so refresh decisions are observable without a server. */
async function harness(
  sessions: StoredSession[],
  answer: (fields: URLSearchParams) => Response = () => new Response(JSON.stringify({ access_token: `fresh-${Math.random()}`, expires_in: 3600, token_type: 'Bearer' }), { status: 200 }),
  endpoints: () => ServiceEndpoints = () => EMULATOR,
): Promise<Harness> {
  const secrets = new FakeSecretStorage();
  const store = new SessionStore(secrets);
  for (const session of sessions) await store.put(backendKey(EMULATOR), session);
  const tokenRequests: URLSearchParams[] = [];
  const provider = new DeskAuthenticationProvider(fakeVscode(), secrets, {
    endpoints,
    clientId: async () => ({ clientId: 'test-client' }),
    now: () => NOW,
    fetch: async (_url, init) => {
      const fields = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
      tokenRequests.push(fields);
      // Let concurrent callers pile up before the answer comes.
      await new Promise((resolve) => setImmediate(resolve));
      return answer(fields);
    },
  });
  const events: vscode.AuthenticationProviderAuthenticationSessionsChangeEvent[] = [];
  provider.onDidChangeSessions((event) => events.push(event));
  await provider.refreshSessions();
  return { provider, secrets, tokenRequests, events, store };
}

describe('auth/provider', () => {
  it('refreshes within five minutes of expiry, or when forced', () => {
    assert.equal(needsRefresh(NOW + REFRESH_MARGIN_MS + 1000, NOW), false);
    assert.equal(needsRefresh(NOW + REFRESH_MARGIN_MS, NOW), true);
    assert.equal(needsRefresh(NOW - 1, NOW), true);
    assert.equal(needsRefresh(NOW + 60 * 60 * 1000, NOW, true), true);
  });

  it('finds scopes the user did not grant, knowing Google\'s long names for email and profile', () => {
    const requested = ['email', 'openid', 'profile', TASKS];
    assert.deepEqual(missingScopes(requested, `openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile ${TASKS}`), []);
    assert.deepEqual(missingScopes(requested, 'email profile openid'), [TASKS]);
    assert.deepEqual(missingScopes(requested, undefined), []);
  });

  it('hands out the stored access token while it has more than five minutes left', async () => {
    const { provider, tokenRequests } = await harness([stored('a')]);
    assert.equal(await provider.getAccessToken('a'), 'access-a');
    assert.equal(tokenRequests.length, 0);
  });

  it('refreshes once for concurrent callers, stores the new token and announces the change', async () => {
    const { provider, tokenRequests, events, store } = await harness([stored('a', { expiresAt: NOW + 60_000 })]);
    const tokens = await Promise.all([provider.getAccessToken('a'), provider.getAccessToken('a'), provider.getAccessToken('a', { forceRefresh: true })]);
    assert.equal(tokenRequests.length, 1);
    assert.equal(tokenRequests[0]?.get('grant_type'), 'refresh_token');
    assert.equal(tokenRequests[0]?.get('refresh_token'), 'refresh-a');
    assert.equal(new Set(tokens).size, 1);
    assert.match(tokens[0], /^fresh-/);
    const saved = await store.get(backendKey(EMULATOR), 'a');
    assert.equal(saved?.accessToken, tokens[0]);
    assert.equal(saved.expiresAt, NOW + 3600 * 1000);
    assert.equal(saved.refreshToken, 'refresh-a');
    assert.deepEqual(events.map((event) => event.changed?.map((session) => session.id)), [['a']]);
  });

  it('refreshes a fresh token when forced (after a 401)', async () => {
    const { provider, tokenRequests } = await harness([stored('a')]);
    assert.notEqual(await provider.getAccessToken('a', { forceRefresh: true }), 'access-a');
    assert.equal(tokenRequests.length, 1);
  });

  it('drops a session whose refresh token is revoked, and says to sign in again', async () => {
    const revoked = (): Response => new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }), { status: 400 });
    const { provider, events, secrets } = await harness([stored('a', { expiresAt: NOW - 1 })], revoked);
    await assert.rejects(provider.getAccessToken('a'), (error: unknown) => error instanceof SessionExpiredError && /a@example\.com.*sign in again/i.test(error.message) && !error.message.includes('refresh-a'));
    assert.deepEqual(events.map((event) => event.removed?.map((session) => session.id)), [['a']]);
    assert.equal(secrets.values.has(SESSIONS_SECRET_KEY), false);
    await assert.rejects(provider.getAccessToken('a'), NotSignedInError);
  });

  it('lists sessions covering the asked scopes, for the asked account, without refresh tokens', async () => {
    const { provider } = await harness([stored('a'), stored('b', { scopes: ['email', 'openid', 'profile'] })]);
    assert.deepEqual((await provider.getSessions(undefined)).map((session) => session.id), ['a', 'b']);
    assert.deepEqual((await provider.getSessions([TASKS])).map((session) => session.id), ['a']);
    assert.deepEqual((await provider.getSessions(['email'], { account: { id: 'sub-b', label: 'b@example.com' } })).map((session) => session.id), ['b']);
    assert.deepEqual(await provider.getSessions(['https://www.googleapis.com/auth/drive']), []);
    const session = (await provider.getSessions([TASKS])).at(0);
    assert.deepEqual(Object.keys(session ?? {}).sort(), ['accessToken', 'account', 'id', 'scopes']);
    assert.deepEqual(session?.account, { id: 'sub-a', label: 'a@example.com' });
  });

  it('refreshes expiring tokens when scopes are asked, but not when VS Code only lists accounts', async () => {
    const { provider, tokenRequests } = await harness([stored('a', { expiresAt: NOW + 60_000 })]);
    assert.deepEqual((await provider.getSessions(undefined)).map((session) => session.accessToken), ['access-a']);
    assert.equal(tokenRequests.length, 0);
    assert.match((await provider.getSessions([TASKS]))[0]?.accessToken ?? '', /^fresh-/);
    assert.equal(tokenRequests.length, 1);
  });

  it('keeps the stale session when the refresh cannot reach the server', async () => {
    const { provider, events } = await harness([stored('a', { expiresAt: NOW - 1 })], () => {
      throw new Error('connect ECONNREFUSED');
    });
    const sessions = await provider.getSessions([TASKS]);
    assert.deepEqual(sessions.map((session) => session.accessToken), ['access-a']);
    assert.deepEqual(events, []);
  });

  it('shows only the sessions of the backend in use, and announces a backend switch', async () => {
    let endpoints: ServiceEndpoints = EMULATOR;
    const { provider, events } = await harness([stored('a')], undefined, () => endpoints);
    // No explicit refreshSessions(): noticing the switch on the next call is the provider's job.
    const nextChange = (): Promise<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent> =>
      new Promise((resolve) => { const subscription = provider.onDidChangeSessions((event) => { subscription.dispose(); resolve(event); }); });
    let announced = nextChange();
    endpoints = GOOGLE_ENDPOINTS;
    assert.deepEqual(await provider.getSessions(undefined), []);
    await assert.rejects(provider.getAccessToken('a'), NotSignedInError);
    assert.deepEqual((await announced).removed?.map((session) => session.id), ['a']);
    announced = nextChange();
    endpoints = EMULATOR;
    assert.deepEqual((await provider.getSessions(undefined)).map((session) => session.id), ['a']);
    assert.deepEqual((await announced).added?.map((session) => session.id), ['a']);
    assert.equal(events.length, 2);
  });

  it('sees sign-ins and sign-outs of other windows through SecretStorage', async () => {
    const { provider, secrets, events } = await harness([]);
    const otherWindow = new SessionStore(secrets);
    // No explicit refresh here: the provider must react to SecretStorage's change event on its own.
    const nextChange = (): Promise<unknown> => new Promise((resolve) => { const subscription = provider.onDidChangeSessions((event) => { subscription.dispose(); resolve(event); }); });
    let changed = nextChange();
    await otherWindow.put(backendKey(EMULATOR), stored('x'));
    await changed;
    changed = nextChange();
    await otherWindow.remove(backendKey(EMULATOR), 'x');
    await changed;
    const summary = events.map((event) => ({ added: event.added?.map((s) => s.id) ?? [], removed: event.removed?.map((s) => s.id) ?? [] }));
    assert.deepEqual(summary, [{ added: ['x'], removed: [] }, { added: [], removed: ['x'] }]);
  });

  describe('accessTokenFor (the HTTP pipeline\'s tokens)', () => {
    /** Counts SecretStorage reads: each one is a round trip to the window in VS Code. */
    function countReads(secrets: FakeSecretStorage): { count: number } {
      const reads = { count: 0 };
      const get = secrets.get.bind(secrets);
      secrets.get = async (key: string) => {
        reads.count++;
        return get(key);
      };
      return reads;
    }

    it('serves a burst of requests with one stored-session read, and later ones with none', async () => {
      const { provider, secrets } = await harness([stored('a')]);
      const reads = countReads(secrets);
      const tokens = await Promise.all(Array.from({ length: 18 }, () => provider.accessTokenFor([TASKS])));
      assert.deepEqual(new Set(tokens), new Set(['access-a']));
      assert.equal(reads.count, 1);
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-a');
      assert.equal(reads.count, 1, 'a fresh token handed out before is handed out again without a read');
    });

    it('hands out no token after sign-out, and the other account\'s after a sign-in elsewhere', async () => {
      const { provider, secrets } = await harness([stored('a')]);
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-a');
      await provider.removeSession('a');
      await assert.rejects(provider.accessTokenFor([TASKS]), NotSignedInError);
      const otherWindow = new SessionStore(secrets);
      await otherWindow.put(backendKey(EMULATOR), stored('b'));
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-b');
      // Another window signs b out: SecretStorage's change event is all this window hears.
      await otherWindow.remove(backendKey(EMULATOR), 'b');
      await assert.rejects(provider.accessTokenFor([TASKS]), NotSignedInError);
    });

    it('hands out only the named account\'s token for a request made for it (a document of that account), and none when it is signed out', async () => {
      const { provider } = await harness([stored('bob'), stored('alice')]);
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-bob', 'unnamed: the first session, as the views use');
      assert.equal(await provider.accessTokenFor([TASKS], { forceRefresh: false, account: 'Alice@Example.com' }), 'access-alice');
      await provider.removeSession('alice');
      await assert.rejects(provider.accessTokenFor([TASKS], { forceRefresh: false, account: 'alice@example.com' }), (error: Error) => {
        assert.ok(error instanceof AccountNotSignedInError && error instanceof NotSignedInError);
        assert.match(error.message, /Sign in as alice@example\.com/);
        return true;
      });
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-bob');
    });

    it('does not remember a token looked up while the sessions changed', async () => {
      const { provider, secrets } = await harness([stored('a')]);
      const lookUp = provider.accessTokenFor([TASKS]);
      await new SessionStore(secrets).remove(backendKey(EMULATOR), 'a');
      await lookUp.catch(() => undefined);
      await assert.rejects(provider.accessTokenFor([TASKS]), NotSignedInError);
    });

    it('refreshes a remembered token near its expiry, and on a 401 even when fresh', async () => {
      let now = NOW;
      const secrets = new FakeSecretStorage();
      await new SessionStore(secrets).put(backendKey(EMULATOR), stored('a'));
      let issued = 0;
      const provider = new DeskAuthenticationProvider(fakeVscode(), secrets, {
        endpoints: () => EMULATOR,
        clientId: async () => ({ clientId: 'test-client' }),
        now: () => now,
        fetch: async () => new Response(JSON.stringify({ access_token: `fresh-${++issued}`, expires_in: 3600, token_type: 'Bearer' }), { status: 200 }),
      });
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-a');
      now = NOW + 60 * 60 * 1000 - REFRESH_MARGIN_MS;
      assert.equal(await provider.accessTokenFor([TASKS]), 'fresh-1');
      assert.equal(await provider.accessTokenFor([TASKS], { forceRefresh: true }), 'fresh-2');
      assert.equal(await provider.accessTokenFor([TASKS]), 'fresh-2');
    });

    it('refreshes once for requests refused one after another with the same token (the later ones take the new token)', async () => {
      const { provider, tokenRequests } = await harness([stored('a')]);
      const first = await provider.accessTokenFor([TASKS], { forceRefresh: true, rejected: 'access-a' });
      assert.match(first, /^fresh-/);
      // A request that was sent with the old token hears its 401 after the refresh.
      assert.equal(await provider.accessTokenFor([TASKS], { forceRefresh: true, rejected: 'access-a' }), first);
      assert.equal(tokenRequests.length, 1);
      // A 401 for the new token itself refreshes again.
      assert.notEqual(await provider.accessTokenFor([TASKS], { forceRefresh: true, rejected: first }), first);
      assert.equal(tokenRequests.length, 2);
    });

    it('asks per backend: a token of one emulator is never sent to Google', async () => {
      let endpoints: ServiceEndpoints = EMULATOR;
      const { provider } = await harness([stored('a')], undefined, () => endpoints);
      assert.equal(await provider.accessTokenFor([TASKS]), 'access-a');
      endpoints = GOOGLE_ENDPOINTS;
      await assert.rejects(provider.accessTokenFor([TASKS]), NotSignedInError);
    });

    it('answers only for sessions that cover the asked scopes', async () => {
      const { provider } = await harness([stored('a', { scopes: ['email', 'openid', 'profile'] })]);
      await assert.rejects(provider.accessTokenFor([TASKS]), NotSignedInError);
      assert.equal(await provider.accessTokenFor(['email']), 'access-a');
    });
  });

  describe('createTokenSource', () => {
    it('asks VS Code silently for the session and returns its token, refreshed when forced', async () => {
      const { provider, tokenRequests } = await harness([stored('a')]);
      const asked: { providerId: string; scopes: readonly string[] }[] = [];
      const vs = fakeVscode({
        getSession: async (providerId, scopes) => {
          asked.push({ providerId, scopes });
          return (await provider.getSessions(scopes))[0];
        },
      });
      const tokenSource = createTokenSource(provider, [TASKS], vs);
      assert.equal(await tokenSource({ forceRefresh: false }), 'access-a');
      assert.match(await tokenSource({ forceRefresh: true }), /^fresh-/);
      assert.equal(tokenRequests.length, 1);
      assert.deepEqual(asked[0], { providerId: 'desk-google', scopes: [TASKS] });
    });

    it('says "Not signed in" when there is no session', async () => {
      const { provider } = await harness([]);
      const tokenSource = createTokenSource(provider, [TASKS], fakeVscode({ getSession: async () => undefined }));
      await assert.rejects(tokenSource({ forceRefresh: false }), (error: unknown) => error instanceof NotSignedInError && /Not signed in/.test(error.message));
    });
  });
});
