import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizationDeniedError, LoopbackServer } from '../../../src/auth/loopbackServer';
import { OAuthClient, OAuthError, TokenResponse } from '../../../src/auth/oauthClient';
import { createPkcePair, createState } from '../../../src/auth/pkce';
import { EMULATOR_CLIENT_ID, emulatorEndpoints } from '../../../src/config/endpoints';
import { SCOPES } from '../../../src/config/scopes';
import { RunningEmulator, startEmulator } from '../../../src/emulator/emulator';
import { completeConsent, ConsentPageError } from '../../support/consentBrowser';

const WANTED = [...SCOPES.identity, ...SCOPES.tasks];

interface SignedIn {
  tokens: TokenResponse;
  client: OAuthClient;
}

function clientFor(emulator: RunningEmulator, clientId = EMULATOR_CLIENT_ID): OAuthClient {
  return new OAuthClient({ endpoints: emulatorEndpoints(emulator.url).oauth, clientId });
}

/** The whole installed-app flow, as the provider runs it, with the consent browser in place of a person. */
async function signIn(emulator: RunningEmulator, account: string): Promise<SignedIn> {
  const client = clientFor(emulator);
  const pkce = createPkcePair();
  const state = createState();
  const loopback = await LoopbackServer.start({ expectedState: state });
  try {
    const url = client.buildAuthorizationUrl({ redirectUri: loopback.redirectUri, scopes: WANTED, state, codeChallenge: pkce.challenge, prompt: 'consent' });
    const consent = await completeConsent(url, account);
    assert.equal(consent.callbackStatus, 200);
    assert.match(consent.callbackBody ?? '', /You can close this tab/);
    const code = await loopback.waitForCode();
    return { tokens: await client.exchangeCode(code, loopback.redirectUri, pkce.verifier), client };
  } finally {
    await loopback.close();
  }
}

