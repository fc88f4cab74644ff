import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isUnreachable } from '../../../../src/api/errors';
import { QUEUE_FILE_NAME, QueueFile } from '../../../../src/core/offline/queueFile';
import { WRITE_QUEUE_KEY, WriteQueue } from '../../../../src/core/offline/writeQueue';
import { MapMemento } from '../../../support/memento';

describe('QueueFile: the offline queue in a file beside the extension host', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-queue-file-'));
  });
  afterEach(() => { fs.rmSync(directory, { recursive: true, force: true }); });

  function queueOn(file: QueueFile): WriteQueue {
    let id = 0;
    return new WriteQueue({ memento: file, account: () => 'emulator alice', now: () => 1000, newId: () => `c${++id}`, isOffline: isUnreachable });
  }

  it('keeps the waiting changes across a reload (a new file object on the same folder), none left in the global state', async () => {
    const globalState = new MapMemento();
    const first = queueOn(new QueueFile({ directory: path.join(directory, 'made-on-first-write'), legacy: globalState }));
    await first.add({ kind: 'tasks.setStatus', summary: 'Complete A', intent: { taskId: 'a' } });
    await first.add({ kind: 'drive.newFile', summary: 'New file B', intent: { title: 'B' } });
    const reloaded = queueOn(new QueueFile({ directory: path.join(directory, 'made-on-first-write') }));
    assert.deepEqual(reloaded.list().map((change) => change.summary), ['Complete A', 'New file B']);
    assert.equal(globalState.values.size, 0);
  });

  it('moves changes kept in the global state before into the file once, after its own, and clears them there', async () => {
    const globalState = new MapMemento();
    await globalState.update(WRITE_QUEUE_KEY, { 'emulator alice': [{ id: 'old', kind: 'tasks.insert', summary: 'Add old', queuedAt: 1, intent: {} }] });
    const file = new QueueFile({ directory, legacy: globalState });
    await file.adopt(WRITE_QUEUE_KEY);
    await file.adopt(WRITE_QUEUE_KEY);
    assert.deepEqual(queueOn(new QueueFile({ directory })).list().map((change) => change.id), ['old']);
    assert.equal(globalState.get(WRITE_QUEUE_KEY), undefined);
  });

  it('a broken file is set aside (said in the log), not overwritten, and the queue starts empty', () => {
    fs.writeFileSync(path.join(directory, QUEUE_FILE_NAME), '{"desk.offline.queue": [');
    const said: string[] = [];
    const file = new QueueFile({ directory, log: (message) => said.push(message) });
    assert.equal(file.get(WRITE_QUEUE_KEY), undefined);
    assert.ok(fs.existsSync(path.join(directory, `${QUEUE_FILE_NAME}.broken`)));
    assert.match(said.join('\n'), /could not be read/);
  });

  it('writes land in order: the last update is what the file holds', async () => {
    const file = new QueueFile({ directory });
    await Promise.all([1, 2, 3, 4, 5].map((n) => file.update('k', n)));
    assert.equal(new QueueFile({ directory }).get('k'), 5);
  });
});

describe('QueueFile: two hosts on one folder (two windows, or a reloaded window and its old host)', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-queue-hosts-'));
  });
  afterEach(() => { fs.rmSync(directory, { recursive: true, force: true }); });

  it('a change one host wrote is seen by the other, and replays take turns: each change is sent once', async () => {
    const [fileA, fileB] = [new QueueFile({ directory }), new QueueFile({ directory })];
    let ids = 0;
    const make = (file: QueueFile) => new WriteQueue({ memento: file, account: () => 'a', now: () => 1, newId: () => `c${++ids}`, isOffline: isUnreachable, exclusive: (work) => file.exclusive(work) });
    const [hostA, hostB] = [make(fileA), make(fileB)];
    await hostA.add({ kind: 'k', summary: 'one', intent: {} });
    await hostA.add({ kind: 'k', summary: 'two', intent: {} });
    assert.deepEqual(hostB.list().map((change) => change.summary), ['one', 'two'], 'B reads what A wrote');
    const sent: string[] = [];
    for (const host of [hostA, hostB]) host.registerReplayer('k', async (change) => (sent.push(change.summary), 'applied'));
    await Promise.all([hostA.replay(), hostB.replay()]);
    assert.deepEqual(sent, ['one', 'two']);
    assert.equal(hostA.size + hostB.size, 0);
  });

  it('a lock left by a process that has ended is taken over', async () => {
    fs.writeFileSync(path.join(directory, `${QUEUE_FILE_NAME}.lock`), JSON.stringify({ pid: 2 ** 22 + 12345, at: Date.now() }));
    let ran = false;
    await new QueueFile({ directory }).exclusive(async () => void (ran = true));
    assert.equal(ran, true);
  });
});
