import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { AuthorizationDeniedError } from '../../../src/auth/loopbackServer';
import { OAuthClient } from '../../../src/auth/oauthClient';
import { createTokenSource, DeskAuthenticationProvider, DeskAuthenticationProviderOptions, SessionExpiredError } from '../../../src/auth/provider';
import { SESSIONS_SECRET_KEY } from '../../../src/auth/sessionStore';
import { HttpClient } from '../../../src/api/http';
import { attempt } from '../../../src/core/commands';
import { EMULATOR_CLIENT_ID, emulatorEndpoints } from '../../../src/config/endpoints';
import { SCOPES } from '../../../src/config/scopes';
import { RunningEmulator, startEmulator } from '../../../src/emulator/emulator';
import { consentBrowser, ConsentResult } from '../../support/consentBrowser';
import { FakeSecretStorage, fakeUri, FakeUri, fakeVscode, FakeVscodeOptions } from '../../support/fakeVscode';
import * as z from '../../../src/shared/schemas/zod';

const TASKS = [...SCOPES.tasks];

type SessionsChange = vscode.AuthenticationProviderAuthenticationSessionsChangeEvent;

describe('DeskAuthenticationProvider against the emulator (fake vscode)', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());

  function makeProvider(
    secrets: FakeSecretStorage,
    account: string,
    overrides: Partial<DeskAuthenticationProviderOptions> = {},
    vsOptions: FakeVscodeOptions = {},
  ): { provider: DeskAuthenticationProvider; events: SessionsChange[]; consents: (ConsentResult | Error)[]; urls: string[] } {
    const consents: (ConsentResult | Error)[] = [];
    const urls: string[] = [];
    const browser = consentBrowser(account, (result) => consents.push(result));
    const provider = new DeskAuthenticationProvider(fakeVscode(vsOptions), secrets, {
      endpoints: () => emulatorEndpoints(emulator.url),
      clientId: async () => ({ clientId: EMULATOR_CLIENT_ID }),
      openUrl: async (url) => {
        urls.push(url);
        return browser(url);
      },
      signInTimeoutMs: 5000,
      ...overrides,
    });
    const events: SessionsChange[] = [];
    provider.onDidChangeSessions((event) => events.push(event));
    return { provider, events, consents, urls };
  }

  async function apiStatus(accessToken: string): Promise<number> {
    const response = await fetch(`${emulator.url}/tasks/v1/users/@me/lists`, { headers: { Authorization: `Bearer ${accessToken}` } });
    await response.arrayBuffer();
    return response.status;
  }

  function storedRefreshTokens(secrets: FakeSecretStorage): string[] {
    const value = secrets.values.get(SESSIONS_SECRET_KEY) ?? '{"backends":{}}';
    const parsed = z.object({ backends: z.record(z.string(), z.array(z.object({ refreshToken: z.string() }))) }).parse(JSON.parse(value));
    return Object.values(parsed.backends).flat().map((session) => session.refreshToken);
  }

  it('signs in with the browser flow, lists the session, and its token works against the API', async () => {
    const secrets = new FakeSecretStorage();
    const { provider, events, urls } = makeProvider(secrets, 'alice@example.com');
    const session = await provider.createSession(TASKS);
    assert.equal(session.account.label, 'alice@example.com');
    assert.equal(session.account.id, '100000000000000000001');
    assert.deepEqual([...session.scopes].sort(), ['email', 'openid', 'profile', ...TASKS].sort());
    assert.equal(await apiStatus(session.accessToken), 200);
    assert.deepEqual(events.map((event) => event.added?.map((added) => added.id)), [[session.id]]);

    const authorization = new URL(urls[0] ?? '');
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorization.searchParams.get('access_type'), 'offline');
    assert.match(authorization.searchParams.get('prompt') ?? '', /consent/);
    assert.match(authorization.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.doesNotMatch(urls[0] ?? '', /\+/, 'spaces are %20, which survives vscode.Uri re-encoding');

    assert.deepEqual((await provider.getSessions(TASKS)).map((found) => found.id), [session.id]);
    assert.deepEqual(await provider.getSessions(['https://www.googleapis.com/auth/drive']), []);
    // The refresh token lives in SecretStorage only, never in what VS Code sees.
    assert.equal(storedRefreshTokens(secrets).length, 1);
    assert.ok(!JSON.stringify(session).includes(storedRefreshTokens(secrets)[0] ?? 'none'));
    provider.dispose();
  });

  it('holds several accounts at once', async () => {
    const secrets = new FakeSecretStorage();
    const alice = makeProvider(secrets, 'alice@example.com');
    await alice.provider.createSession(TASKS);
    alice.provider.dispose();
    const bob = makeProvider(secrets, 'bob@example.com');
    await bob.provider.createSession(TASKS);
    const labels = (await bob.provider.getSessions(TASKS)).map((session) => session.account.label).sort();
    assert.deepEqual(labels, ['alice@example.com', 'bob@example.com']);
    const onlyBob = await bob.provider.getSessions(TASKS, { account: { id: '100000000000000000002', label: 'bob@example.com' } });
    assert.deepEqual(onlyBob.map((session) => session.account.label), ['bob@example.com']);
    bob.provider.dispose();
  });

  it('refreshes silently near expiry, and the token source feeds the HTTP client', async () => {
    const secrets = new FakeSecretStorage();
    let skewMs = 0;
    const { provider } = makeProvider(secrets, 'carol@example.com', { now: () => Date.now() + skewMs });
    const session = await provider.createSession(TASKS);
    assert.equal(await provider.getAccessToken(session.id), session.accessToken);
    skewMs = 56 * 60 * 1000; // four minutes before the hour is up
    const refreshed = await provider.getAccessToken(session.id);
    assert.notEqual(refreshed, session.accessToken);
    assert.equal(await apiStatus(refreshed), 200);

    const vs = fakeVscode({ getSession: async (_id, scopes) => (await provider.getSessions(scopes))[0] });
    const http = new HttpClient({ rootUrl: () => emulator.url, token: createTokenSource(provider, TASKS, vs) });
    const lists = await http.json(z.object({ kind: z.string() }), { method: 'GET', path: '/tasks/v1/users/@me/lists', operation: 'tasklists.list' });
    assert.equal(lists.kind, 'tasks#taskLists');
    provider.dispose();
  });

  it('signs out by revoking the refresh token, and tells the other window', async () => {
    const secrets = new FakeSecretStorage();
    const first = makeProvider(secrets, 'alice@example.com');
    const second = makeProvider(secrets, 'alice@example.com');
    const secondSawSignIn = new Promise<SessionsChange>((resolve) => second.provider.onDidChangeSessions(resolve));
    const session = await first.provider.createSession(TASKS);
    assert.deepEqual((await secondSawSignIn).added?.map((added) => added.id), [session.id]);

    const refreshToken = storedRefreshTokens(secrets).at(0);
    const secondSawSignOut = new Promise<SessionsChange>((resolve) => second.provider.onDidChangeSessions(resolve));
    await first.provider.removeSession(session.id);
    assert.deepEqual((await secondSawSignOut).removed?.map((removed) => removed.id), [session.id]);
    assert.deepEqual(await second.provider.getSessions(undefined), []);
    assert.equal(secrets.values.has(SESSIONS_SECRET_KEY), false);
    const client = new OAuthClient({ endpoints: emulatorEndpoints(emulator.url).oauth, clientId: EMULATOR_CLIENT_ID });
    await assert.rejects(client.refresh(refreshToken ?? ''), /expired or revoked/);
    assert.equal(await apiStatus(session.accessToken), 401);
    first.provider.dispose();
    second.provider.dispose();
  });

  it('forgets a session revoked elsewhere at the next forced refresh', async () => {
    const secrets = new FakeSecretStorage();
    const { provider, events } = makeProvider(secrets, 'bob@example.com');
    const session = await provider.createSession(TASKS);
    const client = new OAuthClient({ endpoints: emulatorEndpoints(emulator.url).oauth, clientId: EMULATOR_CLIENT_ID });
    await client.revoke(storedRefreshTokens(secrets)[0] ?? '');
    await assert.rejects(provider.getAccessToken(session.id, { forceRefresh: true }), SessionExpiredError);
    assert.deepEqual(events.at(-1)?.removed?.map((removed) => removed.id), [session.id]);
    assert.deepEqual(await provider.getSessions(undefined), []);
    provider.dispose();
  });

  it('reports Cancel in the browser and stores nothing', async () => {
    const secrets = new FakeSecretStorage();
    const { provider } = makeProvider(secrets, 'cancel');
    await assert.rejects(provider.createSession(TASKS), AuthorizationDeniedError);
    assert.equal(secrets.values.size, 0);
    provider.dispose();
  });

  it('lets a test swap the browser after construction (extension-host tests)', async () => {
    const secrets = new FakeSecretStorage();
    const { provider } = makeProvider(secrets, 'cancel');
    provider.setUrlOpener(consentBrowser('carol@example.com'));
    assert.equal((await provider.createSession(TASKS)).account.label, 'carol@example.com');
    provider.dispose();
  });

  it('stops waiting when the user cancels the progress notification', async () => {
    const secrets = new FakeSecretStorage();
    let cancel!: () => void;
    const cancelled = new Promise<void>((resolve) => { cancel = resolve; });
    const { provider } = makeProvider(secrets, 'alice@example.com', { openUrl: async () => { cancel(); return true; } }, { cancelWhen: cancelled });
    await assert.rejects(provider.createSession(TASKS), /cancelled/);
    assert.equal(secrets.values.size, 0);
    provider.dispose();
  });

  it('takes "no" to VS Code\'s open-external question as a cancel, which Desk\'s commands do not report', async () => {
    const secrets = new FakeSecretStorage();
    const { provider } = makeProvider(secrets, 'alice@example.com', { openUrl: async () => false });
    const reported: unknown[] = [];
    const result = await attempt({ showError: async (error) => void reported.push(error) }, () => provider.createSession(TASKS));
    assert.equal(result, undefined);
    assert.deepEqual(reported, [], 'no "Could not open the browser for sign-in."');
    assert.equal(secrets.values.size, 0);
    provider.dispose();
  });

  it('keeps the loopback redirect when asExternalUri answers a non-loopback address', async () => {
    const proxied = (uri: FakeUri): FakeUri => fakeUri(`https://workbench.example.com/proxy/${uri.authority.split(':')[1] ?? ''}/callback`);
    const secrets = new FakeSecretStorage();
    const { provider, urls } = makeProvider(secrets, 'alice@example.com', {}, { asExternalUri: proxied });
    await provider.createSession(TASKS);
    assert.match(new URL(urls[0] ?? '').searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    provider.dispose();
  });

  it('uses a forwarded loopback address from asExternalUri (remote extension host)', async () => {
    // Play VS Code's port forwarding: localhost:<other port> reaches the same loopback server.
    const net = await import('node:net');
    const forwarders: import('node:net').Server[] = [];
    const forward = async (uri: FakeUri): Promise<FakeUri> => {
      const target = Number(uri.authority.split(':')[1]);
      const server = net.createServer((socket) => {
        const upstream = net.connect(target, '127.0.0.1');
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      forwarders.push(server);
      await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
      const address = server.address();
      assert.ok(address && typeof address === 'object');
      return fakeUri(`http://localhost:${address.port}${uri.path}`);
    };
    const secrets = new FakeSecretStorage();
    const { provider, urls } = makeProvider(secrets, 'alice@example.com', {}, { asExternalUri: forward });
    try {
      const session = await provider.createSession(TASKS);
      assert.equal(session.account.label, 'alice@example.com');
      assert.match(new URL(urls[0] ?? '').searchParams.get('redirect_uri') ?? '', /^http:\/\/localhost:\d+\/callback$/);
    } finally {
      provider.dispose();
      for (const server of forwarders) server.close();
    }
  });
});
