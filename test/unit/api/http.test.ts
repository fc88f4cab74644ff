import * as assert from 'node:assert/strict';
import { Response } from 'node-fetch';
import * as z from '../../../src/shared/schemas/zod';
import { CancelledError, GoogleApiError, NetworkError, ResponseValidationError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, parseRetryAfter, path, RetryPolicy } from '../../../src/api/http';

interface Call { url: string; method: string | undefined; authorization: string | null }

/** A scripted server: each call takes the next answer. */
function scripted(answers: Array<() => Response>): { fetch: FetchFunction; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchFunction = async (url, init) => {
    const headers = new Map(Object.entries((init?.headers as { raw(): Record<string, string[]> }).raw()).map(([k, v]) => [k.toLowerCase(), v[0] ?? '']));
    calls.push({ url, method: init?.method, authorization: headers.get('authorization') ?? null });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const googleError = (status: number, reason: string, message: string) => json(status, { error: { code: status, message, errors: [{ domain: 'global', reason, message }] } });

const itemSchema = z.object({ id: z.string() });

function client(fetch: FetchFunction, sleeps: number[] = [], tokens: string[] = ['t1', 't2'], retry: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 5000 }): HttpClient {
  let issued = 0;
  return new HttpClient({
    rootUrl: () => 'http://svc.test/',
    token: async ({ forceRefresh }) => (forceRefresh ? tokens[Math.min(++issued, tokens.length - 1)] : tokens[issued]),
    fetch,
    retry,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

describe('API request pipeline', () => {
  it('encodes path segments and query values', async () => {
    const { fetch, calls } = scripted([json(200, { id: 'x' })]);
    await client(fetch).json(itemSchema, { method: 'GET', path: path`/a/${'b c/d'}`, query: { q: "title = 'x'", n: 5, skip: undefined, many: ['1', '2'] }, operation: 't' });
    assert.equal(calls[0]?.url, 'http://svc.test/a/b%20c%2Fd?q=title+%3D+%27x%27&n=5&many=1&many=2');
    assert.equal(calls[0]?.authorization, 'Bearer t1');
  });

  it('retries an idempotent GET on 503 and 429, honouring Retry-After', async () => {
    const sleeps: number[] = [];
    const { fetch, calls } = scripted([googleError(503, 'backendError', 'down'), json(429, { error: { code: 429, message: 'slow' } }, { 'retry-after': '3' }), json(200, { id: 'ok' })]);
    const result = await client(fetch, sleeps).json(itemSchema, { method: 'GET', path: '/x', operation: 't' });
    assert.equal(result.id, 'ok');
    assert.equal(calls.length, 3);
    assert.equal(sleeps.length, 2);
    assert.ok((sleeps[1] ?? 0) >= 3000, 'the second wait honours Retry-After: 3');
  });

  it('does not retry a POST on 503 and surfaces a typed Google error', async () => {
    const { fetch, calls } = scripted([googleError(503, 'backendError', 'The service is currently unavailable.')]);
    await assert.rejects(client(fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't' }), (error: unknown) => {
      assert.ok(error instanceof GoogleApiError);
      assert.equal(error.status, 503);
      assert.equal(error.reason, 'backendError');
      assert.match(error.userMessage, /unavailable/);
      return true;
    });
    assert.equal(calls.length, 1);
  });

  it('refreshes the token once on 401 and retries, then gives up', async () => {
    const { fetch, calls } = scripted([googleError(401, 'authError', 'Invalid Credentials'), json(200, { id: 'ok' })]);
    await client(fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't' });
    assert.deepEqual(calls.map((call) => call.authorization), ['Bearer t1', 'Bearer t2']);

    const again = scripted([googleError(401, 'authError', 'no'), googleError(401, 'authError', 'still no')]);
    await assert.rejects(client(again.fetch).json(itemSchema, { method: 'GET', path: '/x', operation: 't' }), GoogleApiError);
    assert.equal(again.calls.length, 2);
  });

  it('names the refused token when it asks for a new one after a 401, and only then', async () => {
    const asked: { forceRefresh: boolean; rejected?: string }[] = [];
    const { fetch } = scripted([googleError(401, 'authError', 'Invalid Credentials'), json(200, { id: 'ok' }), json(200, { id: 'ok' })]);
    const http = new HttpClient({
      rootUrl: () => 'http://svc.test/',
      token: async (options) => {
        asked.push(options);
        return options.forceRefresh ? 'new' : 'old';
      },
      fetch,
    });
    await http.json(itemSchema, { method: 'GET', path: '/x', operation: 't' });
    await http.json(itemSchema, { method: 'GET', path: '/y', operation: 't' });
    assert.deepEqual(asked, [{ forceRefresh: false }, { forceRefresh: true, rejected: 'old' }, { forceRefresh: false }]);
  });

  it('turns a response of the wrong shape into a clear validation error', async () => {
    const { fetch } = scripted([json(200, { id: 42 })]);
    await assert.rejects(client(fetch).json(itemSchema, { method: 'GET', path: '/x', operation: 'things.get' }), (error: unknown) => {
      assert.ok(error instanceof ResponseValidationError);
      assert.match(error.message, /things\.get/);
      assert.match(error.message, /id/);
      return true;
    });
  });

  it('reports a non-Google error body (a proxy page) without crashing', async () => {
    const { fetch } = scripted([() => new Response('<html>Bad gateway</html>', { status: 400 })]);
    await assert.rejects(client(fetch).json(itemSchema, { method: 'GET', path: '/x', operation: 't' }), (error: unknown) =>
      error instanceof GoogleApiError && /Bad gateway/.test(error.message));
  });

  it('follows nextPageToken to the end, empty pages included, and stops on a repeated token', async () => {
    const pages: Record<string, { items: string[]; nextPageToken?: string }> = {
      start: { items: ['a', 'b'], nextPageToken: 'p2' },
      p2: { items: [], nextPageToken: 'p3' },
      p3: { items: ['c'] },
    };
    const http = client(scripted([]).fetch);
    const seen: string[] = [];
    for await (const item of http.items(async (token) => pages[token ?? 'start'], (page) => page.items)) seen.push(item);
    assert.deepEqual(seen, ['a', 'b', 'c']);

    const looping = http.items(async () => ({ items: ['x'], nextPageToken: 'same' }), (page) => page.items);
    await assert.rejects(async () => {
      for await (const _item of looping) { /* reads every page */ }
    }, ResponseValidationError);
  });

  it('stops at once when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { fetch, calls } = scripted([json(200, { id: 'x' })]);
    await assert.rejects(client(fetch).json(itemSchema, { method: 'GET', path: '/x', operation: 't', signal: controller.signal }), CancelledError);
    assert.equal(calls.length, 0);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('7'), 7000);
    assert.equal(parseRetryAfter(null), undefined);
    const inFuture = new Date(Date.now() + 10_000).toUTCString();
    const parsed = parseRetryAfter(inFuture) ?? 0;
    assert.ok(parsed > 8000 && parsed <= 10_000);
  });
});

