/**
 * Request bodies from hostile or broken clients, over raw sockets: a Content-Length beyond the emulator's limits, a
 * body that stops arriving or never ends (slowloris). Each gets Google's error format, and the connection is closed
 * rather than read to its end; JSON that is not UTF-8 is refused, not stored with replacement characters.
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { googleErrorBodySchema } from '../../../src/shared/schemas/errors';
import { EmulatorCall, emulatorHttp, expectGoogleError } from '../../support/emulatorHttp';

/** What the server sent on one connection, once it closed it; `write` feeds the request (and may keep feeding). */
interface Exchange {
  /** Everything the server sent. */
  readonly received: string;
  /** Bytes of request body the client had written when the server closed. */
  readonly bodyBytesWritten: number;
}

/** The status line, headers and parsed JSON body of the first response on a connection. */
function firstResponse(received: string): { status: number; headers: string; json: unknown } {
  const headEnd = received.indexOf('\r\n\r\n');
  assert.ok(headEnd > 0, `no response: ${JSON.stringify(received.slice(0, 200))}`);
  const head = received.slice(0, headEnd);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1]);
  return { status, headers: head, json: JSON.parse(received.slice(headEnd + 4, headEnd + 4 + length)) };
}

describe('hostile request bodies over raw sockets', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let token: string;
  before(async () => {
    // A short body timeout, so that a stalled body is answered within the test (the default is 60 s).
    emulator = await startEmulator({ port: 0, bodyTimeoutMs: 300 });
    token = emulator.tokenFor('alice@example.com').accessToken;
  });
  after(() => emulator.close());

  /** Opens a connection, sends `head`, then body bytes from `feed` until the server closes the connection. */
  /** `send` writes bytes once the earlier ones have left (back-pressure), and says false once the connection is closed. */
  function exchange(head: string, feed: (send: (bytes: string) => Promise<boolean>) => void): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(emulator.url).port), '127.0.0.1');
      let received = '';
      let bodyBytesWritten = 0;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
      });
      socket.on('error', () => undefined);
      socket.on('close', () => { resolve({ received, bodyBytesWritten }); });
      socket.on('connect', () => {
        socket.write(head);
        feed((bytes) => new Promise((resolveWrite) => {
          if (socket.destroyed || socket.writableEnded) { resolveWrite(false); return; }
          socket.write(bytes, (error) => {
            if (!error) bodyBytesWritten += bytes.length;
            resolveWrite(!error);
          });
        }));
      });
      setTimeout(() => { reject(new Error(`the server kept the connection open; it sent ${JSON.stringify(received.slice(0, 300))}`)); }, 15_000).unref();
    });
  }

  const post = (path: string, headers: string): string => `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${headers}\r\n`;

  it('answers a Content-Length beyond the JSON limit with 413 at once, without waiting for or reading the body, and closes', async () => {
    for (const path of ['/tasks/v1/users/@me/lists', '/calendar/v3/calendars/primary/events', '/drive/v2/files', '/batch/tasks/v1']) {
      // 1 TB announced, one byte sent: before, the server waited for the rest of the terabyte.
      const contentType = path.startsWith('/batch') ? 'Content-Type: multipart/mixed; boundary=b\r\n' : '';
      const head = post(path, `Content-Length: 1000000000000\r\n`);
      const { received } = await exchange(contentType ? head.replace('Content-Type: application/json\r\n', contentType) : head, (send) => void send('{'));
      const answer = firstResponse(received);
      assert.equal(answer.status, 413, `${path}: ${received.slice(0, 300)}`);
      assert.equal(googleErrorBodySchema.parse(answer.json).error.code, 413);
      assert.match(answer.headers, /^connection: close$/im);
    }
  });

  it('closes the connection after a 413 for a body that outgrows the limit, instead of reading the rest of it', async () => {
    // 64 MB announced, sent in 64 KB pieces as long as the connection is open: before, the server answered at 5 MB and
    // then read (and dropped) the whole 64 MB on a kept-alive connection.
    const piece = 'a'.repeat(64 * 1024);
    const total = 64 * 1024 * 1024;
    const { received, bodyBytesWritten } = await exchange(post('/tasks/v1/users/@me/lists', `Content-Length: ${total}\r\n`), (send) => {
      void (async () => {
        if (!(await send('{"title":"'))) return;
        for (let sent = 0; sent < total && (await send(piece)); sent += piece.length);
      })();
    });
    assert.equal(firstResponse(received).status, 413);
    assert.ok(bodyBytesWritten < total, `the client could write all ${total} bytes before the server closed`);
  });

  it('answers 408 and closes when a body stops arriving (a Content-Length longer than the body, a chunked body that never ends)', async () => {
    for (const [headers, body] of [
      ['Content-Length: 1000\r\n', '{"title":"short"}'],
      ['Transfer-Encoding: chunked\r\n', '5\r\n{"tit\r\n'],
    ] as const) {
      const { received } = await exchange(post('/tasks/v1/users/@me/lists', headers), (send) => void send(body));
      const answer = firstResponse(received);
      assert.equal(answer.status, 408, received.slice(0, 300));
      const error = googleErrorBodySchema.parse(answer.json).error;
      assert.equal(error.code, 408);
      assert.equal(error.errors?.[0]?.reason, 'requestTimeout');
      assert.match(answer.headers, /^connection: close$/im);
    }
  });

  it('answers 408 to a body trickled a few bytes at a time that would take longer than the body timeout to arrive (slowloris)', async () => {
    const { received } = await exchange(post('/tasks/v1/users/@me/lists', 'Transfer-Encoding: chunked\r\n'), (send) => {
      // A byte every 50 ms, never idle for the 300 ms body timeout, never ending.
      const timer = setInterval(() => {
        void send('1\r\n \r\n').then((open) => { if (!open) clearInterval(timer); });
      }, 50);
    });
    assert.equal(firstResponse(received).status, 408, received.slice(0, 300));
  });
});

