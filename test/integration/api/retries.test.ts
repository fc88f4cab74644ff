// Writes under injected faults, over HTTP: every write the API cannot deduplicate is reconciled or carries a chosen
// id, so each call succeeds and leaves exactly one resource, also when an answer is lost after the server acted.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import nodeFetch, { RequestInit, Response } from 'node-fetch';
import { DriveClient } from '../../../src/api/drive';
import { GoogleApiError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { TasksClient } from '../../../src/api/tasks';
import { seededRandom } from '../../../src/emulator/core/random';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { DriveFile, FOLDER_MIME_TYPE } from '../../../src/shared/schemas/drive';

/**
 * Enough attempts that a 50% fault rate practically never exhausts them: a call meets a fault on every one of n attempts
 * with probability 2^-n. 14 did so about once in 140 runs of this file (~120 calls under faults), and the client then
 * rightly reports the failure; 30 make it about once in nine million. Retry-After capped so no test waits a second.
 */
const PATIENT: RetryPolicy = { maxAttempts: 30, baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 2 };
const FAULT_RATE = 0.5;
/** Each test under faults draws them from a seed, printed when it fails: DESK_FAULT_SEED=<seed> replays the same faults. */
const REPLAY_SEED = process.env['DESK_FAULT_SEED'] === undefined ? undefined : Number(process.env['DESK_FAULT_SEED']);

interface Recorded {
  fetch: FetchFunction;
  /** `METHOD /path -> status` (or `-> lost`, `-> fake 503`) per request. */
  log: string[];
}

/**
 * node-fetch with a saboteur: for the first `times` requests `drop` matches, either the answer is lost after the server
 * acted ('lost', as a reset connection after the write), or a 503 is made up without forwarding ('unsent').
 */
function sabotaged(drop: (method: string, pathname: string, init: RequestInit | undefined) => boolean, how: 'lost' | 'unsent' = 'lost', times = 1): Recorded & { dropped: () => number } {
  const log: string[] = [];
  let dropped = 0;
  const fetch: FetchFunction = async (url, init) => {
    const method = init?.method ?? 'GET';
    const pathname = new URL(url).pathname;
    if (dropped < times && drop(method, pathname, init)) {
      dropped++;
      if (how === 'unsent') {
        log.push(`${method} ${pathname} -> fake 503`);
        return new Response(JSON.stringify({ error: { code: 503, message: 'made up', errors: [{ reason: 'backendError' }] } }), { status: 503, headers: { 'content-type': 'application/json' } });
      }
      const response = await nodeFetch(url, init);
      await response.arrayBuffer();
      log.push(`${method} ${pathname} -> lost (${response.status})`);
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    }
    const response = await nodeFetch(url, init);
    log.push(`${method} ${pathname} -> ${response.status}`);
    return response;
  };
  return { fetch, log, dropped: () => dropped };
}

function recorded(): Recorded {
  return sabotaged(() => false);
}

describe('Writes under faults: retried without duplicates', function () {
  this.timeout(60_000);
  let emulator: RunningEmulator;
  let token: string;

  const http = (fetch?: FetchFunction): HttpClient => new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: PATIENT, ...(fetch ? { fetch } : {}) });
  /** The seed of the current test's faults and its traffic, to replay and explain a failure. */
  let faultsMet: { seed: number; log: readonly string[] } | undefined;
  /** Runs `body` with the emulator failing a share of calls (drawn from a seed), then turns faults off for the checks. */
  async function underFaults<T>(traffic: Recorded, body: () => Promise<T>): Promise<T> {
    const seed = REPLAY_SEED ?? Math.floor(Math.random() * 2 ** 32);
    faultsMet = { seed, log: traffic.log };
    emulator.deps.options.faultRandom = seededRandom(seed);
    emulator.deps.options.faultRate = FAULT_RATE;
    try {
      return await body();
    } finally {
      emulator.deps.options.faultRate = 0;
    }
  }
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && faultsMet) {
      console.log(`    replay these faults: DESK_FAULT_SEED=${faultsMet.seed} npx mocha --config .mocharc.json out/test/integration/api/retries.test.js --grep ${JSON.stringify(this.currentTest.title)}`);
      console.log(`    its last requests:\n      ${faultsMet.log.slice(-30).join('\n      ')}`);
    }
    faultsMet = undefined;
  });
  const posts = (log: readonly string[], pathname: string): number => log.filter((line) => line.startsWith(`POST ${pathname} `)).length;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    token = emulator.tokenFor('alice@example.com').accessToken;
  });
  after(() => emulator.close());

  describe('Tasks', () => {
    const checker = (): TasksClient => new TasksClient(http());
    async function tasksTitled(client: TasksClient, listId: string, title: string): Promise<number> {
      let count = 0;
      for await (const task of client.allTasks(listId, { showHidden: true, showCompleted: true })) if (task.title === title) count++;
      return count;
    }
    async function listsTitled(client: TasksClient, title: string): Promise<number> {
      let count = 0;
      for await (const list of client.allTaskLists()) if (list.title === title) count++;
      return count;
    }

    it('tasklists.insert and tasklists.patch succeed under a 50% fault rate, one list each', async () => {
      const traffic = recorded();
      const client = new TasksClient(http(traffic.fetch));
      const made = await underFaults(traffic, async () => {
        const lists = [];
        for (let index = 0; index < 12; index++) lists.push(await client.insertTaskList(`faulty list ${index}`));
        for (const [index, list] of lists.entries()) await client.patchTaskList(list.id, { title: `patched list ${index}` });
        return lists;
      });
      assert.ok(traffic.log.some((line) => / -> (429|503)$/.test(line)), 'faults were met');
      for (let index = 0; index < made.length; index++) {
        assert.equal(await listsTitled(checker(), `faulty list ${index}`), 0);
        assert.equal(await listsTitled(checker(), `patched list ${index}`), 1, `one "patched list ${index}"`);
      }
    });

    it('tasks.insert (top level and subtasks), tasks.patch and a cross-list move succeed under faults, one task each', async () => {
      const traffic = recorded();
      const client = new TasksClient(http(traffic.fetch));
      const source = await checker().insertTaskList('move source');
      const destination = await checker().insertTaskList('move destination');
      const parent = await checker().insertTask(source.id, { title: 'parent' });
      const made = await underFaults(traffic, async () => {
        const tasks = [];
        for (let index = 0; index < 15; index++) {
          const task = await client.insertTask(source.id, { title: `faulty task ${index}`, notes: `n${index}` }, index % 3 === 0 ? { parent: parent.id } : {});
          tasks.push(task);
        }
        for (const [index, task] of tasks.entries()) {
          const patched = await client.patchTask(source.id, task.id, { title: `patched task ${index}` });
          assert.equal(patched.title, `patched task ${index}`);
        }
        for (const task of tasks.filter((_, index) => index % 3 !== 0)) {
          const moved = await client.moveTask(source.id, task.id, { destinationTasklist: destination.id });
          assert.equal(moved.id, task.id);
        }
        return tasks;
      });
      for (let index = 0; index < made.length; index++) {
        const [inSource, inDestination] = [await tasksTitled(checker(), source.id, `patched task ${index}`), await tasksTitled(checker(), destination.id, `patched task ${index}`)];
        assert.equal(inSource + inDestination, 1, `exactly one "patched task ${index}"`);
        assert.equal(inDestination, index % 3 === 0 ? 0 : 1, 'moved where asked');
        assert.equal(await tasksTitled(checker(), source.id, `faulty task ${index}`), 0);
      }
      const subtasks = [];
      for await (const task of checker().allTasks(source.id)) if (task.parent === parent.id) subtasks.push(task.title);
      assert.equal(subtasks.length, 5);
    });

    it('a tasks.insert whose answer is lost after the server made the task is found, not repeated', async () => {
      const saboteur = sabotaged((method, pathname) => method === 'POST' && pathname.endsWith('/tasks'));
      const client = new TasksClient(http(saboteur.fetch));
      const list = await checker().insertTaskList('lost answers');
      const task = await client.insertTask(list.id, { title: 'made once', notes: 'the answer was lost' });
      assert.equal(saboteur.dropped(), 1);
      assert.equal(task.title, 'made once');
      assert.equal(posts(saboteur.log, `/tasks/v1/lists/${list.id}/tasks`), 1, `no second insert: ${saboteur.log.join(' | ')}`);
      assert.equal(await tasksTitled(checker(), list.id, 'made once'), 1);
      assert.equal((await checker().getTask(list.id, task.id)).notes, 'the answer was lost');
    });

    it('reconciliation never takes an older look-alike: an insert that did not land is repeated', async () => {
      const list = await checker().insertTaskList('look-alikes');
      const saboteur = sabotaged((method, pathname) => method === 'POST' && pathname.endsWith('/tasks'), 'unsent');
      const client = new TasksClient(http(saboteur.fetch));
      // The client itself made the first one: it was seen, and claimed by that insert.
      const firstAttemptOk = await new TasksClient(http()).insertTask(list.id, { title: 'twin' });
      await client.listTasks(list.id);
      const second = await client.insertTask(list.id, { title: 'twin' });
      assert.equal(saboteur.dropped(), 1);
      assert.notEqual(second.id, firstAttemptOk.id);
      assert.equal(await tasksTitled(checker(), list.id, 'twin'), 2, 'both inserts are there, once each');
    });

    it('a tasklists.insert and a cross-list move whose answers are lost are found, not repeated', async () => {
      const listSaboteur = sabotaged((method, pathname) => method === 'POST' && pathname === '/tasks/v1/users/@me/lists');
      const list = await new TasksClient(http(listSaboteur.fetch)).insertTaskList('list made once');
      assert.equal(listSaboteur.dropped(), 1);
      assert.equal(posts(listSaboteur.log, '/tasks/v1/users/@me/lists'), 1);
      assert.equal(await listsTitled(checker(), 'list made once'), 1);

      const other = await checker().insertTaskList('move target');
      const task = await checker().insertTask(list.id, { title: 'moved once' });
      const moveSaboteur = sabotaged((method, pathname) => method === 'POST' && pathname.endsWith('/move'));
      const moved = await new TasksClient(http(moveSaboteur.fetch)).moveTask(list.id, task.id, { destinationTasklist: other.id });
      assert.equal(moveSaboteur.dropped(), 1);
      assert.equal(moved.id, task.id);
      assert.equal(moveSaboteur.log.filter((line) => line.includes('/move ')).length, 1, 'the move was not sent again');
      assert.equal(await tasksTitled(checker(), other.id, 'moved once'), 1);
      assert.equal(await tasksTitled(checker(), list.id, 'moved once'), 0);
    });
  });

  describe('Drive', () => {
    const checker = (): DriveClient => new DriveClient(http());
    async function titled(title: string): Promise<number> {
      return (await checker().listFiles({ q: `title = '${title}' and trashed = false`, maxResults: 100 })).items.length;
    }

    it('insertFile, uploadFile (multipart, media, resumable), patchFile and copyFile succeed under a 50% fault rate, one file each', async () => {
      const traffic = recorded();
      const client = new DriveClient(http(traffic.fetch));
      const folder = await checker().insertFolder('faulty folder');
      const made = await underFaults(traffic, async () => {
        const files = [];
        for (let index = 0; index < 8; index++) files.push(await client.insertFile({ title: `inserted ${index}`, parents: [{ id: folder.id }] }));
        for (let index = 0; index < 8; index++) files.push(await client.uploadFile({ title: `uploaded ${index}`, mimeType: 'text/plain', parents: [{ id: folder.id }] }, Buffer.from(`content ${index}`)));
        files.push(await client.uploadFile({ title: 'uploaded media' }, Buffer.from('media bytes'), { uploadType: 'media', contentType: 'text/plain' }));
        files.push(await client.uploadFile({ title: 'uploaded resumable' }, Buffer.alloc(300 * 1024, 7), { uploadType: 'resumable', chunkSize: 256 * 1024 }));
        const copies = [];
        for (const [index, file] of files.slice(8, 12).entries()) copies.push(await client.copyFile(file.id, { title: `copy ${index}` }));
        for (const [index, file] of files.entries()) {
          const patched = await client.patchFile(file.id, { title: `patched ${index}` }, index % 2 === 0 ? { ifMatch: file.etag } : {});
          assert.equal(patched.title, `patched ${index}`);
        }
        return { files, copies };
      });
      assert.ok(traffic.log.some((line) => / -> (429|503)$/.test(line)), 'faults were met');
      for (let index = 0; index < made.files.length; index++) assert.equal(await titled(`patched ${index}`), 1, `one "patched ${index}"`);
      for (let index = 0; index < made.copies.length; index++) assert.equal(await titled(`copy ${index}`), 1, `one "copy ${index}"`);
      assert.equal(await titled('uploaded 0'), 0);
      assert.equal((await checker().getFile(made.files[16]?.id)).fileSize, String('media bytes'.length));
    });

    it('an upload and a copy whose answers are lost answer with the file they made (409 to the repeat), no second file', async () => {
      const uploadSaboteur = sabotaged((method, pathname) => method === 'POST' && pathname === '/upload/drive/v2/files');
      const uploaded = await new DriveClient(http(uploadSaboteur.fetch)).uploadFile({ title: 'upload once.txt', mimeType: 'text/plain' }, Buffer.from('once'));
      assert.equal(uploadSaboteur.dropped(), 1);
      assert.ok(uploadSaboteur.log.some((line) => line.startsWith('POST /upload/drive/v2/files -> 409')), uploadSaboteur.log.join(' | '));
      assert.equal(uploaded.title, 'upload once.txt');
      assert.equal(await titled('upload once.txt'), 1);

      const copySaboteur = sabotaged((method, pathname) => method === 'POST' && pathname.endsWith('/copy'));
      const copy = await new DriveClient(http(copySaboteur.fetch)).copyFile(uploaded.id, { title: 'copied once.txt' });
      assert.equal(copySaboteur.dropped(), 1);
      assert.equal(copy.title, 'copied once.txt');
      assert.equal(await titled('copied once.txt'), 1);

      const folderSaboteur = sabotaged((method, pathname) => method === 'POST' && pathname === '/drive/v2/files');
      const folder = await new DriveClient(http(folderSaboteur.fetch)).insertFile({ title: 'folder once', mimeType: FOLDER_MIME_TYPE });
      assert.equal(folderSaboteur.dropped(), 1);
      assert.equal(folder.title, 'folder once');
      assert.equal(await titled('folder once'), 1);
    });

    it('a resumable upload rides out a run of 503s on a chunk, waiting before each try as any retry does, and gives up only after the policy\'s attempts', async () => {
      const policy: RetryPolicy = { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 4 };
      const content = Buffer.alloc(300 * 1024, 9);
      const isChunk = (method: string, pathname: string, init: RequestInit | undefined): boolean => method === 'PUT' && pathname === '/upload/drive/v2/files' && Buffer.isBuffer(init?.body) && init.body.length > 0;
      const uploadThrough = (fetch: FetchFunction, waits: number[]): Promise<DriveFile> =>
        new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: policy, fetch, sleep: async (ms) => void waits.push(ms) }))
          .uploadFile({ title: 'resumed through 503s.bin' }, content, { uploadType: 'resumable', chunkSize: 256 * 1024 });

      // One try short of the policy's attempts: the upload goes through, after a wait before each new try.
      const waits: number[] = [];
      const bursty = sabotaged(isChunk, 'unsent', policy.maxAttempts - 1);
      const file = await uploadThrough(bursty.fetch, waits);
      assert.equal(bursty.dropped(), policy.maxAttempts - 1);
      assert.ok(waits.length >= policy.maxAttempts - 1, `a wait before each try after a 503: ${waits.length} waits; ${bursty.log.join(' | ')}`);
      assert.equal(file.md5Checksum, createHash('md5').update(content).digest('hex'));
      assert.equal(await titled('resumed through 503s.bin'), 1);

      // A chunk that never gets through: the 503 is reported after the policy's attempts, not before, not never.
      const down = sabotaged(isChunk, 'unsent', Infinity);
      await assert.rejects(uploadThrough(down.fetch, []), (error: unknown) => error instanceof GoogleApiError && error.status === 503);
      assert.equal(down.dropped(), policy.maxAttempts, down.log.join(' | '));
      assert.equal(await titled('resumed through 503s.bin'), 1);
    });

    it('a conditional patch whose answer is lost is recognised as ours (412 to the repeat), a real conflict is not', async () => {
      const file = await checker().uploadFile({ title: 'conditional.txt', mimeType: 'text/plain' }, Buffer.from('v1'));
      const saboteur = sabotaged((method) => method === 'PATCH');
      const patched = await new DriveClient(http(saboteur.fetch)).patchFile(file.id, { title: 'conditional v2.txt' }, { ifMatch: file.etag });
      assert.equal(saboteur.dropped(), 1);
      assert.ok(saboteur.log.some((line) => line.startsWith('PATCH') && line.endsWith('-> 412')), saboteur.log.join(' | '));
      assert.equal(patched.title, 'conditional v2.txt');

      // Someone else changes the title between our lost attempt and its repeat: the 412 stands.
      const raced = sabotaged((method) => method === 'PATCH');
      const racingFetch: FetchFunction = async (url, init) => {
        try {
          return await raced.fetch(url, init);
        } catch (error) {
          await checker().patchFile(file.id, { title: 'theirs.txt' });
          throw error;
        }
      };
      await assert.rejects(new DriveClient(http(racingFetch)).patchFile(file.id, { title: 'mine.txt' }, { ifMatch: patched.etag }), (error: unknown) => error instanceof GoogleApiError && error.status === 412);
    });
  });
});