/** An authorization code obtained without a loopback server (the test plays the app's callback). */
async function codeFor(emulator: RunningEmulator, account: string, parameters: Record<string, string>): Promise<{ code: string; redirect: URL }> {
  const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
  const all: Record<string, string> = { client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/callback', response_type: 'code', scope: WANTED.join(' '), ...parameters };
  for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
  const { redirect } = await completeConsent(url.toString(), account, { followRedirect: false });
  const location = new URL(redirect);
  return { code: location.searchParams.get('code') ?? '', redirect: location };
}

async function postToken(emulator: RunningEmulator, fields: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${emulator.url}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function apiStatus(emulator: RunningEmulator, accessToken: string): Promise<number> {
  const response = await fetch(`${emulator.url}/tasks/v1/users/@me/lists`, { headers: { Authorization: `Bearer ${accessToken}` } });
  await response.arrayBuffer();
  return response.status;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('expected a rejection');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('OAuth installed-app flow against the emulator', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());

  it('signs in through consent, loopback and PKCE, then calls the API and reads the profile', async () => {
    const { tokens, client } = await signIn(emulator, 'bob@example.com');
    assert.equal(tokens.token_type, 'Bearer');
    assert.ok(tokens.refresh_token, 'offline access gives a refresh token');
    assert.ok(tokens.id_token, 'openid gives an id token');
    assert.deepEqual(tokens.scope?.split(' ').sort(), [...WANTED].sort());
    const profile = await client.userinfo(tokens.access_token);
    assert.equal(profile.email, 'bob@example.com');
    assert.equal(profile.email_verified, true);
    assert.equal(profile.name, 'Bob Demo');
    assert.equal(profile.sub, '100000000000000000002');
    assert.equal(await apiStatus(emulator, tokens.access_token), 200);
  });

  it('answers the three userinfo paths in their own shapes, and only with the scopes granted', async () => {
    const { tokens } = await signIn(emulator, 'carol@example.com');
    const read = async (path: string): Promise<Record<string, unknown>> =>
      (await (await fetch(`${emulator.url}${path}`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })).json()) as Record<string, unknown>;
    assert.equal((await read('/oauth2/v3/userinfo'))['email'], 'carol@example.com');
    const legacy = await read('/oauth2/v2/userinfo');
    assert.equal(legacy['id'], '100000000000000000003');
    assert.equal(legacy['verified_email'], true);

    const { code } = await codeFor(emulator, 'carol@example.com', { scope: 'openid https://www.googleapis.com/auth/tasks' });
    const narrow = await postToken(emulator, { grant_type: 'authorization_code', code, client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/callback' });
    const info = (await (await fetch(`${emulator.url}/v1/userinfo`, { headers: { Authorization: `Bearer ${String(narrow.json['access_token'])}` } })).json()) as Record<string, unknown>;
    assert.deepEqual(info, { sub: '100000000000000000003' });
    const anonymous = await fetch(`${emulator.url}/v1/userinfo`);
    assert.equal(anonymous.status, 401);
  });

  it('ignores a callback with the wrong state, and still completes the real one', async () => {
    const state = createState();
    const loopback = await LoopbackServer.start({ expectedState: state });
    try {
      const forged = await fetch(`${loopback.redirectUri}?code=forged&state=not-ours`);
      assert.equal(forged.status, 400);
      assert.match(await forged.text(), /does not belong to the sign-in in progress/);
      const missingState = await fetch(`${loopback.redirectUri}?code=forged`);
      assert.equal(missingState.status, 400);
      const elsewhere = await fetch(loopback.redirectUri.replace('/callback', '/other'));
      assert.equal(elsewhere.status, 404);
      const real = await fetch(`${loopback.redirectUri}?code=real-code&state=${state}`);
      assert.equal(real.status, 200);
      assert.equal(await loopback.waitForCode(), 'real-code');
    } finally {
      await loopback.close();
    }
  });

  it('reports Cancel on the consent page as access_denied, with the state echoed', async () => {
    const client = clientFor(emulator);
    const state = createState();
    const loopback = await LoopbackServer.start({ expectedState: state });
    try {
      const url = client.buildAuthorizationUrl({ redirectUri: loopback.redirectUri, scopes: WANTED, state, codeChallenge: createPkcePair().challenge });
      const consent = await completeConsent(url, 'cancel');
      const redirect = new URL(consent.redirect);
      assert.equal(redirect.searchParams.get('error'), 'access_denied');
      assert.equal(redirect.searchParams.get('state'), state);
      assert.equal(redirect.searchParams.get('code'), null);
      const error = await rejection(loopback.waitForCode());
      assert.ok(error instanceof AuthorizationDeniedError);
      assert.match(error.message, /cancelled/);
    } finally {
      await loopback.close();
    }
  });

  it('times out and can be cancelled while waiting for the browser', async () => {
    const timedOut = await LoopbackServer.start({ expectedState: 's', timeoutMs: 20 });
    assert.match((await rejection(timedOut.waitForCode())).message, /timed out/);
    await timedOut.close();
    const abort = new AbortController();
    const cancelled = await LoopbackServer.start({ expectedState: 's', signal: abort.signal });
    abort.abort();
    assert.match((await rejection(cancelled.waitForCode())).message, /cancelled/);
    await cancelled.close();
  });

  it('refuses a wrong or missing code_verifier with invalid_grant, and burns the code', async () => {
    const pkce = createPkcePair();
    const { code } = await codeFor(emulator, 'alice@example.com', { code_challenge: pkce.challenge, code_challenge_method: 'S256', access_type: 'offline' });
    const client = clientFor(emulator);
    const wrong = await rejection(client.exchangeCode(code, 'http://127.0.0.1:1/callback', createPkcePair().verifier));
    assert.ok(wrong instanceof OAuthError);
    assert.equal(wrong.code, 'invalid_grant');
    assert.match(wrong.message, /Invalid code verifier/);
    const afterwards = await rejection(client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier));
    assert.ok(afterwards instanceof OAuthError && afterwards.isInvalidGrant);

    const second = await codeFor(emulator, 'alice@example.com', { code_challenge: pkce.challenge, code_challenge_method: 'S256' });
    const missing = await postToken(emulator, { grant_type: 'authorization_code', code: second.code, client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/callback' });
    assert.deepEqual(missing, { status: 400, json: { error: 'invalid_grant', error_description: 'Missing code verifier.' } });
  });

  it('refuses a code twice, revoking what the first redemption issued', async () => {
    const pkce = createPkcePair();
    const { code } = await codeFor(emulator, 'alice@example.com', { code_challenge: pkce.challenge, code_challenge_method: 'S256', access_type: 'offline', prompt: 'consent' });
    const client = clientFor(emulator);
    const first = await client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier);
    assert.ok(first.refresh_token);
    const replay = await rejection(client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier));
    assert.ok(replay instanceof OAuthError && replay.isInvalidGrant);
    const refresh = await rejection(client.refresh(first.refresh_token));
    assert.ok(refresh instanceof OAuthError && refresh.isInvalidGrant);
  });

  it('binds a code to its client and redirect URI', async () => {
    const { code } = await codeFor(emulator, 'alice@example.com', {});
    const otherClient = await postToken(emulator, { grant_type: 'authorization_code', code, client_id: 'someone-else', redirect_uri: 'http://127.0.0.1:1/callback' });
    assert.equal(otherClient.status, 400);
    assert.equal(otherClient.json['error'], 'invalid_grant');
    const again = await codeFor(emulator, 'alice@example.com', {});
    const otherRedirect = await postToken(emulator, { grant_type: 'authorization_code', code: again.code, client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:2/callback' });
    assert.equal(otherRedirect.json['error'], 'redirect_uri_mismatch');
  });

  it('accepts loopback redirect URIs only, with an error page like Google', async () => {
    const authorize = async (redirectUri: string): Promise<Response> => {
      const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
      url.search = new URLSearchParams({ client_id: EMULATOR_CLIENT_ID, redirect_uri: redirectUri, response_type: 'code', scope: 'openid' }).toString();
      return fetch(url, { redirect: 'manual' });
    };
    for (const rejected of ['https://example.com/callback', 'https://127.0.0.1:5000/callback', 'http://192.168.1.5:80/', 'http://127.0.0.1.example.com/', 'urn:ietf:wg:oauth:2.0:oob', 'not a url']) {
      const response = await authorize(rejected);
      assert.equal(response.status, 400, rejected);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await response.text(), /redirect_uri_mismatch/);
    }
    for (const accepted of ['http://127.0.0.1:43123/callback', 'http://localhost:43123/', 'http://[::1]:43123/cb']) {
      const response = await authorize(accepted);
      assert.equal(response.status, 200, accepted);
      await response.text();
    }
  });

  it('validates the other authorization parameters', async () => {
    const authorize = async (overrides: Record<string, string | undefined>): Promise<Response> => {
      const parameters: Record<string, string | undefined> = { client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid', ...overrides };
      const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
      for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
      return fetch(url, { redirect: 'manual' });
    };
    const expectPage = async (overrides: Record<string, string | undefined>, error: RegExp): Promise<void> => {
      const response = await authorize(overrides);
      assert.equal(response.status, 400);
      assert.match(await response.text(), error);
    };
    await expectPage({ client_id: undefined }, /Missing required parameter: client_id/);
    await expectPage({ scope: undefined }, /Missing required parameter: scope/);
    await expectPage({ scope: 'openid https://evil.example/scope' }, /invalid_scope/);
    await expectPage({ code_challenge_method: 'S512', code_challenge: 'a'.repeat(43) }, /Invalid code_challenge_method/);
    await expectPage({ code_challenge: 'short', code_challenge_method: 'S256' }, /Invalid code_challenge/);
    await expectPage({ access_type: 'forever' }, /Invalid access_type/);
    const unsupported = await authorize({ response_type: 'token', state: 'xyz' });
    assert.equal(unsupported.status, 302);
    const location = new URL(unsupported.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('error'), 'unsupported_response_type');
    assert.equal(location.searchParams.get('state'), 'xyz');
  });

  it('escapes everything it puts in the consent page', async () => {
    const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
    url.search = new URLSearchParams({ client_id: '<script>alert(1)</script>"', redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid' }).toString();
    const page = await (await fetch(url)).text();
    assert.doesNotMatch(page, /<script>/);
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;/);
  });

  it('preselects the account named by login_hint', async () => {
    const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
    url.search = new URLSearchParams({ client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid', login_hint: 'carol@example.com' }).toString();
    const page = await (await fetch(url)).text();
    assert.match(page, /value="carol@example\.com" autofocus/);
    assert.ok(page.indexOf('carol@example.com') < page.indexOf('alice@example.com'), 'the hinted account comes first');
  });

  it('does not accept a consent page twice', async () => {
    const url = new URL(`${emulator.url}/o/oauth2/v2/auth`);
    url.search = new URLSearchParams({ client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid' }).toString();
    const page = await (await fetch(url)).text();
    const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const submit = (): Promise<Response> =>
      fetch(`${emulator.url}/o/oauth2/v2/auth/approve`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request: requestId, account: 'alice@example.com' }).toString(),
      });
    assert.equal((await submit()).status, 302);
    const second = await submit();
    assert.equal(second.status, 400);
    assert.match(await second.text(), /expired or was already used/);
    const forged = await fetch(`${emulator.url}/o/oauth2/v2/auth/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: 'made-up', account: 'alice@example.com' }).toString(),
    });
    assert.equal(forged.status, 400);
  });

  it('gives a refresh token for offline access only, and again only with prompt=consent', async () => {
    // A fresh client id, so no earlier grant of this test file interferes.
    const clientId = 'grant-test.apps.emulator';
    const redeem = async (parameters: Record<string, string>): Promise<Record<string, unknown>> => {
      const { code } = await codeFor(emulator, 'bob@example.com', { client_id: clientId, ...parameters });
      const answer = await postToken(emulator, { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: 'http://127.0.0.1:1/callback' });
      assert.equal(answer.status, 200);
      return answer.json;
    };
    assert.equal((await redeem({}))['refresh_token'], undefined, 'access_type defaults to online');
    assert.equal((await redeem({ access_type: 'offline' }))['refresh_token'], undefined, 'an earlier consent means no new refresh token');
    const consented = await redeem({ access_type: 'offline', prompt: 'consent' });
    assert.equal(typeof consented['refresh_token'], 'string');
  });

  it('enforces the scopes a token was granted, with Google\'s 403 insufficientPermissions', async () => {
    const clientId = 'scope-test.apps.emulator';
    const tokenWith = async (scope: string): Promise<string> => {
      const { code } = await codeFor(emulator, 'alice@example.com', { client_id: clientId, scope, prompt: 'consent' });
      const answer = await postToken(emulator, { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: 'http://127.0.0.1:1/callback' });
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      return String(answer.json['access_token']);
    };
    const status = async (token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
      const response = await fetch(`${emulator.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    const identityOnly = await tokenWith('openid email');
    const denied = await status(identityOnly, 'GET', '/drive/v2/files');
    assert.equal(denied.status, 403);
    const error = denied.json['error'] as { errors: Array<{ reason: string }>; status: string; details: Array<{ reason: string }> };
    assert.equal(error.errors[0]?.reason, 'insufficientPermissions');
    assert.equal(error.status, 'PERMISSION_DENIED');
    assert.equal(error.details[0]?.reason, 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    assert.equal((await status(identityOnly, 'POST', '/tasks/v1/users/@me/lists', { title: 'nope' })).status, 403);
    assert.equal((await status(identityOnly, 'GET', '/v1/userinfo')).status, 200, 'userinfo needs only the identity scopes');

    const tasksOnly = await tokenWith('https://www.googleapis.com/auth/tasks');
    assert.equal((await status(tasksOnly, 'GET', '/tasks/v1/users/@me/lists')).status, 200);
    assert.equal((await status(tasksOnly, 'GET', '/drive/v2/files/root?alt=media')).status, 403, 'a Tasks token cannot read Drive content');

    const tasksReadonly = await tokenWith('https://www.googleapis.com/auth/tasks.readonly');
    assert.equal((await status(tasksReadonly, 'GET', '/tasks/v1/users/@me/lists')).status, 200);
    assert.equal((await status(tasksReadonly, 'POST', '/tasks/v1/users/@me/lists', { title: 'nope' })).status, 403);

    const metadataOnly = await tokenWith('https://www.googleapis.com/auth/drive.metadata.readonly');
    const file = await status(await tokenWith('https://www.googleapis.com/auth/drive'), 'POST', '/drive/v2/files', { title: 'scoped.txt', mimeType: 'text/plain' });
    const fileId = String(file.json['id']);
    assert.equal((await status(metadataOnly, 'GET', `/drive/v2/files/${fileId}`)).status, 200);
    assert.equal((await status(metadataOnly, 'GET', `/drive/v2/files/${fileId}?alt=media`)).status, 403, 'metadata scopes do not reach content');
    assert.equal((await status(metadataOnly, 'PATCH', `/drive/v2/files/${fileId}`, { title: 'renamed' })).status, 403);
  });

  it('answers prompt=none silently for an account that already consented', async () => {
    const clientId = 'silent-test.apps.emulator';
    const none = await codeFor(emulator, 'alice@example.com', { client_id: clientId, prompt: 'none', login_hint: 'alice@example.com', state: 's1' });
    assert.equal(none.redirect.searchParams.get('error'), 'interaction_required');
    assert.equal(none.redirect.searchParams.get('state'), 's1');
    await codeFor(emulator, 'alice@example.com', { client_id: clientId });
    const silent = await codeFor(emulator, 'unused', { client_id: clientId, prompt: 'none', login_hint: 'alice@example.com' });
    assert.ok(silent.code.length > 10);
    const noHint = await codeFor(emulator, 'unused', { client_id: clientId, prompt: 'none' });
    assert.equal(noHint.redirect.searchParams.get('error'), 'login_required');
  });

  it('speaks OAuth errors at the token endpoint, accepts JSON bodies and Basic client authentication', async () => {
    assert.deepEqual(await postToken(emulator, { grant_type: 'password', client_id: EMULATOR_CLIENT_ID }), {
      status: 400,
      json: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: password' },
    });
    assert.equal((await postToken(emulator, { client_id: EMULATOR_CLIENT_ID })).json['error'], 'invalid_request');
    assert.equal((await postToken(emulator, { grant_type: 'refresh_token', refresh_token: 'x' })).json['error'], 'invalid_request');
    assert.equal((await postToken(emulator, { grant_type: 'authorization_code', code: 'garbage', client_id: EMULATOR_CLIENT_ID })).json['error'], 'invalid_grant');

    const { tokens } = await signIn(emulator, 'alice@example.com');
    const json = await fetch(`${emulator.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: EMULATOR_CLIENT_ID }),
    });
    assert.equal(json.status, 200);
    const basic = await fetch(`${emulator.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${EMULATOR_CLIENT_ID}:secret`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '' }).toString(),
    });
    assert.equal(basic.status, 200);
    const otherClient = await postToken(emulator, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: 'another-app' });
    assert.equal(otherClient.json['error'], 'unauthorized_client');
    const malformed = await fetch(`${emulator.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from('%E0%A4%A:secret').toString('base64')}` },
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    assert.equal(malformed.status, 401);
    assert.equal(((await malformed.json()) as Record<string, unknown>)['error'], 'invalid_client');
    const notAnObject = await fetch(`${emulator.url}/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '[1,2]' });
    assert.equal(notAnObject.status, 400);
    assert.equal(((await notAnObject.json()) as Record<string, unknown>)['error'], 'invalid_request');
  });

  it('checks client_secret for a client registered with one (401 invalid_client), and needs none for installed apps without one', async () => {
    const registration = await fetch(`${emulator.url}/emulator/v1/clients`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: 'confidential.apps.emulator', client_secret: 'right-secret' }),
    });
    assert.equal(registration.status, 200);
    assert.deepEqual(await registration.json(), { client_id: 'confidential.apps.emulator', client_secret: 'right-secret' });
    const clientId = 'confidential.apps.emulator';
    const redirect_uri = 'http://127.0.0.1:1/callback';
    const { code } = await codeFor(emulator, 'alice@example.com', { client_id: clientId, access_type: 'offline' });
    const exchange = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri };
    assert.deepEqual(await postToken(emulator, exchange), { status: 401, json: { error: 'invalid_client', error_description: 'client_secret is missing.' } });
    assert.deepEqual(await postToken(emulator, { ...exchange, client_secret: 'wrong-secret' }), { status: 401, json: { error: 'invalid_client', error_description: 'Unauthorized' } });
    const basicWrong = await fetch(`${emulator.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${clientId}:nope`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri }).toString(),
    });
    assert.equal(basicWrong.status, 401);
    assert.equal(((await basicWrong.json()) as Record<string, unknown>)['error'], 'invalid_client');
    // The rejected attempts did not burn the code: the right secret still redeems it.
    const good = await postToken(emulator, { ...exchange, client_secret: 'right-secret' });
    assert.equal(good.status, 200, JSON.stringify(good.json));
    const refreshToken = String(good.json['refresh_token']);
    assert.equal((await postToken(emulator, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId })).status, 401);
    assert.equal((await postToken(emulator, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, client_secret: 'x' })).status, 401);
    const basicRight = await fetch(`${emulator.url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${clientId}:right-secret`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    });
    assert.equal(basicRight.status, 200);

    // The extension's client has no secret and needs none (the whole provider flow, as the extension runs it).
    const { tokens } = await signIn(emulator, 'bob@example.com');
    assert.ok(tokens.refresh_token);
    assert.equal((await postToken(emulator, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: EMULATOR_CLIENT_ID })).status, 200);
    // A generated registration gets Google-shaped credentials.
    const generated = (await (await fetch(`${emulator.url}/emulator/v1/clients`, { method: 'POST' })).json()) as Record<string, string>;
    assert.match(generated['client_id'] ?? '', /\.apps\.emulator$/);
    assert.match(generated['client_secret'] ?? '', /^GOCSPX-/);
  });

  it('revokes tokens; an unknown token is invalid_token', async () => {
    const unknown = await fetch(`${emulator.url}/revoke?token=never-issued`, { method: 'POST' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(await unknown.json(), { error: 'invalid_token', error_description: 'Token expired or revoked' });
    const missing = await fetch(`${emulator.url}/revoke`, { method: 'POST' });
    assert.equal(missing.status, 400);

    const { tokens, client } = await signIn(emulator, 'alice@example.com');
    const byQuery = await fetch(`${emulator.url}/revoke?token=${encodeURIComponent(tokens.access_token)}`, { method: 'POST' });
    assert.equal(byQuery.status, 200);
    assert.equal(await apiStatus(emulator, tokens.access_token), 401);
    // Revoking the access token ended the whole grant, refresh token included, as on Google.
    await assert.rejects(client.refresh(tokens.refresh_token ?? ''), (error: unknown) => error instanceof OAuthError && error.isInvalidGrant);
    const other = await signIn(emulator, 'bob@example.com');
    const byForm = await fetch(`${emulator.url}/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: other.tokens.refresh_token ?? '' }).toString() });
    assert.equal(byForm.status, 200);
    assert.equal(await apiStatus(emulator, other.tokens.access_token), 401);
    await client.revoke(tokens.refresh_token ?? '');
    // Revoking what is already revoked counts as done for the client (sign-out must not fail on it).
    await client.revoke(tokens.refresh_token ?? '');
  });

  it('answers malformed input with 4xx, never a 500', async () => {
    const long = 'x'.repeat(10_000);
    const requests: [string, RequestInit][] = [
      [`/o/oauth2/v2/auth?client_id=${long}&redirect_uri=${long}`, {}],
      ['/o/oauth2/v2/auth?client_id=a&redirect_uri=http://127.0.0.1:1/&response_type=code&scope=%E0%A4%A', {}],
      ['/o/oauth2/v2/auth?client_id=a&client_id=b&redirect_uri=http://[::1]:1/&response_type=code&scope=openid&prompt=none%20consent', {}],
      ['/o/oauth2/v2/auth/approve', { method: 'POST', body: 'request=%%%&account=' }],
      ['/o/oauth2/v2/auth/approve', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"request":' }],
      ['/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":' }],
      ['/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":{"nested":true}}' }],
      ['/token', { method: 'POST', body: `grant_type=${long}` }],
      ['/token', { method: 'POST', body: 'grant_type=authorization_code&client_id=a&code=%ZZ' }],
      ['/revoke', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'null' }],
      ['/v1/userinfo', { headers: { Authorization: 'Bearer' } }],
      ['/oauth2/v3/userinfo', { headers: { Authorization: 'Basic abc' } }],
    ];
    for (const [path, init] of requests) {
      const response = await fetch(`${emulator.url}${path}`, { redirect: 'manual', ...init });
      await response.arrayBuffer();
      assert.ok(response.status >= 300 && response.status < 500, `${path.slice(0, 80)} → ${response.status}`);
    }
  });

  it('never puts a token, code or verifier into an error message', async () => {
    const client = clientFor(emulator);
    const pkce = createPkcePair();
    const { code } = await codeFor(emulator, 'alice@example.com', { code_challenge: pkce.challenge, code_challenge_method: 'S256' });
    const secrets = [code, pkce.verifier, 'rt-that-does-not-exist-123456', 'ya29.not-a-real-access-token'];
    const errors = [
      await rejection(client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))),
      await rejection(client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier)),
      await rejection(client.refresh('rt-that-does-not-exist-123456')),
      await rejection(client.userinfo('ya29.not-a-real-access-token')),
      await rejection(new OAuthClient({ endpoints: emulatorEndpoints('http://127.0.0.1:1').oauth, clientId: 'x' }).refresh('rt-that-does-not-exist-123456')),
    ];
    for (const error of errors) {
      assert.ok(error instanceof OAuthError, error.message);
      for (const secret of secrets) assert.ok(!error.message.includes(secret), `leaked in: ${error.message}`);
      assert.ok(!(error.stack ?? '').includes(code));
    }
    const unreachable = errors[4];
    assert.ok(unreachable instanceof OAuthError);
    assert.equal(unreachable.code, 'network');
  });
});

describe('OAuth tokens over time and restarts', () => {
  it('expires the access token, refreshes it, and refuses the refresh token after revocation', async () => {
    const emulator = await startEmulator({ port: 0, accessTokenLifetimeSeconds: 1 });
    try {
      const { tokens, client } = await signIn(emulator, 'alice@example.com');
      assert.equal(tokens.expires_in, 1);
      assert.equal(await apiStatus(emulator, tokens.access_token), 200);
      await sleep(1100);
      assert.equal(await apiStatus(emulator, tokens.access_token), 401, 'the access token expired');
      const refreshed = await client.refresh(tokens.refresh_token ?? '');
      assert.notEqual(refreshed.access_token, tokens.access_token);
      assert.equal(refreshed.refresh_token, undefined, 'Google keeps the refresh token');
      assert.equal(await apiStatus(emulator, refreshed.access_token), 200);

      await client.revoke(tokens.refresh_token ?? '');
      assert.equal(await apiStatus(emulator, refreshed.access_token), 401, 'revocation ends the access tokens too');
      const error = await rejection(client.refresh(tokens.refresh_token ?? ''));
      assert.ok(error instanceof OAuthError && error.isInvalidGrant);
      assert.match(error.message, /expired or revoked/);
    } finally {
      await emulator.close();
    }
  });

  it('keeps consent pages, codes and refresh tokens across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'desk-oauth-'));
    try {
      let emulator = await startEmulator({ port: 0, dataDir });
      const pkce = createPkcePair();
      const { code } = await codeFor(emulator, 'alice@example.com', { code_challenge: pkce.challenge, code_challenge_method: 'S256', access_type: 'offline' });
      const pageUrl = new URL(`${emulator.url}/o/oauth2/v2/auth`);
      pageUrl.search = new URLSearchParams({ client_id: EMULATOR_CLIENT_ID, redirect_uri: 'http://127.0.0.1:1/callback', response_type: 'code', scope: 'openid' }).toString();
      const page = await (await fetch(pageUrl)).text();
      const requestId = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? '';
      await emulator.close();

      emulator = await startEmulator({ port: 0, dataDir });
      try {
        const client = clientFor(emulator);
        const tokens = await client.exchangeCode(code, 'http://127.0.0.1:1/callback', pkce.verifier);
        assert.ok(tokens.refresh_token);
        const approved = await fetch(`${emulator.url}/o/oauth2/v2/auth/approve`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ request: requestId, account: 'bob@example.com' }).toString(),
        });
        assert.equal(approved.status, 302);
        await emulator.close();
        emulator = await startEmulator({ port: 0, dataDir });
        const refreshed = await clientFor(emulator).refresh(tokens.refresh_token);
        assert.equal(await apiStatus(emulator, refreshed.access_token), 200);
      } finally {
        await emulator.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reports a consent page that refuses the request as an error the test can read', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const error = await rejection(completeConsent(`${emulator.url}/o/oauth2/v2/auth?client_id=x&redirect_uri=https://evil.example/&response_type=code&scope=openid`, 'alice@example.com'));
      assert.ok(error instanceof ConsentPageError);
      assert.equal(error.status, 400);
      assert.match(error.message, /redirect_uri_mismatch/);
    } finally {
      await emulator.close();
    }
  });
});
