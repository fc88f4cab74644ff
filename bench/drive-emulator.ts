import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { EmulatorUser, findUser } from '../src/emulator/identity/users';
import { driveServiceFor } from '../src/emulator/drive/service';
import { startEmulator } from '../src/emulator/emulator';
import { childListSchema, FOLDER_MIME_TYPE, fileListSchema } from '../src/shared/schemas/drive';
import { ms, percentiles } from './support/stats';

/**
 * Drive emulator figures (printed, never asserted):
 *  1. files.list latency as alice's store grows from 1,000 to 100,000 files (100 per folder): a folder
 *     listing, children.list, an exact title query (indexed), and for contrast a title `contains` query and
 *     an unfiltered first page (both scan every file of the user).
 *  2. The first page of one 10,000-file folder.
 *  3. A 100 MB upload (resumable and multipart, streamed) and download through the emulator run as a child
 *     process with a durable data dir, with its peak RSS (VmHWM), to show content is streamed, not buffered.
 * Files for part 1 and 2 are inserted through the model (fast); every timed request goes over HTTP.
 */

const MILESTONES = [1000, 10_000, 50_000, 100_000];
const SAMPLES = 50;
const PER_FOLDER = 100;
const BIG_BYTES = 100 * 1024 * 1024;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function timed(samples: number, request: () => Promise<void>): Promise<string> {
  const values: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await request();
    values.push(performance.now() - started);
  }
  const { p50, p95 } = percentiles(values);
  return `${ms(p50)} / ${ms(p95)}`;
}

async function listingBenchmarks(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const { model } = driveServiceFor(emulator.deps);
    const token = emulator.tokenFor(alice.email).accessToken;
    const headers = { Authorization: `Bearer ${token}` };
    const get = async (url: string): Promise<unknown> => {
      const response = await fetch(`${emulator.url}${url}`, { headers });
      if (!response.ok) throw new Error(`${url} → ${response.status} ${await response.text()}`);
      return response.json();
    };
    const q = encodeURIComponent;

    console.log('drive emulator: files.list as the store grows (100 files per folder; p50 / p95 over HTTP, memory store)');
    console.log('files    | folder list (q in parents) | children.list       | title = (indexed)   | title contains (scan) | no q, first page (scan+sort)');
    let count = 0;
    let folderId = '';
    let watchedFolder = '';
    const fill = (target: number): void => {
      while (count < target) {
        if (count % PER_FOLDER === 0) folderId = model.insert(alice, { title: `folder-${count / PER_FOLDER}`, mimeType: FOLDER_MIME_TYPE }).id;
        if (!watchedFolder) watchedFolder = folderId;
        model.insert(alice, { title: `file-${count}.txt`, parents: [{ id: folderId }] });
        count++;
      }
    };
    for (const milestone of MILESTONES) {
      fill(milestone);
      const folderList = await timed(SAMPLES, async () => {
        const list = fileListSchema.parse(await get(`/drive/v2/files?q=${q(`'${watchedFolder}' in parents and trashed = false`)}&maxResults=100`));
        if (list.items.length !== PER_FOLDER) throw new Error(`expected ${PER_FOLDER} files, got ${list.items.length}`);
      });
      const children = await timed(SAMPLES, async () => {
        childListSchema.parse(await get(`/drive/v2/files/${watchedFolder}/children?maxResults=100`));
      });
      const title = await timed(SAMPLES, async () => {
        const list = fileListSchema.parse(await get(`/drive/v2/files?q=${q(`title = 'file-${Math.floor(milestone / 2)}.txt'`)}`));
        if (list.items.length !== 1) throw new Error('title query missed');
      });
      const contains = await timed(10, async () => {
        fileListSchema.parse(await get(`/drive/v2/files?q=${q("title contains 'file-99'")}`));
      });
      const unfiltered = await timed(5, async () => {
        fileListSchema.parse(await get('/drive/v2/files?maxResults=100'));
      });
      console.log(`${String(milestone).padEnd(8)} | ${folderList.padEnd(26)} | ${children.padEnd(19)} | ${title.padEnd(19)} | ${contains.padEnd(21)} | ${unfiltered}`);
    }

    // One big folder.
    const big = model.insert(alice, { title: 'big folder', mimeType: FOLDER_MIME_TYPE });
    for (let index = 0; index < 10_000; index++) model.insert(alice, { title: `big-${index}.txt`, parents: [{ id: big.id }] });
    const firstPage = await timed(SAMPLES, async () => {
      fileListSchema.parse(await get(`/drive/v2/files?q=${q(`'${big.id}' in parents`)}&maxResults=100`));
    });
    const firstPage1000 = await timed(10, async () => {
      fileListSchema.parse(await get(`/drive/v2/files?q=${q(`'${big.id}' in parents`)}&maxResults=1000`));
    });
    const childrenPage = await timed(SAMPLES, async () => {
      childListSchema.parse(await get(`/drive/v2/files/${big.id}/children?maxResults=100`));
    });
    console.log(`10,000-file folder, first page: files.list 100 items ${firstPage}; 1000 items ${firstPage1000}; children.list 100 ${childrenPage} (p50 / p95)`);
  } finally {
    await emulator.close();
  }
}

