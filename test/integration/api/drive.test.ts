import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { Readable } from 'node:stream';
import nodeFetch from 'node-fetch';
import { DriveClient } from '../../../src/api/drive';
import { GoogleApiError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { driveServiceFor } from '../../../src/emulator/drive/service';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { FOLDER_MIME_TYPE, GOOGLE_DOC_MIME_TYPE } from '../../../src/shared/schemas/drive';

const FAST_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const md5 = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index++) bytes[index] = (index * 31 + 7) % 256;
  return bytes;
}

describe('DriveClient against the emulator', function () {
  this.timeout(30000);
  let emulator: RunningEmulator;
  let drive: DriveClient;
  const requests: string[] = [];

  function clientFor(email: string, fetch?: FetchFunction): DriveClient {
    const token = emulator.tokenFor(email).accessToken;
    return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: FAST_RETRY, ...(fetch ? { fetch } : {}) }));
  }

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    drive = clientFor('alice@example.com', (url, init) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
      return nodeFetch(url, init);
    });
  });
  after(() => emulator.close());

  it('reads the seeded My Drive: about, root children, a native Doc export, the trash', async () => {
    const about = await drive.about();
    assert.equal(about.user?.emailAddress, 'alice@example.com');
    assert.equal(about.deskLongPoll, true);
    const top = await drive.listFiles({ q: `'root' in parents and trashed = false`, orderBy: 'folder,title' });
    const titles = top.items.map((item) => item.title);
    assert.ok(['Notes', 'Photos', 'Projects'].every((title) => titles.includes(title)), titles.join());
    assert.equal(top.items[0]?.mimeType, FOLDER_MIME_TYPE);
    const projects = top.items.find((item) => item.title === 'Projects');
    const inProjects = await drive.listFiles({ q: `'${String(projects?.id)}' in parents` });
    const plan = inProjects.items.find((item) => item.mimeType === GOOGLE_DOC_MIME_TYPE);
    assert.ok(plan);
    assert.match((await drive.exportFile(plan.id, 'text/plain')).toString('utf8'), /Project plan/);
    const trashed = await drive.listFiles({ q: 'trashed = true' });
    assert.ok(trashed.items.length >= 1);
    const starred = await drive.listFiles({ q: 'starred = true' });
    assert.ok(starred.items.length >= 1);
    const desk = (await drive.listFiles({ q: "title = 'Desk'" })).items.at(0);
    const children = await drive.listChildren(desk?.id ?? 'missing');
    assert.ok(children.items.length >= 3);
  });

  it('creates folders and files, iterates every page, and moves files between folders', async () => {
    const box = await drive.insertFolder('Client box');
    assert.equal(box.mimeType, FOLDER_MIME_TYPE);
    for (let index = 0; index < 7; index++) await drive.insertFile({ title: `file ${index}`, parents: [{ id: box.id }] });
    const all = await collect(drive.allFiles({ q: `'${box.id}' in parents`, maxResults: 3, orderBy: 'title' }));
    assert.deepEqual(all.map((file) => file.title), Array.from({ length: 7 }, (_, index) => `file ${index}`));

    const other = await drive.insertFolder('Other box');
    const first = all[0];
    assert.ok(first);
    const moved = await drive.patchFile(first.id, { title: 'moved' }, { addParents: [other.id], removeParents: [box.id] });
    assert.deepEqual(moved.parents?.map((parent) => parent.id), [other.id]);
    await drive.insertChild(box.id, first.id);
    assert.equal((await drive.getChild(box.id, first.id)).id, first.id);
    assert.equal((await drive.listParents(first.id)).items.length, 2);
    assert.equal((await drive.getParent(first.id, other.id)).id, other.id);
    await drive.deleteParent(first.id, other.id);
    await drive.deleteChild(box.id, first.id);
    assert.deepEqual((await drive.listParents(first.id)).items, []);
    await drive.insertParent(first.id, 'root');
    assert.equal((await drive.listParents(first.id)).items[0]?.isRoot, true);
  });

  it('uploads with each protocol from Buffers and streams, and downloads the same bytes', async () => {
    const small = Buffer.from('small multipart content');
    const multipart = await drive.uploadFile({ title: 'small.txt', mimeType: 'text/plain' }, small);
    assert.equal(multipart.md5Checksum, md5(small));
    assert.equal(multipart.title, 'small.txt');

    const media = await drive.uploadFile({ title: 'media.bin' }, Readable.from([Buffer.from('abc'), Buffer.from('def')]), { uploadType: 'media', size: 6, contentType: 'application/x-test' });
    assert.equal(media.title, 'media.bin');
    assert.equal(media.fileSize, '6');
    assert.equal(media.mimeType, 'application/x-test');

    const streamedMultipart = await drive.uploadFile({ title: 'streamed.txt' }, Readable.from([Buffer.from('one '), Buffer.from('two')]), { uploadType: 'multipart', contentType: 'text/plain' });
    assert.equal(streamedMultipart.md5Checksum, md5('one two'));

    const big = patterned(1024 * 1024 + 12345);
    const progress: number[] = [];
    const resumable = await drive.uploadFile({ title: 'big.bin' }, Readable.from(chunksOf(big, 100_000)), { uploadType: 'resumable', size: big.length, chunkSize: 256 * 1024, onProgress: (sent) => progress.push(sent) });
    assert.equal(resumable.fileSize, String(big.length));
    assert.equal(resumable.md5Checksum, md5(big));
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b));
    assert.equal(progress[progress.length - 1], big.length);

    const unknownSize = await drive.uploadFile({ title: 'unknown.bin' }, Readable.from(chunksOf(big.subarray(0, 600_000), 50_000)), { uploadType: 'resumable', chunkSize: 256 * 1024 });
    assert.equal(unknownSize.md5Checksum, md5(big.subarray(0, 600_000)));

    const empty = await drive.uploadFile({ title: 'empty.bin' }, Buffer.alloc(0), { uploadType: 'resumable' });
    assert.equal(empty.fileSize, '0');

    const download = await drive.download(resumable.id);
    assert.equal(download.size, big.length);
    assert.equal(download.etag, resumable.etag);
    assert.ok((await readAll(download.stream)).equals(big));
  });

  it('resumes a resumable upload after a chunk dies mid-way, from the Range the server reports', async () => {
    const content = patterned(3 * 256 * 1024 + 999);
    let sabotaged = 0;
    const ranges: string[] = [];
    const flaky: FetchFunction = async (url, init) => {
      const headers = new Map(Object.entries((init?.headers as { raw?: () => Record<string, string[]> } | undefined)?.raw?.() ?? {}).map(([key, value]) => [key.toLowerCase(), value[0] ?? '']));
      const range = headers.get('content-range');
      if (range) ranges.push(range);
      if (range?.startsWith(`bytes ${256 * 1024}-`) && sabotaged === 0 && Buffer.isBuffer(init?.body)) {
        sabotaged++;
        // Send the first 100,000 bytes of the chunk, then drop the connection, as a flaky network does.
        const target = new URL(url);
        await new Promise<void>((resolve) => {
          const request = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: 'PUT', headers: { ...Object.fromEntries(headers), 'content-length': String((init.body as Buffer).length) } });
          request.on('error', () => { resolve(); });
          request.write((init.body as Buffer).subarray(0, 100_000), () => {
            // Drop the connection once the server has stored what was sent (polled, not slept).
            const uploadId = target.searchParams.get('upload_id') as string;
            const blobs = driveServiceFor(emulator.deps).blobs;
            void (async () => {
              for (let attempt = 0; attempt < 1000 && (await blobs.partSize(uploadId)) < 256 * 1024 + 100_000; attempt++) await new Promise((wait) => setTimeout(wait, 10));
              request.destroy();
              resolve();
            })();
          });
        });
        throw new Error('socket hang up');
      }
      return nodeFetch(url, init);
    };
    const client = clientFor('alice@example.com', flaky);
    const file = await client.uploadFile({ title: 'resumed.bin' }, content, { uploadType: 'resumable', chunkSize: 256 * 1024 });
    assert.equal(sabotaged, 1);
    assert.ok(ranges.includes(`bytes */${content.length}`), `a status query was made: ${ranges.join(' | ')}`);
    const resumedFrom = ranges.find((range, index) => index > ranges.indexOf(`bytes */${content.length}`) && !range.startsWith('bytes */'));
    assert.ok(resumedFrom?.startsWith(`bytes ${256 * 1024 + 100_000}-`), `resumed where the server stopped: ${String(resumedFrom)}`);
    assert.equal(file.md5Checksum, md5(content));
    assert.ok((await readAll((await client.download(file.id)).stream)).equals(content));
  });

  it('updates content and metadata with etags: 412 as a conflict, 304 as undefined', async () => {
    const file = await drive.uploadFile({ title: 'etag.txt', mimeType: 'text/plain' }, Buffer.from('v1'));
    assert.equal(await drive.getFile(file.id, { ifNoneMatch: file.etag as string }), undefined);
    const updated = await drive.updateFile(file.id, { title: 'etag-v2.txt' }, { content: Buffer.from('version two'), ifMatch: file.etag });
    assert.equal(updated.title, 'etag-v2.txt');
    assert.equal(updated.md5Checksum, md5('version two'));
    const fresh = await drive.getFile(file.id, { ifNoneMatch: file.etag as string });
    assert.equal(fresh?.etag, updated.etag);
    await assert.rejects(drive.patchFile(file.id, { title: 'lost update' }, { ifMatch: file.etag }), (error: unknown) => error instanceof GoogleApiError && error.isConflict);
    await assert.rejects(drive.deleteFile(file.id, { ifMatch: file.etag }), (error: unknown) => error instanceof GoogleApiError && error.status === 412);
    await assert.rejects(drive.trashFile(file.id, { ifMatch: file.etag }), (error: unknown) => error instanceof GoogleApiError && error.status === 412);
    const metadataOnly = await drive.updateFile(file.id, { description: 'described' }, { ifMatch: updated.etag });
    assert.equal(metadataOnly.description, 'described');
    assert.equal(metadataOnly.md5Checksum, md5('version two'));
  });

  it('replaces content with a resumable update, conditional on the etag', async () => {
    const file = await drive.uploadFile({ title: 'grow.bin' }, Buffer.from('small'), { contentType: 'application/octet-stream' });
    const bigger = patterned(600_000);
    const updated = await drive.updateFile(file.id, { description: 'grown' }, { content: Readable.from(chunksOf(bigger, 64_000)), size: bigger.length, uploadType: 'resumable', chunkSize: 256 * 1024, ifMatch: file.etag });
    assert.equal(updated.id, file.id);
    assert.equal(updated.fileSize, String(bigger.length));
    assert.equal(updated.md5Checksum, md5(bigger));
    assert.equal(updated.description, 'grown');
    assert.ok((await readAll((await drive.download(file.id)).stream)).equals(bigger));
    await assert.rejects(
      drive.updateFile(file.id, {}, { content: bigger, uploadType: 'resumable', ifMatch: file.etag }),
      (error: unknown) => error instanceof GoogleApiError && error.status === 412,
    );
  });

  it('copies, touches, trashes, untrashes, empties the trash and deletes', async () => {
    const file = await drive.uploadFile({ title: 'lifecycle.txt', mimeType: 'text/plain' }, Buffer.from('life'));
    const copy = await drive.copyFile(file.id, { title: 'lifecycle copy.txt' });
    assert.equal(copy.md5Checksum, file.md5Checksum);
    const touched = await drive.touchFile(file.id);
    assert.ok(Number(touched.version) > Number(file.version));
    assert.equal((await drive.trashFile(file.id)).labels?.trashed, true);
    assert.equal((await drive.untrashFile(file.id)).labels?.trashed, false);
    await drive.trashFile(copy.id);
    await drive.emptyTrash();
    await assert.rejects(drive.getFile(copy.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
    await drive.deleteFile(file.id);
    await assert.rejects(drive.getFile(file.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound && error.message === `File not found: ${file.id}`);
    const ids = await drive.generateIds(4);
    assert.equal(ids.length, 4);
    const chosen = await drive.insertFile({ id: ids[0], title: 'chosen' });
    assert.equal(chosen.id, ids[0]);
  });

  it('an insert under a generated id survives a lost answer: the retry finds the file instead of making a second', async () => {
    let lost = 0;
    const losesFirstInsertAnswer: FetchFunction = async (url, init) => {
      const response = await nodeFetch(url, init);
      if (init?.method === 'POST' && new URL(url).pathname === '/drive/v2/files' && lost === 0) {
        lost++;
        await response.arrayBuffer();
        // The server made the folder; the client never hears so.
        throw new Error('socket hang up');
      }
      return response;
    };
    const flaky = clientFor('alice@example.com', losesFirstInsertAnswer);
    const [id] = await flaky.generateIds(1);
    assert.ok(id);
    const folder = await flaky.insertFileWithId({ id, title: 'once only', mimeType: FOLDER_MIME_TYPE });
    assert.equal(lost, 1, 'the first answer was dropped');
    assert.equal(folder.id, id);
    const same = await drive.listFiles({ q: `title = 'once only' and trashed = false` });
    assert.deepEqual(same.items.map((item) => item.id), [id]);
  });

  it('refuses to download a native document and exports it instead', async () => {
    const doc = await drive.uploadFile({ title: 'Converted' }, Buffer.from('Hello\nWorld'), { contentType: 'text/plain', convert: true });
    assert.equal(doc.mimeType, GOOGLE_DOC_MIME_TYPE);
    await assert.rejects(drive.download(doc.id), (error: unknown) => error instanceof GoogleApiError && error.reason === 'fileNotDownloadable');
    assert.match((await drive.exportFile(doc.id, 'text/html')).toString('utf8'), /<p>World<\/p>/);
  });

  it('follows the change feed, page by page, and long-polls when the server announces it', async () => {
    const bob = clientFor('bob@example.com');
    const start = await bob.getStartPageToken();
    assert.equal(bob.supportsLongPoll, true);
    const made = await bob.insertFolder('feed');
    const page = await bob.listChanges({ pageToken: start });
    assert.deepEqual(page.items.map((item) => item.fileId), [made.id]);
    assert.ok(page.newStartPageToken);
    assert.equal((await bob.getChange(page.items[0]?.id ?? '')).fileId, made.id);

    const waiting = bob.listChanges({ pageToken: page.newStartPageToken, waitSeconds: 20 });
    setTimeout(() => {
      void bob.insertFile({ title: 'arrived', parents: [{ id: made.id }] });
    }, 100);
    const woken = await waiting;
    assert.equal(woken.items[0]?.file?.title, 'arrived');

    await assert.rejects(bob.listChanges({ pageToken: 'nonsense' }), (error: unknown) => error instanceof GoogleApiError && error.status === 400);
  });

  it('never asks a server that did not announce long polling to hold a request', async () => {
    const sentWait: (string | null)[] = [];
    // Google's answers carry no announcement: strip the emulator's.
    const googleLike: FetchFunction = async (url, init) => {
      sentWait.push(new Headers(Object.fromEntries(Object.entries((init?.headers as { raw(): Record<string, string[]> }).raw()).map(([key, values]) => [key, values.join(',')]))).get('x-desk-wait'));
      const response = await nodeFetch(url, init);
      response.headers.delete('x-desk-long-poll');
      return response;
    };
    const client = clientFor('carol@example.com', googleLike);
    const token = await client.getStartPageToken();
    assert.equal(client.supportsLongPoll, false);
    const page = await client.listChanges({ pageToken: token, waitSeconds: 30 });
    assert.deepEqual(page.items, []);
    assert.deepEqual(sentWait, [null, null]);
  });

  it('lists and gets apps', async () => {
    const apps = await drive.listApps();
    assert.ok(apps.items.length >= 2);
    assert.equal((await drive.getApp(apps.items[0]?.id ?? '')).id, apps.items[0]?.id);
  });
});

function* chunksOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}
