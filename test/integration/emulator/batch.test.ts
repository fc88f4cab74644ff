import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { DEV_CLIENT_ID } from '../../../src/emulator/identity/devToken';
import { findUser } from '../../../src/emulator/identity/users';
import { googleErrorBodySchema } from '../../../src/shared/schemas/errors';
import { changeListSchema, driveFileSchema } from '../../../src/shared/schemas/drive';
import { taskListSchema, taskSchema, tasksPageSchema } from '../../../src/shared/schemas/tasks';
import { EmulatorCall, emulatorHttp, expectGoogleError, HttpAnswer } from '../../support/emulatorHttp';

/** One call of a batch as a client writes it by hand: request line, headers, optional JSON body. */
interface RawCall {
  method: string;
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  contentId?: string;
}

/** One answer read back from the multipart response (parsed here by hand, independent of the emulator's writer). */
interface RawAnswer {
  contentId: string | undefined;
  status: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}

const BOUNDARY = 'batch_test_boundary';

/** A batch body; `eol` lets a test write bare LF line ends, as Python's email package does. */
function batchBody(calls: readonly RawCall[], eol = '\r\n'): string {
  let body = '';
  for (const call of calls) {
    body += `--${BOUNDARY}${eol}Content-Type: application/http${eol}`;
    if (call.contentId !== undefined) body += `Content-ID: ${call.contentId}${eol}`;
    body += `${eol}${call.method} ${call.path} HTTP/1.1${eol}`;
    for (const [name, value] of Object.entries(call.headers ?? {})) body += `${name}: ${value}${eol}`;
    if (call.json !== undefined) body += `Content-Type: application/json${eol}${eol}${JSON.stringify(call.json)}${eol}`;
    else body += eol;
  }
  return `${body}--${BOUNDARY}--${eol}`;
}

