import * as assert from 'node:assert/strict';
import * as z from '../../../src/shared/schemas/zod';
import { googleErrorBodySchema } from '../../../src/shared/schemas/errors';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { emulatorAdminModule } from '../../../src/emulator/auth/devToken';
import { ServiceModule } from '../../../src/emulator/core/server';
import { parseBody } from '../../../src/emulator/core/params';
import { emulatorHttp, HttpCallOptions } from '../../support/emulatorHttp';

/** A minimal service to exercise the core alone: echo a validated body, count, and fail on purpose. */
const probeModule: ServiceModule = {
  name: 'probe',
  register(router, deps) {
    const notes = deps.store.collection<{ text: string; owner: string }>('probe.notes');
    router.post('/probe/v1/notes', async (context) => {
      const body = parseBody(z.strictObject({ text: z.string().check(z.maxLength(10)) }), await context.json());
      const id = String(notes.size + 1);
      notes.set(id, { text: body.text, owner: context.user?.id ?? '' });
      return { json: { id, ...body } };
    });
    router.get('/probe/v1/notes', (context) => ({
      json: { items: [...notes.values()].filter((note) => note.owner === context.user?.id).map((note) => note.text) },
    }));
    router.get('/probe/v1/limit', (context) => ({ json: { n: context.query.integer('n', { min: 1, max: 5, default: 2 }) } }));
    router.get('/probe/v1/crash', () => {
      throw new Error('internal detail that must not leak');
    });
  },
};

describe('emulator core over HTTP', () => {
  let emulator: RunningEmulator;
  let token: string;
  before(async () => {
    emulator = await startEmulator({ port: 0 }, [emulatorAdminModule, probeModule]);
    const response = await fetch(`${emulator.url}/emulator/v1/token?user=bob@example.com`, { method: 'POST' });
    token = ((await response.json()) as { access_token: string }).access_token;
  });
  after(() => emulator.close());

  // Answers as { status, body, headers }: this suite reads the parsed body as `body`.
  const call = async (method: string, path: string, options: HttpCallOptions = {}) => {
    const answer = await emulatorHttp(emulator, () => token)(method, path, options);
    return { status: answer.status, body: answer.json, headers: answer.headers };
  };

  function errorOf(body: unknown) {
    return googleErrorBodySchema.parse(body).error;
  }

  it('answers an unknown route with a 404 in Google format', async () => {
    const { status, body } = await call('GET', '/nothing/v9/here');
    assert.equal(status, 404);
    assert.equal(errorOf(body).errors?.[0]?.reason, 'notFound');
    assert.equal(errorOf(body).status, 'NOT_FOUND');
  });

  it('needs a bearer token, and rejects a wrong one with authError', async () => {
    const missing = await call('GET', '/probe/v1/notes', { token: null });
    assert.equal(missing.status, 401);
    assert.equal(errorOf(missing.body).errors?.[0]?.reason, 'required');
    const wrong = await call('GET', '/probe/v1/notes', { token: 'not-a-token' });
    assert.equal(wrong.status, 401);
    assert.equal(errorOf(wrong.body).errors?.[0]?.reason, 'authError');
    assert.equal(errorOf(wrong.body).errors?.[0]?.location, 'Authorization');
    assert.match(wrong.headers.get('www-authenticate') ?? '', /Bearer/);
  });

  it('answers malformed JSON, wrong types, unknown fields and over-long values with 400, never 500', async () => {
    const bad = ['{"text":', '[1,2]', '{"text":5}', '{"text":"abcdefghijklmnop"}', '{"text":"ok","extra":1}', 'null', '"str"'];
    for (const body of bad) {
      const { status, body: answer } = await call('POST', '/probe/v1/notes', { body });
      assert.equal(status, 400, `body ${body}`);
      assert.ok(['parseError', 'invalid'].includes(errorOf(answer).errors?.[0]?.reason ?? ''), `reason for ${body}`);
    }
    const parse = await call('POST', '/probe/v1/notes', { body: '{"text":' });
    assert.equal(errorOf(parse.body).errors?.[0]?.reason, 'parseError');
  });

  it('validates integer parameters with the range in the message', async () => {
    assert.deepEqual((await call('GET', '/probe/v1/limit')).body, { n: 2 });
    const high = await call('GET', '/probe/v1/limit?n=9');
    assert.equal(high.status, 400);
    assert.equal(errorOf(high.body).errors?.[0]?.location, 'n');
    assert.match(errorOf(high.body).message, /\[1, 5\]/);
    assert.equal((await call('GET', '/probe/v1/limit?n=abc')).status, 400);
  });

  it('keeps users apart', async () => {
    assert.equal((await call('POST', '/probe/v1/notes', { body: '{"text":"bob"}' })).status, 200);
    const aliceToken = emulator.tokenFor('alice@example.com').accessToken;
    const alice = await call('GET', '/probe/v1/notes', { token: aliceToken });
    assert.deepEqual(alice.body, { items: [] });
  });

  it('hides internal failures behind a 500 backendError without details', async () => {
    const { status, body } = await call('GET', '/probe/v1/crash');
    assert.equal(status, 500);
    assert.equal(errorOf(body).errors?.[0]?.reason, 'backendError');
    assert.doesNotMatch(JSON.stringify(body), /internal detail/);
  });

  it('says 405 for a known path with the wrong method', async () => {
    const { status, body } = await call('DELETE', '/probe/v1/notes');
    assert.equal(status, 405);
    assert.equal(errorOf(body).code, 405);
  });
});

describe('emulator fault injection', () => {
  it('answers some API calls 429 (with Retry-After) or 503 at the configured rate, never the token endpoint', async () => {
    const emulator = await startEmulator({ port: 0, faultRate: 1 }, [emulatorAdminModule, probeModule]);
    try {
      const tokenResponse = await fetch(`${emulator.url}/emulator/v1/token`, { method: 'POST' });
      assert.equal(tokenResponse.status, 200);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const statuses = new Set<number>();
      for (let index = 0; index < 30; index++) {
        const response = await fetch(`${emulator.url}/probe/v1/notes`, { headers: { Authorization: `Bearer ${token}` } });
        statuses.add(response.status);
        if (response.status === 429) assert.equal(response.headers.get('retry-after'), '1');
        await response.arrayBuffer();
      }
      assert.deepEqual([...statuses].sort(), [429, 503]);
    } finally {
      await emulator.close();
    }
  });
});
