/** Resumable upload sessions a client opens and never finishes: how many the emulator keeps for one user. */
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
