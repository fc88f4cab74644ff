import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunningEmulator, startEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, EmulatorCall, expectGoogleError } from '../../../support/emulatorHttp';

/** Files in the blob store (content and upload temporaries): a refused upload must leave none behind. */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  return fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(root, name)).isFile());
}

function multipart(parts: ReadonlyArray<{ type: string; body: string }>): string {
  return [...parts.flatMap((part) => ['--xyz', `Content-Type: ${part.type}`, '', part.body]), '--xyz--', ''].join('\r\n');
}

describe('Drive multipart uploads that are malformed', function () {
  this.timeout(30000);
  let emulator: RunningEmulator;
  let dataDir: string;
  let call: EmulatorCall;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-multipart-'));
    emulator = await startEmulator({ port: 0, dataDir });
    const token = emulator.tokenFor('alice@example.com').accessToken;
    call = emulatorHttp(emulator, () => token);
  });
  after(async () => {
    await emulator.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads parts delimited by bare LF lines, as Python\'s client writes them, keeping the content byte for byte', async () => {
    // googleapiclient's email generator: LF line ends, a quoted boundary with '=' in it, MIME-Version headers.
    const boundary = '===============8472118545431377424==';
    const media = 'line one\r\nline two\nbinary \u0000\u00ff end';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\nContent-Type: application/json\nMIME-Version: 1.0\n\n{"title":"from-python.txt"}\n--${boundary}\nContent-Type: text/plain\nMIME-Version: 1.0\nContent-Transfer-Encoding: binary\n\n`),
      Buffer.from(media, 'latin1'),
      Buffer.from(`\n--${boundary}--\n`),
    ]);
    const answer = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body, contentType: `multipart/related; boundary="${boundary}"` });
    assert.equal(answer.status, 200, answer.text);
    const file = answer.json as { id: string; title: string; mimeType: string; fileSize: string };
    assert.equal(file.title, 'from-python.txt');
    assert.equal(file.mimeType, 'text/plain');
    const content = await call('GET', `/drive/v2/files/${file.id}?alt=media`);
    assert.deepEqual(content.bytes, Buffer.from(media, 'latin1'));
    const cut = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body: body.subarray(0, body.length - boundary.length - 6), contentType: `multipart/related; boundary="${boundary}"` });
    assert.equal(cut.status, 400, 'a body without its closing delimiter is still refused');
  });

  it('answers a body of three parts with a 400, small or large, and keeps none of its bytes', async () => {
    const before = storedFiles(dataDir);
    for (const media of ['hello', 'x'.repeat(300_000)]) {
      const body = multipart([{ type: 'application/json', body: '{"title":"three parts"}' }, { type: 'text/plain', body: media }, { type: 'text/plain', body: 'third' }]);
      const answer = call('POST', '/upload/drive/v2/files?uploadType=multipart', { body, contentType: 'multipart/related; boundary=xyz' });
      await expectGoogleError(answer, 400, 'badRequest');
    }
    assert.deepEqual(storedFiles(dataDir), before);
    const listed = await call('GET', `/drive/v2/files?q=${encodeURIComponent("title = 'three parts'")}`);
    assert.deepEqual((listed.json as { items: unknown[] }).items, []);
  });

  it('answers other malformed bodies with a 400 and releases them (no descriptor left open)', async () => {
    const descriptors = (): number => fs.readdirSync('/proc/self/fd').length;
    const bodies = [
      '--xyz\r\nContent-Type: application/json\r\n\r\n{"title":\r\n--xyz--\r\n',
      '--xyz\r\nContent-Type: application/json\r\n\r\n{}\r\n--xyz--\r\n',
      'no boundary at all',
      multipart([{ type: 'application/json', body: '{}' }, { type: 'text/plain', body: 'a' }, { type: 'text/plain', body: 'b' }, { type: 'text/plain', body: 'c' }]),
    ];
    const before = descriptors();
    for (let round = 0; round < 5; round++) {
      for (const body of bodies) {
        const answer = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body, contentType: 'multipart/related; boundary=xyz' });
        assert.equal(answer.status, 400, answer.text);
      }
    }
    assert.ok(descriptors() <= before + 3, `descriptors grew from ${before} to ${descriptors()}`);
    assert.deepEqual(storedFiles(dataDir).filter((name) => name.endsWith('.tmp')), []);
  });
});