describe('API request pipeline: which failures repeat a write', () => {
  const rateLimited = (retryAfter = '3') => json(429, { error: { code: 429, message: 'slow', errors: [{ reason: 'rateLimitExceeded' }] } }, { 'retry-after': retryAfter });
  const unavailable = () => googleError(503, 'backendError', 'down');

  it('retries a POST after a 429 (a refusal before processing), honouring Retry-After', async () => {
    const sleeps: number[] = [];
    const { fetch, calls } = scripted([rateLimited('3'), json(200, { id: 'made' })]);
    const result = await client(fetch, sleeps).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't' });
    assert.equal(result.id, 'made');
    assert.deepEqual(calls.map((call) => call.method), ['POST', 'POST']);
    assert.ok((sleeps[0] ?? 0) >= 3000, 'waited as Retry-After asked');
  });

  it('also retries after a rate-limit 403, and after a connection that was refused', async () => {
    const refused = () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    };
    const { fetch, calls } = scripted([googleError(403, 'userRateLimitExceeded', 'slow down'), refused, json(200, { id: 'made' })]);
    assert.equal((await client(fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't' })).id, 'made');
    assert.equal(calls.length, 3);
  });

  it('does not retry a POST after a 503 or a lost answer unless the method is marked safe', async () => {
    const lost = () => {
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    };
    const plain = scripted([lost]);
    await assert.rejects(client(plain.fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't' }), NetworkError);
    assert.equal(plain.calls.length, 1);

    const marked = scripted([unavailable(), lost, json(200, { id: 'made' })]);
    const result = await client(marked.fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, idempotent: true, operation: 't' });
    assert.equal(result.id, 'made');
    assert.equal(marked.calls.length, 3);
  });

  it('caps Retry-After at the policy\'s maxRetryAfterMs, so tests and benchmarks need not wait seconds', async () => {
    const sleeps: number[] = [];
    const { fetch } = scripted([rateLimited('30'), json(200, { id: 'ok' })]);
    await client(fetch, sleeps, undefined, { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 7 }).json(itemSchema, { method: 'GET', path: '/x', operation: 't' });
    assert.equal(sleeps.length, 1);
    assert.ok((sleeps[0] ?? 0) <= 7, `waited ${sleeps[0]} ms`);
  });

  it('reconciles a write without an idempotency key before repeating it: found, it is the answer', async () => {
    const { fetch, calls } = scripted([unavailable()]);
    const asked: number[] = [];
    const before = Date.now();
    const result = await client(fetch).json(itemSchema, {
      method: 'POST', path: '/x', json: {}, operation: 't',
      reconcile: async ({ startedAt }) => {
        asked.push(startedAt);
        return { id: 'landed' };
      },
    });
    assert.equal(result.id, 'landed');
    assert.equal(calls.length, 1, 'not sent again');
    assert.equal(asked.length, 1);
    assert.ok((asked[0] ?? 0) >= before);
  });

  it('repeats the write when reconciliation does not find it, and asks once more when the attempts run out', async () => {
    const { fetch, calls } = scripted([unavailable(), unavailable(), unavailable(), unavailable()]);
    let asked = 0;
    const result = await client(fetch).json(itemSchema, {
      method: 'POST', path: '/x', json: {}, operation: 't',
      // The last attempt landed although its answer was a 503.
      reconcile: async () => (++asked === 4 ? { id: 'late' } : undefined),
    });
    assert.equal(result.id, 'late');
    assert.equal(calls.length, 4);
    assert.equal(asked, 4);
  });

  it('surfaces the original failure when reconciliation itself fails (repeating could duplicate)', async () => {
    const { fetch, calls } = scripted([unavailable()]);
    await assert.rejects(
      client(fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't', reconcile: async () => { throw new Error('list failed'); } }),
      (error: unknown) => error instanceof GoogleApiError && error.status === 503,
    );
    assert.equal(calls.length, 1);
  });

  it('reads an error to a repeat as "already applied" only after an unclear attempt', async () => {
    const conflict = () => googleError(409, 'duplicate', 'A file already exists with the provided ID');
    const first = scripted([conflict()]);
    let asked = 0;
    const alreadyApplied = async (): Promise<{ id: string }> => {
      asked++;
      return { id: 'existing' };
    };
    await assert.rejects(client(first.fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, idempotent: true, alreadyApplied, operation: 't' }), (error: unknown) => error instanceof GoogleApiError && error.status === 409);
    assert.equal(asked, 0, 'a 409 to the first attempt is the server\'s verdict');

    const repeated = scripted([unavailable(), conflict()]);
    const result = await client(repeated.fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, idempotent: true, alreadyApplied, operation: 't' });
    assert.equal(result.id, 'existing');
    assert.equal(asked, 1);

    const refusedFirst = scripted([rateLimited('0'), conflict()]);
    await assert.rejects(client(refusedFirst.fetch).json(itemSchema, { method: 'POST', path: '/x', json: {}, idempotent: true, alreadyApplied, operation: 't' }), GoogleApiError);
    assert.equal(asked, 1, 'a 429 is not unclear: the 409 after it is real');
  });

  it('tells the observer about every retry and reconciliation', async () => {
    const retries: string[] = [];
    const reconciles: boolean[] = [];
    const { fetch } = scripted([rateLimited('0'), unavailable(), json(200, { id: 'ok' })]);
    const http = new HttpClient({
      rootUrl: () => 'http://svc.test', token: async () => 't', fetch,
      retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 }, sleep: async () => undefined,
      onRetry: (event) => retries.push(`${event.why}:${String(event.status)}`),
      onReconcile: (event) => reconciles.push(event.found),
    });
    await http.json(itemSchema, { method: 'POST', path: '/x', json: {}, operation: 't', reconcile: async () => undefined });
    assert.deepEqual(retries, ['refused:429', 'unclear:503']);
    assert.deepEqual(reconciles, [false]);
  });

  it('repeats the parts of a batch as single requests are repeated: refusals always, unclear failures only when safe, within the attempts', async () => {
    const sleeps: number[] = [];
    const http = client(scripted([]).fetch, sleeps);
    const refused = new GoogleApiError(429, 'slow', 'rateLimitExceeded', [], 2000);
    const unclear = new GoogleApiError(503, 'down', 'backendError', [], undefined);
    const rounds: number[][] = [];
    // Part 0 is refused twice, then answered; part 1 fails unclearly but is safe to repeat; part 2 fails unclearly and is not; part 3 is refused every time.
    const outcomes = await http.repeatParts<string>([true, true, false, false], async (parts) => {
      rounds.push([...parts]);
      return parts.map((part) => {
        if (part === 0) return rounds.length <= 2 ? { ok: false, error: refused } : { ok: true, value: 'zero' };
        if (part === 1) return rounds.length === 1 ? { ok: false, error: unclear } : { ok: true, value: 'one' };
        if (part === 2) return { ok: false, error: unclear };
        return { ok: false, error: refused };
      });
    });
    assert.deepEqual(rounds, [[0, 1, 2, 3], [0, 1, 3], [0, 3], [3]], 'each round sends only the parts worth repeating, until the policy\'s 4 attempts');
    assert.deepEqual(outcomes.map((outcome) => (outcome.ok ? outcome.value : outcome.error instanceof GoogleApiError ? outcome.error.status : outcome.error)), ['zero', 'one', 503, 429]);
    assert.equal(sleeps.length, 3, 'one wait between rounds');
    assert.ok((sleeps[0] ?? 0) >= 2000, 'the wait honours the longest Retry-After of the round');
  });
});
