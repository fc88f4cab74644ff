import * as assert from 'node:assert/strict';
import { Response } from 'node-fetch';
import * as z from '../../../src/shared/schemas/zod';
import { errorMessage, GoogleApiError, isUnreachable, NetworkError, sanitizeMessage, ServiceUnreachableError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, probeService, Reachability } from '../../../src/api/http';

const itemSchema = z.object({ id: z.string() });

/** Answers in turn: a function that throws is a network failure. */
function scripted(answers: Array<() => Response>): { fetch: FetchFunction; calls: number } {
  const state = { calls: 0, fetch: (async () => {
    state.calls++;
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  }) as FetchFunction };
  return state;
}

const refused = (): Response => {
  throw Object.assign(new Error('request to http://127.0.0.1:8089/tasks/v1/lists/a/tasks?showCompleted=true&fields=items%28id%29 failed, reason: connect ECONNREFUSED 127.0.0.1:8089'), { code: 'ECONNREFUSED', type: 'system' });
};
const reset = (): Response => {
  throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
};
const gateway = (status: number) => (): Response => new Response('<html>Bad Gateway</html>', { status, headers: { 'content-type': 'text/html' } });
const googleUnavailable = (): Response => new Response(JSON.stringify({ error: { code: 503, message: 'Backend Error', errors: [{ domain: 'global', reason: 'backendError', message: 'Backend Error' }] } }), { status: 503 });
const ok = (): Response => new Response(JSON.stringify({ id: 'ok' }), { status: 200 });

class RecordingReachability implements Reachability {
  readonly events: string[] = [];
  offline = false;
  reachable(): void { this.events.push('reachable'); }
  unreachable(): void { this.events.push('unreachable'); }
  isOffline(): boolean { return this.offline; }
}

function client(fetch: FetchFunction, reachability?: Reachability): HttpClient {
  return new HttpClient({ rootUrl: () => 'http://svc.test', token: async () => 't', fetch, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 }, sleep: async () => undefined, ...(reachability ? { reachability } : {}) });
}

describe('Offline: one classification of "cannot reach the service"', () => {
  for (const [name, answer] of [['a refused connection', refused], ['a connection reset before an answer', reset], ['a gateway 502 without Google\'s error', gateway(502)], ['a gateway 504 without Google\'s error', gateway(504)]] as const) {
    it(`${name} is a ServiceUnreachableError, reported once after the attempts`, async () => {
      const reachability = new RecordingReachability();
      const { fetch } = scripted([answer, answer, answer]);
      await assert.rejects(client(fetch, reachability).json(itemSchema, { method: 'GET', path: '/x', operation: 'tasks.list' }), (error: unknown) => {
        assert.ok(error instanceof ServiceUnreachableError);
        assert.ok(error instanceof NetworkError, 'still a NetworkError for the code that knows those');
        assert.ok(isUnreachable(error));
        return true;
      });
      assert.deepEqual(reachability.events, ['unreachable']);
    });
  }

  it('a 503 with Google\'s error body is the service\'s answer, not offline', async () => {
    const reachability = new RecordingReachability();
    const { fetch } = scripted([googleUnavailable, googleUnavailable, googleUnavailable]);
    await assert.rejects(client(fetch, reachability).json(itemSchema, { method: 'GET', path: '/x', operation: 't' }), (error: unknown) => error instanceof GoogleApiError && !isUnreachable(error));
    assert.ok(!reachability.events.includes('unreachable'));
  });

  it('any answer says the service is reachable', async () => {
    const reachability = new RecordingReachability();
    const { fetch } = scripted([refused, ok]);
    await client(fetch, reachability).json(itemSchema, { method: 'GET', path: '/x', operation: 't' });
    assert.deepEqual(reachability.events, ['reachable']);
  });

  it('known offline, a request fails at its first attempt (no backoff through all of them)', async () => {
    const reachability = new RecordingReachability();
    reachability.offline = true;
    const scripts = scripted([refused, refused, refused]);
    await assert.rejects(client(scripts.fetch, reachability).json(itemSchema, { method: 'GET', path: '/x', operation: 't' }), ServiceUnreachableError);
    assert.equal(scripts.calls, 1);
  });

  it('the message shows no URL, query string, field mask or ECONNREFUSED', async () => {
    const { fetch } = scripted([refused, refused, refused]);
    const error = await client(fetch).json(itemSchema, { method: 'GET', path: '/x', operation: 'tasks.list' }).catch((caught: unknown) => caught);
    const text = errorMessage(error);
    assert.doesNotMatch(text, /http|127\.0\.0\.1|fields=|showCompleted|ECONNREFUSED|%28/);
    assert.match(text, /offline/);
    // A plain network error's message is cleaned the same way.
    const plain = errorMessage(new NetworkError('tasks.list', new Error('request to http://127.0.0.1:8089/a?fields=items(id) failed, reason: read ECONNRESET')));
    assert.doesNotMatch(plain, /http|127\.0\.0\.1|fields=|ECONNRESET/);
    assert.match(plain, /connection reset/);
  });

  it('sanitizes links and field masks out of any text', () => {
    assert.equal(sanitizeMessage('Not found: see https://example.test/a?b=c'), 'Not found: see the service');
  });

  it('probes a service cheaply: any answer is up, a refusal or a gateway\'s empty 503 is not', async () => {
    assert.equal(await probeService('http://svc.test', 1000, scripted([() => new Response('nope', { status: 404 })]).fetch), true);
    assert.equal(await probeService('http://svc.test', 1000, scripted([refused]).fetch), false);
    assert.equal(await probeService('http://svc.test', 1000, scripted([gateway(503)]).fetch), false);
  });
});
