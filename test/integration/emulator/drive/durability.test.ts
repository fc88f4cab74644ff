import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DriveClient } from '../../../../src/api/drive';
import { HttpClient } from '../../../../src/api/http';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';

function clientOf(emulator: RunningEmulator): DriveClient {
  const token = emulator.tokenFor('alice@example.com').accessToken;
  return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
}

describe('Drive emulator with a data directory', function () {
  this.timeout(20000);
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-drive-durable-'));
  });
  after(() => { fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('keeps files, content, folder indexes, the change feed and an open upload session across a restart', async () => {
    const first = await startEmulator({ port: 0, dataDir });
    const drive = clientOf(first);
    const folder = await drive.insertFolder('Durable');
    const file = await drive.uploadFile({ title: 'kept.txt', parents: [{ id: folder.id }], mimeType: 'text/plain' }, Buffer.from('still here'));
    const token = await drive.getStartPageToken();
    // Half of a resumable upload, left open.
    const content = Buffer.alloc(300 * 1024, 3);
    const accessToken = first.tokenFor('alice@example.com').accessToken;
    const opened = await fetch(`${first.url}/upload/drive/v2/files?uploadType=resumable`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', 'X-Upload-Content-Length': String(content.length) },
      body: JSON.stringify({ title: 'half.bin' }),
    });
    const session = new URL(opened.headers.get('location') as string);
    const chunk = await fetch(`${first.url}${session.pathname}${session.search}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Range': `bytes 0-${256 * 1024 - 1}/${content.length}` },
      body: content.subarray(0, 256 * 1024),
    });
    assert.equal(chunk.status, 308);
    await first.close();
    // Leftovers of a crash between writing content and committing its metadata.
    const orphan = path.join(dataDir, 'blobs', 'orphanBlobFromACrash');
    const temporary = path.join(dataDir, 'blobs', 'uploads', 'interrupted.tmp');
    fs.writeFileSync(orphan, 'nobody names me');
    fs.writeFileSync(temporary, 'half written');

    const second = await startEmulator({ port: 0, dataDir });
    assert.equal(fs.existsSync(orphan), false, 'orphaned blob swept');
    assert.equal(fs.existsSync(temporary), false, 'temporary file swept');
    try {
      const again = clientOf(second);
      const listed = await again.listFiles({ q: `'${folder.id}' in parents` });
      assert.deepEqual(listed.items.map((item) => item.id), [file.id]);
      assert.deepEqual((await again.listFiles({ q: "title = 'kept.txt'" })).items.map((item) => item.id), [file.id]);
      const download = await again.download(file.id);
      const chunks: Buffer[] = [];
      for await (const piece of download.stream as AsyncIterable<Buffer>) chunks.push(piece);
      assert.equal(Buffer.concat(chunks).toString('utf8'), 'still here');

      await again.trashFile(file.id);
      const changes = await again.listChanges({ pageToken: token });
      assert.deepEqual(changes.items.map((item) => item.fileId), [file.id]);
      assert.ok(Number(changes.items[0]?.id) >= Number(token));

      const secondToken = second.tokenFor('alice@example.com').accessToken;
      const status = await fetch(`${second.url}${session.pathname}${session.search}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${secondToken}`, 'Content-Range': `bytes */${content.length}` },
      });
      assert.equal(status.status, 308);
      assert.equal(status.headers.get('range'), `bytes=0-${256 * 1024 - 1}`);
      const finished = await fetch(`${second.url}${session.pathname}${session.search}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${secondToken}`, 'Content-Range': `bytes ${256 * 1024}-${content.length - 1}/${content.length}` },
        body: content.subarray(256 * 1024),
      });
      assert.equal(finished.status, 200);
      const half = (await finished.json()) as { fileSize: string; title: string };
      assert.equal(half.title, 'half.bin');
      assert.equal(half.fileSize, String(content.length));
    } finally {
      await second.close();
    }
  });
});
