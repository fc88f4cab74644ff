import * as assert from 'node:assert/strict';
import { ServiceUnreachableError, isUnreachable } from '../../../../src/api/errors';
import { QueuedChange, WriteQueue } from '../../../../src/core/offline/writeQueue';
import { MapMemento } from '../../../support/memento';

function queue(memento = new MapMemento(), account: { id: string | undefined } = { id: 'emulator alice' }): WriteQueue {
  let now = 1000;
  let id = 0;
  return new WriteQueue({ memento, account: () => account.id, now: () => now++, newId: () => `c${++id}`, isOffline: isUnreachable });
}

describe('WriteQueue: writes kept offline, replayed in order once', () => {
  it('keeps changes durably per account, and a new queue on the same storage (a reload) finds them', async () => {
    const memento = new MapMemento();
    const account = { id: 'emulator alice' as string | undefined };
    const first = queue(memento, account);
    await first.add({ kind: 'tasks.setStatus', summary: 'Complete A', intent: { taskId: 'a' } });
    await first.add({ kind: 'tasks.insert', summary: 'Add B', intent: { title: 'B' } });
    const reloaded = queue(memento, account);
    assert.deepEqual(reloaded.list().map((change) => change.summary), ['Complete A', 'Add B']);
    account.id = 'emulator bob';
    assert.equal(reloaded.size, 0, 'another account sees none of them');
  });

  it('replays in order, each once, and stops (keeping the rest) while the service cannot be reached', async () => {
    const q = queue();
    for (const name of ['one', 'two', 'three']) await q.add({ kind: 'test', summary: name, intent: { name } });
    const applied: string[] = [];
    let offlineAt = 'two';
    q.registerReplayer('test', async (change: QueuedChange) => {
      if (change.intent.name === offlineAt) throw new ServiceUnreachableError('t', new Error('ECONNREFUSED'));
      applied.push(String(change.intent.name));
      return 'applied';
    });
    await q.settled();
    assert.deepEqual(applied, ['one']);
    assert.deepEqual(q.list().map((change) => change.summary), ['two', 'three']);
    assert.equal(q.list()[0]?.attempted, true, 'a change sent without an answer is checked before it is repeated');
    offlineAt = '';
    await q.replay();
    assert.deepEqual(applied, ['one', 'two', 'three']);
    assert.equal(q.size, 0);
    await q.replay();
    assert.deepEqual(applied, ['one', 'two', 'three'], 'nothing twice');
  });

  it('a change failing for another reason is kept and reported; the ones after it go on', async () => {
    const failed: string[] = [];
    const memento = new MapMemento();
    const q = new WriteQueue({ memento, account: () => 'a', now: () => 1, isOffline: isUnreachable, onFailed: (change) => failed.push(change.summary) });
    await q.add({ kind: 'test', summary: 'bad', intent: {} });
    await q.add({ kind: 'test', summary: 'good', intent: {} });
    q.registerReplayer('test', async (change) => {
      if (change.summary === 'bad') throw new Error('400');
      return 'applied';
    });
    await q.settled();
    assert.deepEqual(failed, ['bad']);
    assert.deepEqual(q.list().map((change) => change.summary), ['bad']);
  });

  it('waits for a feature that has not loaded yet, in order', async () => {
    const q = queue();
    await q.add({ kind: 'drive.save', summary: 'save', intent: {} });
    await q.add({ kind: 'tasks.insert', summary: 'add', intent: {} });
    const applied: string[] = [];
    q.registerReplayer('tasks.insert', async (change) => { applied.push(change.summary); return 'applied' as const; });
    await q.settled();
    assert.equal(applied.length, 0, 'the later change waits for the earlier one');
    q.registerReplayer('drive.save', async (change) => { applied.push(change.summary); return 'applied' as const; });
    await q.settled();
    assert.deepEqual(applied, ['save', 'add']);
  });
});
