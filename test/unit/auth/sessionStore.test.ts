import * as assert from 'node:assert/strict';
import { emulatorEndpoints, GOOGLE_ENDPOINTS } from '../../../src/config/endpoints';
import { backendKey, SESSIONS_SECRET_KEY, SessionStore, StoredSession } from '../../../src/auth/sessionStore';
import { FakeSecretStorage } from '../../support/fakeVscode';

function session(id: string, overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    id,
    accountId: `sub-${id}`,
    label: `${id}@example.com`,
    scopes: ['email', 'openid', 'profile'],
    refreshToken: `refresh-${id}`,
    accessToken: `access-${id}`,
    expiresAt: 1_000_000,
    ...overrides,
  };
}

describe('auth/sessionStore', () => {
  it('round-trips sessions through one SecretStorage value', async () => {
    const secrets = new FakeSecretStorage();
    const store = new SessionStore(secrets);
    await store.put('google', session('a'));
    await store.put('google', session('b', { name: 'Bee' }));
    assert.deepEqual(await new SessionStore(secrets).list('google'), [session('a'), session('b', { name: 'Bee' })]);
    assert.deepEqual([...secrets.values.keys()], [SESSIONS_SECRET_KEY]);
  });

  it('keeps backends apart: Google, and each emulator by its origin', async () => {
    const store = new SessionStore(new FakeSecretStorage());
    const google = backendKey(GOOGLE_ENDPOINTS);
    const emulatorA = backendKey(emulatorEndpoints('http://127.0.0.1:8089/'));
    const emulatorB = backendKey(emulatorEndpoints('http://127.0.0.1:9000'));
    assert.equal(google, 'google');
    assert.equal(emulatorA, 'emulator:http://127.0.0.1:8089');
    assert.notEqual(emulatorA, emulatorB);
    await store.put(google, session('g'));
    await store.put(emulatorA, session('e'));
    assert.deepEqual((await store.list(google)).map((s) => s.id), ['g']);
    assert.deepEqual((await store.list(emulatorA)).map((s) => s.id), ['e']);
    assert.deepEqual(await store.list(emulatorB), []);
  });

  it('replaces a session with the same id, patches in place and removes', async () => {
    const secrets = new FakeSecretStorage();
    const store = new SessionStore(secrets);
    await store.put('google', session('a'));
    await store.put('google', session('a', { label: 'renamed@example.com' }));
    assert.deepEqual((await store.list('google')).map((s) => s.label), ['renamed@example.com']);
    assert.equal(await store.patch('google', 'a', { accessToken: 'new-access', expiresAt: 2 }), true);
    assert.equal((await store.get('google', 'a'))?.accessToken, 'new-access');
    assert.equal(await store.patch('google', 'missing', { accessToken: 'x' }), false);
    assert.equal((await store.remove('google', 'a'))?.id, 'a');
    assert.equal(await store.remove('google', 'a'), undefined);
    assert.equal(secrets.values.has(SESSIONS_SECRET_KEY), false, 'the last sign-out leaves nothing behind');
  });

  it('loses no update when writes overlap', async () => {
    const store = new SessionStore(new FakeSecretStorage());
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => store.put('google', session(id))));
    assert.deepEqual((await store.list('google')).map((s) => s.id).sort(), ['a', 'b', 'c', 'd']);
  });

  it('survives a damaged value: unreadable JSON reads as signed out, a bad session is dropped alone', async () => {
    const secrets = new FakeSecretStorage();
    const store = new SessionStore(secrets);
    await secrets.store(SESSIONS_SECRET_KEY, '{"version":1,"backends":');
    assert.deepEqual(await store.list('google'), []);
    await store.put('google', session('a'));
    assert.deepEqual((await store.list('google')).map((s) => s.id), ['a']);

    await secrets.store(SESSIONS_SECRET_KEY, JSON.stringify({ version: 1, backends: { google: [session('a'), { id: 'broken' }] } }));
    assert.deepEqual((await store.list('google')).map((s) => s.id), ['a']);
    await secrets.store(SESSIONS_SECRET_KEY, JSON.stringify({ version: 2, sessions: [] }));
    assert.deepEqual(await store.list('google'), []);
  });
});
