import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileStore } from '../../../../src/emulator/store/fileStore';

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
    // No close(): as after kill -9, only the journal is there.
    const reopened = await FileStore.open(dir);
    const again = reopened.collection<{ n: number }>('things');
    assert.equal(again.get('a'), undefined);
    assert.deepEqual(again.get('b'), { n: 3 });
    assert.equal(again.size, 1);
  });

  it('ignores a torn last journal line from a crash mid-append', async () => {
    const store = await FileStore.open(dir);
    store.collection<string>('c').set('kept', 'yes');
    await store.flush();
    fs.appendFileSync(path.join(dir, 'journal.log'), '{"c":"c","k":"torn","v":"no');
    const reopened = await FileStore.open(dir);
    assert.equal(reopened.collection<string>('c').get('kept'), 'yes');
    assert.equal(reopened.collection<string>('c').has('torn'), false);
  });

  it('compacts into a snapshot on close and still loads everything', async () => {
    const store = await FileStore.open(dir);
    for (let index = 0; index < 100; index++) store.collection<number>('n').set(String(index), index);
    await store.close();
    assert.equal(fs.statSync(path.join(dir, 'journal.log')).size, 0);
    const reopened = await FileStore.open(dir);
    assert.equal(reopened.collection<number>('n').size, 100);
    assert.equal(reopened.collection<number>('n').get('42'), 42);
  });
});
