import * as assert from 'node:assert/strict';
import nodeFetch, { Response } from 'node-fetch';
import { CalendarClient } from '../../../src/api/calendar';
import { DriveClient } from '../../../src/api/drive';
import { GoogleApiError, ResponseValidationError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { TasksClient } from '../../../src/api/tasks';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';

const FAST_RETRY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5 };

/** Desk's batch calls (api/batch.ts) over HTTP against the emulator's batch endpoint. */
describe('batched calls of the API layer against the emulator', function () {
  this.timeout(30000);
  let emulator: RunningEmulator;
  const sent: string[] = [];

  function httpFor(target: RunningEmulator, fetch?: FetchFunction): HttpClient {
    const token = target.tokenFor('alice@example.com').accessToken;
    return new HttpClient({ rootUrl: () => target.url, token: async () => token, retry: FAST_RETRY, ...(fetch ? { fetch } : {}) });
  }
  const counting: FetchFunction = (url, init) => {
    sent.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    return nodeFetch(url, init);
  };

  before(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  after(() => emulator.close());
  beforeEach(() => sent.splice(0));

  it('Drive: trashes 150 files in two batch requests (100 per batch), one result per file, the unknown one a 404', async () => {
    const drive = new DriveClient(httpFor(emulator, counting));
    const ids: string[] = [];
    for (let index = 0; index < 149; index++) ids.push((await drive.insertFile({ title: `bulk ${index}`, mimeType: 'text/plain' })).id);
    ids.splice(70, 0, 'no-such-file');
    sent.splice(0);
    const results = await drive.trashFiles(ids);
    assert.deepEqual(sent, ['POST /batch/drive/v2', 'POST /batch/drive/v2']);
    assert.equal(results.length, 150);
    results.forEach((result, index) => {
      if (index === 70) {
        assert.ok(!result.ok && result.error instanceof GoogleApiError && result.error.status === 404);
      } else {
        assert.ok(result.ok, `file ${index}`);
        assert.equal(result.value.id, ids[index], 'results are in the order of the calls');
        assert.equal(result.value.labels?.trashed, true);
      }
    });
    const restored = await drive.untrashFiles(ids.slice(0, 3));
    assert.ok(restored.every((result) => result.ok && result.value.labels?.trashed === false));
    const moved = await drive.moveFiles([{ fileId: ids[0], addParents: [(await drive.insertFolder('Target', 'root')).id], removeParents: ['root'] }]);
    assert.ok(moved[0]?.ok && moved[0].value.parents?.length === 1);
    const deleted = await drive.deleteFiles(ids.slice(0, 2));
    assert.ok(deleted.every((result) => result.ok));
    assert.ok(!(await drive.deleteFiles([ids[0]]))[0]?.ok, 'deleted for good');
  });

  it('Calendar: deletes 120 events in three batch requests of at most 50', async () => {
    const calendar = new CalendarClient(httpFor(emulator, counting));
    const created = await calendar.insertCalendar({ summary: 'Bulk' });
    const ids: string[] = [];
    for (let index = 0; index < 120; index++) {
      ids.push((await calendar.insertEvent(created.id, { summary: `e${index}`, start: { dateTime: '2026-05-01T09:00:00Z' }, end: { dateTime: '2026-05-01T10:00:00Z' } })).id);
    }
    sent.splice(0);
    const results = await calendar.deleteEvents(created.id, ids);
    assert.deepEqual(sent, ['POST /batch/calendar/v3', 'POST /batch/calendar/v3', 'POST /batch/calendar/v3']);
    assert.ok(results.every((result) => result.ok));
    assert.equal((await calendar.listEvents(created.id)).items.length, 0);
  });

  it('Tasks: calls refused by a flaky server are sent again alone; none is lost or made twice', async () => {
    const flaky = await startEmulator({ port: 0, faultRate: 0.3 });
    try {
      const tasks = new TasksClient(httpFor(flaky));
      let list: string | undefined;
      while (list === undefined) list = await tasks.insertTaskList('Flaky').then((created) => created.id, () => undefined);
      const results = await tasks.insertTasks(list, Array.from({ length: 40 }, (_, index) => ({ title: `t${index}` })));
      assert.equal(results.length, 40);
      // A refused call (429) is repeated until it lands; a 503 is unclear for an insert, so it is reported, not repeated.
      for (const result of results) if (!result.ok) assert.ok(result.error instanceof GoogleApiError && result.error.status === 503, String(result.error));
      const made = results.flatMap((result) => (result.ok ? [result.value.title] : []));
      let listed: string[] | undefined;
      while (listed === undefined) listed = await tasks.listTasks(list, { maxResults: 100 }).then((page) => (page.items ?? []).map((task) => task.title), () => undefined);
      assert.deepEqual(listed.sort(), made.sort(), 'exactly the tasks reported created exist');
      assert.ok(made.length >= 20, `most calls land (${made.length})`);
    } finally {
      await flaky.close();
    }
  });

  it('a batch answered 429 every time is sent the retry policy\'s attempts in all (one policy, not one per layer), each call reporting the 429', async () => {
    const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 2 };
    let batchesSent = 0;
    const refusing: FetchFunction = async (url, init) => {
      if (!new URL(url).pathname.startsWith('/batch')) return nodeFetch(url, init);
      batchesSent++;
      const body = { error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' }], status: 'RESOURCE_EXHAUSTED' } };
      return new Response(JSON.stringify(body), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' } });
    };
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const drive = new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: policy, fetch: refusing }));
    const results = await drive.trashFiles(['a', 'b', 'c']);
    assert.equal(batchesSent, policy.maxAttempts, 'the batch request is sent as often as a single call would be');
    for (const result of results) assert.ok(!result.ok && result.error instanceof GoogleApiError && result.error.status === 429, String(!result.ok && result.error));
  });

  it('an answer that is not a batch answer fails every call with a clear error, never a crash', async () => {
    const broken: FetchFunction = async (url, init) => (new URL(url).pathname.startsWith('/batch') ? new Response('<html>proxy</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }) : nodeFetch(url, init));
    const drive = new DriveClient(httpFor(emulator, broken));
    const results = await drive.trashFiles(['a', 'b']);
    assert.equal(results.length, 2);
    for (const result of results) assert.ok(!result.ok && result.error instanceof ResponseValidationError && /multipart/.test(result.error.message));
  });
});
