import * as assert from 'node:assert/strict';
import { Response } from 'node-fetch';
import * as z from '../../../src/shared/schemas/zod';
import { CancelledError, GoogleApiError, ResponseValidationError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, parseRetryAfter, path } from '../../../src/api/http';

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

function client(fetch: FetchFunction, sleeps: number[] = [], tokens: string[] = ['t1', 't2']): HttpClient {
  let issued = 0;
  return new HttpClient({
    rootUrl: () => 'http://svc.test/',
    token: async ({ forceRefresh }) => (forceRefresh ? tokens[Math.min(++issued, tokens.length - 1)] : tokens[issued]) as string,
    fetch,
    retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 5000 },
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
    for await (const item of http.items(async (token) => pages[token ?? 'start'] as { items: string[]; nextPageToken?: string }, (page) => page.items)) seen.push(item);
    assert.deepEqual(seen, ['a', 'b', 'c']);

    const looping = http.items(async () => ({ items: ['x'], nextPageToken: 'same' }), (page) => page.items);
    await assert.rejects(async () => {
      for await (const item of looping) void item;
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