describe('hostile bodies: JSON and uploads', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let call: EmulatorCall;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(() => emulator.close());

  it('refuses a JSON body that is not UTF-8 with 400 parseError instead of storing U+FFFD in place of its bytes', async () => {
    const body = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]); // Latin-1 é
    const error = await expectGoogleError(call('POST', '/tasks/v1/users/@me/lists', { body, contentType: 'application/json' }), 400, 'parseError');
    assert.match(error.message, /UTF-8/);
    const lists = (await call('GET', '/tasks/v1/users/@me/lists')).json as { items?: { title: string }[] };
    assert.equal((lists.items ?? []).some((list) => list.title.includes('\ufffd')), false, 'nothing was stored');
  });

  it('refuses a Calendar access rule for a megabyte-long address, as Drive refuses such a permission (320 characters at most)', async () => {
    const value = `${'a'.repeat(1_000_000)}@example.com`;
    const error = await expectGoogleError(call('POST', '/calendar/v3/calendars/primary/acl', { json: { role: 'reader', scope: { type: 'user', value } } }), 400, 'invalid');
    assert.equal(error.errors?.[0]?.location, 'scope.value');
    assert.ok(error.message.length < 500, 'the message does not echo the value');
    const rules = (await call('GET', '/calendar/v3/calendars/primary/acl')).json as { items: { id: string }[] };
    assert.equal(rules.items.some((rule) => rule.id.length > 1000), false, 'no rule was made');
  });

  it('converts an upload of HTML full of unclosed tags in one pass: 2 MB of `<` and `<script` (quadratic before: 80 KB of `<` took 2 s, 10 MB hours)', async () => {
    const cases: Array<[html: string, text: string]> = [
      // Nothing is a complete tag or element: the text is what was sent.
      ['<'.repeat(2_000_000), '<'.repeat(2_000_000)],
      ['<script'.repeat(300_000), '<script'.repeat(300_000)],
      // No style element ends, and one tag runs from the first `<style` to the last `>`.
      [`<p>kept</p>${'<style'.repeat(300_000)}<head>`, 'kept'],
    ];
    for (const [html, text] of cases) {
      const uploaded = await call('POST', '/upload/drive/v2/files?uploadType=media&convert=true', { body: html, contentType: 'text/html' });
      assert.equal(uploaded.status, 200, uploaded.text.slice(0, 300));
      const file = uploaded.json as { id: string; mimeType: string };
      assert.equal(file.mimeType, 'application/vnd.google-apps.document');
      const exported = await call('GET', `/drive/v2/files/${file.id}/export?mimeType=text/plain`);
      assert.equal(exported.text, text);
    }
  });
});
