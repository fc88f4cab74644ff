import * as assert from 'node:assert/strict';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { driveFileSchema, fileListSchema } from '../../../../src/shared/schemas/drive';
import { emulatorHttp, expectGoogleError, HttpAnswer, HttpCallOptions } from '../../../support/emulatorHttp';

/**
 * Conditional requests as real Drive v2 answers them: `If-None-Match: *` on files.insert, metadata-only and every
 * upload type, is a 412 (as a suite recorded against real v2) and creates nothing; the etag conditions of the
 * other methods are unchanged.
 */
describe('Drive v2 conditional inserts (If-None-Match: *)', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    alice = emulator.tokenFor('alice@example.com').accessToken;
  });
  after(() => emulator.close());

  const call = (method: string, path: string, options: HttpCallOptions = {}): Promise<HttpAnswer> => emulatorHttp(emulator, () => alice)(method, path, options);
  const anyMatch = { 'If-None-Match': '*' };

  async function titles(): Promise<string[]> {
    return fileListSchema.parse((await call('GET', '/drive/v2/files?maxResults=1000')).json).items.map((file) => file.title ?? '');
  }

  function multipartBody(title: string): { body: string; contentType: string } {
    const boundary = 'conditional_boundary';
    return {
      contentType: `multipart/related; boundary=${boundary}`,
      body: `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ title })}\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--`,
    };
  }

  it('answers 412 conditionNotMet for a metadata insert, a media, a multipart and a resumable upload, and creates nothing', async () => {
    const refusals: Promise<HttpAnswer>[] = [
      call('POST', '/drive/v2/files', { json: { title: 'meta', mimeType: 'text/plain' }, headers: anyMatch }),
      call('POST', '/upload/drive/v2/files?uploadType=media', { body: Buffer.from('media bytes'), contentType: 'text/plain', headers: anyMatch }),
      call('POST', '/upload/drive/v2/files?uploadType=multipart', { ...multipartBody('multi'), headers: anyMatch }),
      call('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'resumable' }, headers: { ...anyMatch, 'X-Upload-Content-Type': 'text/plain' } }),
    ];
    for (const refusal of refusals) {
      const error = await expectGoogleError(refusal, 412, 'conditionNotMet');
      assert.equal(error.errors?.[0]?.location, 'If-None-Match');
    }
    assert.deepEqual((await titles()).filter((title) => ['meta', 'Untitled', 'multi', 'resumable'].includes(title)), []);
  });

  it('inserts as usual without the header, or with an If-None-Match naming an etag', async () => {
    const plain = await call('POST', '/drive/v2/files', { json: { title: 'plain' } });
    assert.equal(plain.status, 200);
    const named = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { ...multipartBody('named'), headers: { 'If-None-Match': '"some-etag"' } });
    assert.equal(named.status, 200, named.text);
    assert.equal(driveFileSchema.parse(named.json).title, 'named');
  });

  it('keeps If-None-Match on files.get (304) and If-Match on updates (412)', async () => {
    const file = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'etagged' } })).json);
    assert.equal((await call('GET', `/drive/v2/files/${file.id}`, { headers: { 'If-None-Match': file.etag ?? '' } })).status, 304);
    assert.equal((await call('GET', `/drive/v2/files/${file.id}`, { headers: anyMatch })).status, 304);
    await expectGoogleError(call('PATCH', `/drive/v2/files/${file.id}`, { json: { title: 'x' }, headers: { 'If-Match': '"stale"' } }), 412, 'conditionNotMet');
  });
});
