import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileStore } from '../../../../src/emulator/persistence/fileStore';

const quiet = { log: (): void => undefined };

describe('durable file store', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-store-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('replays flushed writes and deletes after a reopen', async () => {
    const store = await FileStore.open(dir);
    const things = store.collection<{ n: number }>('things');
    things.set('a', { n: 1 });
    things.set('b', { n: 2 });
    things.delete('a');
    const b = things.get('b');
    assert.ok(b);
    b.n = 3;
    things.set('b', b);
    await store.flush();
    // No compaction: as after kill -9, only the journal is there.
    await store.close({ compact: false });
    const reopened = await FileStore.open(dir);
    const again = reopened.collection<{ n: number }>('things');
    assert.equal(again.get('a'), undefined);
    assert.deepEqual(again.get('b'), { n: 3 });
    assert.equal(again.size, 1);
    await reopened.close();
  });

  it('ignores a torn last journal line from a crash mid-append', async () => {
    const store = await FileStore.open(dir);
    store.collection<string>('c').set('kept', 'yes');
    await store.close({ compact: false });
    fs.appendFileSync(path.join(dir, 'journal.log'), '{"c":"c","k":"torn","v":"no');
    const reopened = await FileStore.open(dir, quiet);
    assert.equal(reopened.collection<string>('c').get('kept'), 'yes');
    assert.equal(reopened.collection<string>('c').has('torn'), false);
    await reopened.close();
  });

  it('compacts into a snapshot on close and still loads everything', async () => {
    const store = await FileStore.open(dir);
    for (let index = 0; index < 100; index++) store.collection<number>('n').set(String(index), index);
    await store.close();
    assert.equal(fs.statSync(path.join(dir, 'journal.log')).size, 0);
    const reopened = await FileStore.open(dir);
    assert.equal(reopened.collection<number>('n').size, 100);
    assert.equal(reopened.collection<number>('n').get('42'), 42);
    await reopened.close();
  });

  it('cuts a torn journal tail before appending, so the next acknowledged write survives the following crash', async () => {
    const store = await FileStore.open(dir, quiet);
    store.collection<string>('c').set('before', 'yes');
    await store.close({ compact: false });
    fs.appendFileSync(path.join(dir, 'journal.log'), '{"c":"c","k":"torn","v":"no');
    const logged: string[] = [];
    const recovered = await FileStore.open(dir, { log: (line) => logged.push(line) });
    assert.match(logged.join('\n'), /torn journal tail/);
    assert.ok(fs.readFileSync(path.join(dir, 'journal.log'), 'utf8').endsWith('\n'), 'the journal ends on a complete record');
    recovered.collection<string>('c').set('after', 'acknowledged');
    await recovered.flush();
    // A second crash right after the acknowledgement: nothing but the journal, no compaction.
    await recovered.close({ compact: false });
    const again = await FileStore.open(dir, quiet);
    assert.equal(again.collection<string>('c').get('before'), 'yes');
    assert.equal(again.collection<string>('c').get('after'), 'acknowledged');
    assert.equal(again.collection<string>('c').has('torn'), false);
    await again.close();
  });

  it('streams a snapshot far larger than the longest string it may build, and reads it back', async () => {
    // 200 documents of ~100 characters against a 1 KB string limit: a one-string snapshot could not be written.
    const options = { ...quiet, maxStringChars: 1024 };
    const store = await FileStore.open(dir, options);
    const docs = store.collection<{ text: string }>('docs');
    for (let index = 0; index < 200; index++) docs.set(`d${index}`, { text: `${index}:`.padEnd(100, 'x') });
    await store.flush();
    assert.equal(await store.compactNow(), true);
    assert.equal(fs.statSync(path.join(dir, 'journal.log')).size, 0, 'the journal was emptied into the snapshot');
    assert.ok(fs.statSync(path.join(dir, 'snapshot.jsonl')).size > 20_000);
    docs.set('late', { text: 'after the snapshot' });
    await store.close();
    const reopened = await FileStore.open(dir, options);
    const again = reopened.collection<{ text: string }>('docs');
    assert.equal(again.size, 201);
    assert.equal(again.get('d199')?.text.startsWith('199:'), true);
    assert.equal(again.get('late')?.text, 'after the snapshot');
    await reopened.close();
  });

  it('keeps accepting writes when compaction fails, logs it, and retries later', async () => {
    // A directory where the temporary snapshot goes makes every compaction fail (EISDIR).
    const blocker = path.join(dir, 'snapshot.jsonl.tmp');
    fs.mkdirSync(blocker);
    const logged: string[] = [];
    const options = { log: (line: string) => logged.push(line), compactAfterBytes: 2048, maxStringChars: 1024 };
    const store = await FileStore.open(dir, options);
    const docs = store.collection<number>('n');
    for (let index = 0; index < 300; index++) {
      docs.set(String(index), index);
      await store.flush(); // each acknowledged write, past the threshold, tries (and fails) to compact
    }
    assert.match(logged.join('\n'), /compaction failed/);
    assert.ok(logged.length < 20, `a failing compaction is retried after more growth, not at every write (${logged.length} attempts)`);
    await store.close(); // its compaction fails too, and close still succeeds
    const reopened = await FileStore.open(dir, options);
    assert.equal(reopened.collection<number>('n').size, 300);
    assert.equal(reopened.collection<number>('n').get('299'), 299);

    fs.rmdirSync(blocker);
    assert.equal(await reopened.compactNow(), true, 'once the obstacle is gone, compaction works again');
    reopened.collection<number>('n').set('300', 300);
    await reopened.close();
    const last = await FileStore.open(dir, options);
    assert.equal(last.collection<number>('n').size, 301);
    await last.close();
  });

  it('reads a legacy one-object snapshot.json and replaces it with the line format at the next compaction', async () => {
    fs.writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ things: { a: { n: 1 }, b: { n: 2 } } }));
    fs.writeFileSync(path.join(dir, 'journal.log'), `${JSON.stringify({ c: 'things', k: 'a', d: 1 })}\n`);
    const store = await FileStore.open(dir, quiet);
    assert.equal(store.collection('things').has('a'), false);
    assert.deepEqual(store.collection('things').get('b'), { n: 2 });
    await store.close();
    assert.equal(fs.existsSync(path.join(dir, 'snapshot.json')), false);
    assert.equal(fs.existsSync(path.join(dir, 'snapshot.jsonl')), true);
    const reopened = await FileStore.open(dir, quiet);
    assert.deepEqual([...reopened.collection('things').keys()], ['b']);
    await reopened.close();
  });

  it('after a failed journal append, keeps the batch for the next flush and does not reject every later flush', async () => {
    const store = await FileStore.open(dir, quiet);
    const internals = store as unknown as { journal: fs.promises.FileHandle };
    const healthy = internals.journal;
    // A journal handle that fails every write, as a full disk would.
    const broken = await fs.promises.open(path.join(dir, 'journal.log'), 'r');
    internals.journal = broken;
    store.collection<string>('c').set('first', 'kept for retry');
    await assert.rejects(store.flush());
    internals.journal = healthy;
    await broken.close();
    store.collection<string>('c').set('second', 'after the failure');
    await store.flush();
    await store.close({ compact: false });
    const reopened = await FileStore.open(dir, quiet);
    assert.equal(reopened.collection<string>('c').get('first'), 'kept for retry');
    assert.equal(reopened.collection<string>('c').get('second'), 'after the failure');
    await reopened.close();
  });

  it('acknowledges writes while a compaction runs (the snapshot is written beside them), and loses none at a crash in the middle', async () => {
    let entered: () => void = () => undefined;
    const inCompaction = new Promise<void>((resolve) => { entered = resolve; });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const store = await FileStore.open(dir, { ...quiet, compactAfterBytes: 2048, beforeSnapshotRename: () => { entered(); return gate; } });
    const docs = store.collection<{ text: string }>('docs');
    for (let index = 0; index < 100; index++) docs.set(String(index), { text: `document ${index}` });
    await store.flush(); // past the threshold: a compaction starts, and stays held before its rename
    await inCompaction;
    docs.set('late', { text: 'written during the compaction' });
    docs.delete('3');
    await store.flush(); // before: this waited for the whole snapshot (here: forever)

    // A crash now (copy of the folder as it is): the old snapshot, the set-aside journal and the new one.
    const crashed = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-store-crash-'));
    try {
      for (const name of fs.readdirSync(dir)) fs.copyFileSync(path.join(dir, name), path.join(crashed, name));
      const recovered = await FileStore.open(crashed, quiet);
      const recoveredDocs = recovered.collection<{ text: string }>('docs');
      assert.equal(recoveredDocs.get('late')?.text, 'written during the compaction');
      assert.equal(recoveredDocs.has('3'), false);
      assert.equal(recoveredDocs.size, 100);
      await recovered.close();
    } finally {
      fs.rmSync(crashed, { recursive: true, force: true });
    }

    release();
    await store.close();
    assert.equal(fs.existsSync(path.join(dir, 'journal.compacting.log')), false, 'the set-aside journal is removed once the snapshot is in place');
    const reopened = await FileStore.open(dir, quiet);
    const again = reopened.collection<{ text: string }>('docs');
    assert.equal(again.get('late')?.text, 'written during the compaction');
    assert.equal(again.has('3'), false);
    assert.equal(again.size, 100);
    await reopened.close();
  });
});