function readAnswers(answer: HttpAnswer): RawAnswer[] {
  const boundary = /boundary=([^\s;]+)/.exec(answer.headers.get('content-type') ?? '')?.[1];
  assert.ok(boundary, `multipart answer expected, got ${String(answer.headers.get('content-type'))}: ${answer.text.slice(0, 200)}`);
  assert.match(answer.headers.get('content-type') ?? '', /^multipart\/mixed;/);
  const sections = answer.text.split(`--${boundary}`);
  assert.equal(sections.at(-1)?.trim(), '--', 'the answer ends with the closing boundary');
  return sections.slice(1, -1).map((section) => {
    const text = section.replace(/^\r\n/, '');
    const envelope = text.slice(0, text.indexOf('\r\n\r\n'));
    const message = text.slice(text.indexOf('\r\n\r\n') + 4);
    assert.match(envelope, /^Content-Type: application\/http$/m);
    const contentId = /^Content-ID: (.*)$/m.exec(envelope)?.[1];
    const [head = '', ...rest] = message.split('\r\n\r\n');
    const [statusLine = '', ...headerLines] = head.split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of headerLines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const body = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    let json: unknown;
    try {
      json = body ? (JSON.parse(body) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    return { contentId, status, headers, body, json };
  });
}

function reasonOf(answer: RawAnswer): string | undefined {
  return googleErrorBodySchema.parse(answer.json).error.errors?.[0]?.reason;
}

describe('batch requests (POST /batch/{api}/{version}) over HTTP', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: string;
  let bob: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    alice = emulator.tokenFor('alice@example.com').accessToken;
    bob = emulator.tokenFor('bob@example.com').accessToken;
  });
  after(() => emulator.close());

  const call: EmulatorCall = (method, path, options) => emulatorHttp(emulator, () => alice)(method, path, options);

  const batch = (path: string, calls: readonly RawCall[], options: { token?: string | null; eol?: string } = {}): Promise<HttpAnswer> =>
    call('POST', path, { body: batchBody(calls, options.eol), contentType: `multipart/mixed; boundary=${BOUNDARY}`, token: options.token === undefined ? alice : options.token });

  async function newList(title: string): Promise<string> {
    const answer = await call('POST', '/tasks/v1/users/@me/lists', { json: { title } });
    return taskListSchema.parse(answer.json).id;
  }

  it('runs each call as it would run alone, answering in request order with Content-ID response-<id>', async () => {
    const list = await newList('Batched');
    const answer = await batch('/batch/tasks/v1', [
      { method: 'POST', path: `/tasks/v1/lists/${list}/tasks`, json: { title: 'one' }, contentId: '<item1:12930812@barnyard.example.com>' },
      { method: 'POST', path: `/tasks/v1/lists/${list}/tasks`, json: { title: 'two' }, contentId: 'item2' },
      { method: 'GET', path: `/tasks/v1/lists/${list}/tasks/nope`, contentId: 'item3' },
      { method: 'POST', path: `/tasks/v1/lists/${list}/tasks`, json: { title: 'x'.repeat(1025) } },
    ]);
    assert.equal(answer.status, 200);
    const parts = readAnswers(answer);
    assert.deepEqual(parts.map((part) => part.contentId), ['<response-item1:12930812@barnyard.example.com>', 'response-item2', 'response-item3', undefined]);
    assert.deepEqual(parts.map((part) => part.status), [200, 200, 404, 400]);
    assert.equal(reasonOf(parts[2]), 'notFound');

    // The same resources as a single call returns them: body and etag are identical.
    const one = taskSchema.parse(parts[0]?.json);
    const alone = await call('GET', `/tasks/v1/lists/${list}/tasks/${one.id}`);
    assert.deepEqual(taskSchema.parse(alone.json), one);
    assert.equal(parts[0]?.headers['content-type'], 'application/json; charset=UTF-8');
    const titles = (tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks`)).json).items ?? []).map((task) => task.title);
    assert.deepEqual(titles.sort(), ['one', 'two']);
  });

  it('applies the outer Authorization to parts without their own, and a part may carry another user\'s', async () => {
    const answer = await batch('/batch/tasks/v1', [
      { method: 'GET', path: '/tasks/v1/users/@me/lists', contentId: 'a' },
      { method: 'GET', path: '/tasks/v1/users/@me/lists', contentId: 'b', headers: { Authorization: `Bearer ${bob}` } },
    ]);
    const answers = readAnswers(answer);
    const mine = answers.at(0);
    const bobs = answers.at(1);
    assert.equal(mine?.status, 200);
    assert.equal(bobs?.status, 200);
    assert.notDeepEqual(mine.json, bobs.json, 'each part answered for its own user');
    const unsigned = readAnswers(await batch('/batch/tasks/v1', [{ method: 'GET', path: '/tasks/v1/users/@me/lists' }], { token: null }));
    assert.equal(unsigned[0]?.status, 401);
    assert.equal(reasonOf(unsigned[0]), 'required');
  });

  it('checks each part\'s scopes as the call alone would (a read-only token cannot write inside a batch)', async () => {
    const user = findUser('alice@example.com');
    assert.ok(user);
    const readOnly = emulator.deps.tokens.issue(user.id, DEV_CLIENT_ID, ['https://www.googleapis.com/auth/tasks.readonly']).accessToken;
    const list = await newList('Scoped');
    const parts = readAnswers(await batch('/batch/tasks/v1', [
      { method: 'GET', path: `/tasks/v1/lists/${list}/tasks` },
      { method: 'POST', path: `/tasks/v1/lists/${list}/tasks`, json: { title: 'no' } },
    ], { token: readOnly }));
    const alone = await call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { title: 'no' }, token: readOnly });
    assert.deepEqual(parts.map((part) => part.status), [200, alone.status]);
    assert.equal(alone.status, 403);
    assert.deepEqual(parts[1]?.json, alone.json);
  });

  it('Drive: a batched trash and insert make the same change-feed entries as single calls', async () => {
    const created = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'to trash', mimeType: 'text/plain' } })).json);
    const start = (await call('GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string };
    const parts = readAnswers(await batch('/batch/drive/v2', [
      { method: 'POST', path: `/drive/v2/files/${created.id}/trash`, contentId: '1' },
      { method: 'POST', path: '/drive/v2/files', json: { title: 'batched', mimeType: 'text/plain' }, contentId: '2' },
    ]));
    assert.deepEqual(parts.map((part) => part.status), [200, 200]);
    const trashed = driveFileSchema.parse(parts[0]?.json);
    assert.equal(trashed.labels?.trashed, true);
    const inserted = driveFileSchema.parse(parts[1]?.json);
    const changes = changeListSchema.parse((await call('GET', `/drive/v2/changes?pageToken=${start.startPageToken}`)).json);
    assert.deepEqual(changes.items.map((change) => change.fileId), [created.id, inserted.id]);
    // The answer a single get gives now is the one the batch gave (same etag).
    assert.equal(driveFileSchema.parse((await call('GET', `/drive/v2/files/${inserted.id}`)).json).etag, inserted.etag);
    assert.equal(parts[1]?.headers.etag ?? inserted.etag, inserted.etag);
  });

  it('Calendar, Books and the Directory batch at their batch paths; /batch serves any API', async () => {
    const calendar = readAnswers(await batch('/batch/calendar/v3', [
      { method: 'GET', path: '/calendar/v3/users/me/calendarList' },
      { method: 'GET', path: 'https://www.googleapis.com/calendar/v3/calendars/primary' },
    ]));
    assert.deepEqual(calendar.map((part) => part.status), [200, 200]);
    assert.equal((calendar[1]?.json as { id?: string }).id, 'alice@example.com');
    const legacy = readAnswers(await batch('/batch', [
      { method: 'GET', path: '/books/v1/mylibrary/bookshelves' },
      { method: 'GET', path: '/admin/directory/v1/users?customer=my_customer' },
      { method: 'GET', path: '/tasks/v1/users/@me/lists' },
    ]));
    assert.deepEqual(legacy.map((part) => part.status), [200, 200, 200]);
    for (const path of ['/batch/books/v1', '/batch/admin/directory_v1']) {
      const target = path === '/batch/books/v1' ? '/books/v1/mylibrary/bookshelves' : '/admin/directory/v1/users?customer=my_customer';
      assert.deepEqual(readAnswers(await batch(path, [{ method: 'GET', path: target }])).map((part) => part.status), [200], path);
    }
  });

  it('accepts bare LF line ends and <id + n> Content-IDs, as Google\'s Python client writes them', async () => {
    const parts = readAnswers(await batch('/batch/tasks/v1', [
      { method: 'GET', path: '/tasks/v1/users/@me/lists?alt=json', contentId: '<3f1c2a + 1>', headers: { accept: 'application/json', host: 'tasks.googleapis.com' } },
      { method: 'POST', path: '/tasks/v1/users/@me/lists?alt=json', contentId: '<3f1c2a + 2>', json: { title: 'from python' } },
    ], { eol: '\n' }));
    assert.deepEqual(parts.map((part) => [part.contentId, part.status]), [['<response-3f1c2a + 1>', 200], ['<response-3f1c2a + 2>', 200]]);
    assert.equal(taskListSchema.parse(parts[1]?.json).title, 'from python');
  });

  it('answers parts Google refuses inside a batch alone: another API, a nested batch, a media upload, a bad request line', async () => {
    const parts = readAnswers(await batch('/batch/drive/v2', [
      { method: 'GET', path: '/tasks/v1/users/@me/lists' },
      { method: 'POST', path: '/batch/drive/v2' },
      { method: 'POST', path: '/upload/drive/v2/files?uploadType=media' },
      { method: 'FETCH', path: '/drive/v2/about' },
      { method: 'GET', path: '/drive/v2/about' },
    ]));
    assert.deepEqual(parts.map((part) => part.status), [400, 400, 400, 400, 200]);
    assert.match(googleErrorBodySchema.parse(parts[0]?.json).error.message, /drive v2/);
    assert.match(googleErrorBodySchema.parse(parts[1]?.json).error.message, /Nested batch/);
    assert.match(googleErrorBodySchema.parse(parts[2]?.json).error.message, /Media uploads/);
  });

  it('Drive answers calls past its 100 per batch with the soft-limit 403; more than 1000 calls is a 400', async () => {
    const calls = Array.from({ length: 101 }, (_, index): RawCall => ({ method: 'GET', path: '/drive/v2/about', contentId: String(index) }));
    const parts = readAnswers(await batch('/batch/drive/v2', calls));
    assert.equal(parts.length, 101);
    assert.ok(parts.slice(0, 100).every((part) => part.status === 200));
    assert.equal(parts[100]?.status, 403);
    assert.match(googleErrorBodySchema.parse(parts[100]?.json).error.message, /inner batch requests soft limit/);

    const many = Array.from({ length: 1001 }, (): RawCall => ({ method: 'GET', path: '/tasks/v1/users/@me/lists' }));
    const refused = await expectGoogleError(batch('/batch/tasks/v1', many), 400, 'badRequest');
    assert.match(refused.message, /at most 1000/);
  });

  it('answers malformed batches with Google-format 400s, never a 500', async () => {
    const post = (body: string, contentType: string): Promise<HttpAnswer> => call('POST', '/batch/tasks/v1', { body, contentType });
    const good = batchBody([{ method: 'GET', path: '/tasks/v1/users/@me/lists' }]);
    await expectGoogleError(post(good, 'application/json'), 400, 'badRequest');
    await expectGoogleError(post(good, 'multipart/mixed'), 400, 'badRequest');
    await expectGoogleError(post(good, 'multipart/mixed; boundary=other'), 400, 'badRequest');
    await expectGoogleError(post(good.replace(`--${BOUNDARY}--`, ''), `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    await expectGoogleError(post(`--${BOUNDARY}--\r\n`, `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    await expectGoogleError(post('', `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    await expectGoogleError(post(good.replace('application/http', 'text/plain'), `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    await expectGoogleError(post(good.replace('Content-Type: application/http', 'no colon here'), `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    const duplicate = batchBody([{ method: 'GET', path: '/tasks/v1/users/@me/lists', contentId: 'x' }, { method: 'GET', path: '/tasks/v1/users/@me/lists', contentId: 'x' }]);
    const error = await expectGoogleError(post(duplicate, `multipart/mixed; boundary=${BOUNDARY}`), 400, 'badRequest');
    assert.match(error.message, /Duplicate Request ID/);
    // GET on the batch path is not a route.
    await expectGoogleError(call('GET', '/batch/tasks/v1'), 404, 'notFound');
  });

  it('refuses a batch of far more than 1000 parts before reading them one by one (peak memory stays flat)', async () => {
    // 20,000 empty parts: read part by part, they took ~1.4 s and ~800 MB before the count was checked (200,000: 8 GB).
    const body = `${`--${BOUNDARY}\r\n\r\n\r\n`.repeat(20_000)}--${BOUNDARY}--\r\n`;
    const peakBefore = process.resourceUsage().maxRSS;
    const error = await expectGoogleError(call('POST', '/batch/tasks/v1', { body, contentType: `multipart/mixed; boundary=${BOUNDARY}` }), 400, 'badRequest');
    assert.match(error.message, /at most 1000 calls; this one has 20000/);
    const grewMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
    assert.ok(grewMb < 100, `the peak RSS grew by ${grewMb.toFixed(0)} MB`);
  });

  it('answers a part whose headers exceed 16 KB alone with 431, as the same request alone; the other parts run', async () => {
    const parts = readAnswers(await batch('/batch/tasks/v1', [
      { method: 'GET', path: '/tasks/v1/users/@me/lists', headers: { 'X-Big': 'a'.repeat(20_000) } },
      { method: 'GET', path: '/tasks/v1/users/@me/lists', headers: Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`X-H${index}`, 'v'])) },
      { method: 'GET', path: '/tasks/v1/users/@me/lists' },
    ]));
    assert.deepEqual(parts.map((part) => part.status), [431, 431, 200]);
    assert.equal(reasonOf(parts[0]), 'badRequest');
  });

  it('refuses a media download (alt=media) inside a Drive batch, as Drive does, answering it alone', async () => {
    const file = driveFileSchema.parse((await call('POST', '/upload/drive/v2/files?uploadType=media', { body: 'content', contentType: 'text/plain' })).json);
    const parts = readAnswers(await batch('/batch/drive/v2', [
      { method: 'GET', path: `/drive/v2/files/${file.id}?alt=media` },
      { method: 'GET', path: `/drive/v2/files/${file.id}/revisions/head?alt=media` },
      { method: 'GET', path: `/drive/v2/files/${file.id}` },
    ]));
    assert.deepEqual(parts.map((part) => part.status), [400, 400, 200]);
    assert.match(googleErrorBodySchema.parse(parts[0]?.json).error.message, /Media downloads/);
  });

  it('writes each part\'s answer as soon as it is ready: the first answer arrives while a later part still runs', async () => {
    // A receiver that accepts connections and never answers: the watch's certificate check waits on it (up to 5 s).
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`${emulator.url}/batch/calendar/v3`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice}`, 'Content-Type': `multipart/mixed; boundary=${BOUNDARY}` },
        body: batchBody([
          { method: 'GET', path: '/calendar/v3/colors' },
          { method: 'POST', path: '/calendar/v3/calendars/primary/events/watch', json: { id: 'held-part', type: 'web_hook', address: `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}/` } },
        ]),
      });
      assert.equal(response.status, 200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      while (!received.includes('"calendar#colors"')) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, 'the batch ended before its second part could');
        received += Buffer.from(chunk.value).toString('utf8');
      }
      assert.doesNotMatch(received, /WebHook/);
      // The receiver goes away: the watch fails, and the batch ends with its answer.
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const socket of held) socket.destroy();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) received += Buffer.from(chunk.value).toString('utf8');
      assert.match(received, /Invalid WebHook address/);
      assert.match(received, /--\r\n$/);
    } finally {
      silent.close();
    }
  });

  it('answers a long poll (X-Desk-Wait) inside a batch at once: 1000 held parts would hold the batch for 16 hours', async () => {
    const start = ((await call('GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string }).startPageToken;
    const polls = Array.from({ length: 3 }, (): RawCall => ({ method: 'GET', path: `/drive/v2/changes?pageToken=${start}`, headers: { 'X-Desk-Wait': '60' } }));
    // Before, each part waited its 60 s for a change (the test's timeout is 20 s).
    const parts = readAnswers(await batch('/batch/drive/v2', polls));
    assert.deepEqual(parts.map((part) => part.status), [200, 200, 200]);
    assert.ok(parts.every((part) => changeListSchema.parse(part.json).items.length === 0));
  });
});

describe('batch requests: the time a batch may take', function () {
  this.timeout(20000);

  it('answers the calls it has not started once the batch\'s time is spent with 503, keeping the answers of those that ran', async () => {
    // A limit of 1 ms (60 s by default): the first call, held by a receiver that never answers, spends it.
    const emulator = await startEmulator({ port: 0, batchTimeLimitMs: 1 });
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const sentAt = Date.now();
      const answer = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken)('POST', '/batch/calendar/v3', {
        contentType: `multipart/mixed; boundary=${BOUNDARY}`,
        body: batchBody([
          { method: 'POST', path: '/calendar/v3/calendars/primary/events/watch', json: { id: 'slow-part', type: 'web_hook', address: `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}/` } },
          { method: 'GET', path: '/calendar/v3/colors' },
          { method: 'POST', path: '/calendar/v3/calendars', json: { summary: 'never made' } },
        ]),
      });
      // Released once the emulator is waiting on it and the limit has passed.
      while (held.length === 0 || Date.now() - sentAt < 5) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const socket of held) socket.destroy();
      const parts = readAnswers(await answer);
      assert.deepEqual(parts.map((part) => part.status), [400, 503, 503]);
      assert.equal(reasonOf(parts[1]), 'backendError');
      const calendars = (await emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken)('GET', '/calendar/v3/users/me/calendarList')).json as { items: { summary: string }[] };
      assert.equal(calendars.items.some((calendar) => calendar.summary === 'never made'), false, 'the refused call did not run');
    } finally {
      silent.close();
      await emulator.close();
    }
  });
});
