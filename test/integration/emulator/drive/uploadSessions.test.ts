/** Resumable upload sessions: how incomplete chunks are answered (308, or 200 with an override for Go), and how many sessions a user that never finishes keeps. */
import * as assert from 'node:assert/strict';
import { MAX_UPLOAD_SESSIONS_PER_USER } from '../../../../src/emulator/drive/content/uploads';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { EmulatorCall, emulatorHttp, expectGoogleError } from '../../../support/emulatorHttp';

describe('Drive resumable sessions never finished', function () {
  this.timeout(60_000);
  let emulator: RunningEmulator;
  let call: EmulatorCall;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(() => emulator.close());

  const open = async (title: string): Promise<string> => {
    const answer = await call('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title, description: 'd'.repeat(30_000) }, headers: { 'X-Upload-Content-Length': '10' } });
    assert.equal(answer.status, 200, answer.text);
    const location = new URL(answer.headers.get('location') as string);
    return location.pathname + location.search;
  };

  it('answers an incomplete chunk 308 with Range, or, to a client that sends X-GUploader-No-308: yes (Google\'s Go client), 200 with X-HTTP-Status-Code-Override: 308 and the same Range', async () => {
    const session = await open('go-client');
    const noRedirect = { 'X-GUploader-No-308': 'yes' };
    const first = await call('PUT', session, { body: Buffer.from('01234'), headers: { ...noRedirect, 'Content-Range': 'bytes 0-4/*' } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('x-http-status-code-override'), '308');
    assert.equal(first.headers.get('range'), 'bytes=0-4');
    assert.equal(first.text, '', 'no file yet: the body is empty');
    const asked = await call('PUT', session, { body: Buffer.alloc(0), headers: { ...noRedirect, 'Content-Range': 'bytes */*' } });
    assert.equal(asked.status, 200);
    assert.equal(asked.headers.get('x-http-status-code-override'), '308');
    assert.equal(asked.headers.get('range'), 'bytes=0-4');
    const plain = await call('PUT', session, { body: Buffer.alloc(0), headers: { 'Content-Range': 'bytes */*' } });
    assert.equal(plain.status, 308, 'other clients still get the 308');
    assert.equal(plain.headers.get('range'), 'bytes=0-4');
    assert.equal(plain.headers.get('x-http-status-code-override'), null);
    const last = await call('PUT', session, { body: Buffer.from('56789'), headers: { ...noRedirect, 'Content-Range': 'bytes 5-9/10' } });
    assert.equal(last.status, 200, last.text);
    assert.equal(last.headers.get('x-http-status-code-override'), null, 'the finished upload answers the file');
    assert.equal((last.json as { fileSize: string }).fileSize, '10');
  });

  it(`keeps a user's ${MAX_UPLOAD_SESSIONS_PER_USER} most recent sessions: an older one is forgotten (404) rather than memory growing with every session opened`, async () => {
    const first = await open('first');
    for (let batch = 0; batch < MAX_UPLOAD_SESSIONS_PER_USER / 50; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_unused, index) => open(`more-${batch}-${index}`)));
    }
    const sessions = emulator.deps.store.collection<{ userId: string }>('drive.uploads');
    assert.ok(sessions.size <= MAX_UPLOAD_SESSIONS_PER_USER, `${sessions.size} sessions kept`);
    await expectGoogleError(call('PUT', first, { body: Buffer.from('0123456789'), headers: { 'Content-Range': 'bytes 0-9/10' } }), 404, 'notFound');
    // Recent sessions still work, and another user's sessions are not counted against this one's.
    const recent = await open('recent');
    const done = await call('PUT', recent, { body: Buffer.from('0123456789'), headers: { 'Content-Range': 'bytes 0-9/10' } });
    assert.equal(done.status, 200, done.text);
    const bob = emulatorHttp(emulator, () => emulator.tokenFor('bob@example.com').accessToken);
    assert.equal((await bob('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'bob' } })).status, 200);
  });
});