/** Restarts a process's peak-RSS counter (Linux ≥ 4.0), so a peak measures only what follows. */
function resetPeakMemory(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak then covers the process's whole life, as printed.
  }
}

/** Peak and current resident memory of a process (Linux /proc). */
function memoryOf(pid: number): { peak: number; current: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { peak: field('VmHWM'), current: field('VmRSS') };
  } catch {
    return { peak: 0, current: 0 };
  }
}

async function startChildEmulator(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const main = path.join(__dirname, '..', 'src', 'emulator', 'main.js');
  const child = spawn(process.execPath, [main, '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(buffered);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { child, url };
}

/** 100 MB of pseudo-random-looking bytes, generated as it is read (never held whole). */
function bigSource(size: number, hash: ReturnType<typeof createHash>): Readable {
  const block = Buffer.alloc(1024 * 1024);
  for (let index = 0; index < block.length; index++) block[index] = (index * 131 + 17) % 256;
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) {
        this.push(null);
        return;
      }
      const piece = block.subarray(0, Math.min(block.length, size - sent));
      sent += piece.length;
      hash.update(piece);
      this.push(Buffer.from(piece));
    },
  });
}

async function throughputBenchmarks(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-drive-bench-'));
  const { child, url } = await startChildEmulator(dataDir);
  try {
    const tokenResponse = await fetch(`${url}/emulator/v1/token?user=alice@example.com`, { method: 'POST' });
    const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    const drive = new DriveClient(new HttpClient({ rootUrl: () => url, token: async () => token }));
    await drive.about();
    const pid = child.pid as number;
    resetPeakMemory(pid);
    resetPeakMemory(process.pid);
    const baseline = memoryOf(pid);
    console.log(`drive emulator: 100 MB streamed through a child-process emulator (durable data dir, fsync before acknowledging); baseline RSS ${mb(baseline.current)}, client (this process) ${mb(memoryOf(process.pid).current)}`);

    for (const uploadType of ['resumable', 'multipart'] as const) {
      const hash = createHash('md5');
      const started = performance.now();
      const file = await drive.uploadFile({ title: `big-${uploadType}.bin` }, bigSource(BIG_BYTES, hash), { uploadType, size: BIG_BYTES, contentType: 'application/octet-stream', chunkSize: 8 * 1024 * 1024 });
      const seconds = (performance.now() - started) / 1000;
      const expected = hash.digest('hex');
      if (file.md5Checksum !== expected) throw new Error(`md5 mismatch after ${uploadType} upload`);
      const memory = memoryOf(pid);
      console.log(`upload ${uploadType.padEnd(9)}: ${(BIG_BYTES / 1024 / 1024 / seconds).toFixed(1)} MB/s (${seconds.toFixed(2)} s); emulator peak RSS so far ${mb(memory.peak)}; client peak RSS so far ${mb(memoryOf(process.pid).peak)}`);

      const downloadStarted = performance.now();
      const download = await drive.download(file.id);
      const downloadHash = createHash('md5');
      let received = 0;
      for await (const chunk of download.stream as AsyncIterable<Buffer>) {
        downloadHash.update(chunk);
        received += chunk.length;
      }
      const downloadSeconds = (performance.now() - downloadStarted) / 1000;
      if (received !== BIG_BYTES || downloadHash.digest('hex') !== expected) throw new Error('download differs from upload');
      console.log(`download          : ${(BIG_BYTES / 1024 / 1024 / downloadSeconds).toFixed(1)} MB/s (${downloadSeconds.toFixed(2)} s); emulator peak RSS so far ${mb(memoryOf(pid).peak)}; client peak RSS so far ${mb(memoryOf(process.pid).peak)}`);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  // Throughput first: the client's peak RSS (this process) must not include the 100,000-file listing store.
  await throughputBenchmarks();
  await listingBenchmarks();
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
