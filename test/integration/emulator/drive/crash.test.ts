import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { bundleEmulator, Child, killHard, startChild, tokenFor } from '../../../support/emulatorChild';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

interface Listed {
  id: string;
  md5Checksum?: string;
  fileSize?: string;
}

/**
 * kill -9 while content is being replaced and files deleted: after every restart, each file the emulator still
 * lists downloads whole and matches its md5. A file whose metadata pointed at removed content would answer its
 * headers and then reset (the defect this guards against).
 */
describe('Drive content survives kill -9 during updates and deletes (emulator as a child process)', function () {
  this.timeout(120_000);
  let work: string;
  let bundle: string;
  const running: Child[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'desk-drive-crash-'));
    bundle = path.join(work, 'emulator.js');
    await bundleEmulator(bundle);
  });
  after(async () => {
    for (const child of running) await killHard(child);
    rmSync(work, { recursive: true, force: true });
  });

  async function start(dataDir: string): Promise<Child> {
    const child = await startChild(bundle, ['--data-dir', dataDir]);
    running.push(child);
    return child;
  }

  async function listAll(url: string, token: string): Promise<Listed[]> {
    const response = await fetch(`${url}/drive/v2/files?maxResults=1000&q=${encodeURIComponent("mimeType = 'application/octet-stream'")}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
    return ((await response.json()) as { items: Listed[] }).items;
  }

  it('keeps every listed file downloadable and intact across 8 crash rounds', async () => {
    const dataDir = path.join(work, 'data');
    let uploads = 0;
    for (let round = 0; round < 8; round++) {
      const child = await start(dataDir);
      const token = await tokenFor(child.url, 'alice@example.com');
      const auth = { Authorization: `Bearer ${token}` };
      // Every file the last run left must be whole before this round changes anything.
      for (const file of await listAll(child.url, token)) {
        const response = await fetch(`${child.url}/drive/v2/files/${file.id}?alt=media`, { headers: auth });
        assert.equal(response.status, 200, `round ${round}: ${file.id} → ${response.status}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        assert.equal(md5(bytes), file.md5Checksum, `round ${round}: ${file.id} content does not match its md5`);
        assert.equal(String(bytes.length), file.fileSize);
      }
      // Create a few files, then replace and delete content concurrently and kill the process mid-way.
      const created: string[] = [];
      for (let index = 0; index < 4; index++) {
        const response = await fetch(`${child.url}/upload/drive/v2/files?uploadType=media`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/octet-stream' },
          body: Buffer.alloc(64 * 1024 + index, uploads++ % 251),
        });
        assert.equal(response.status, 200);
        created.push(((await response.json()) as { id: string }).id);
      }
      const inFlight = created.flatMap((id, index) => [
        fetch(`${child.url}/upload/drive/v2/files/${id}?uploadType=media`, {
          method: 'PUT',
          headers: { ...auth, 'Content-Type': 'application/octet-stream' },
          body: Buffer.alloc(128 * 1024 + index, uploads++ % 251),
        }).catch(() => undefined),
        ...(index % 2 === 0 ? [fetch(`${child.url}/drive/v2/files/${id}`, { method: 'DELETE', headers: auth }).catch(() => undefined)] : []),
      ]);
      // Kill after a round-dependent delay, so crashes land at different points of the writes.
      await new Promise((resolve) => setTimeout(resolve, 2 + round * 3));
      await killHard(child);
      await Promise.all(inFlight);
    }
    const last = await start(dataDir);
    const token = await tokenFor(last.url, 'alice@example.com');
    for (const file of await listAll(last.url, token)) {
      const response = await fetch(`${last.url}/drive/v2/files/${file.id}?alt=media`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(md5(Buffer.from(await response.arrayBuffer())), file.md5Checksum);
    }
    await killHard(last);
  });
});
