import * as assert from 'node:assert/strict';
import { updateDurably, WritableMemento } from '../../../../src/core/storage/durableMemento';

/**
 * globalState as the extension host keeps it: the whole copy is replaced by the workbench's echo of an earlier
 * write. Modelled as a memento whose first `lose` updates are taken back before they are sent.
 */
function echoingMemento(lose: number): WritableMemento & { updates: number } {
  const values = new Map<string, string>();
  const memento = {
    updates: 0,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Memento's get<T>, whose T the caller names
    get<T>(key: string): T | undefined {
      const text = values.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    async update(key: string, value: unknown): Promise<void> {
      memento.updates++;
      if (memento.updates <= lose) return; // an echo of an older copy arrived before this write went out
      if (value === undefined) values.delete(key);
      else values.set(key, JSON.stringify(value));
    },
  };
  return memento;
}

describe('durable globalState writes (core/storage/durableMemento.ts)', () => {
  it('writes again when an echo took the write away, until it sticks', async () => {
    const memento = echoingMemento(2);
    await updateDurably(memento, 'desk.channels.records', { scope: [{ id: 'a', messages: 2 }] });
    assert.deepEqual(memento.get('desk.channels.records'), { scope: [{ id: 'a', messages: 2 }] });
    assert.equal(memento.updates, 3);
  });

  it('writes once when the write sticks, also for removing a key', async () => {
    const memento = echoingMemento(0);
    await updateDurably(memento, 'token', 'abc');
    await updateDurably(memento, 'token', undefined);
    assert.equal(memento.get('token'), undefined);
    assert.equal(memento.updates, 2);
  });

  it('gives up after a few attempts instead of looping forever', async () => {
    const memento = echoingMemento(Number.POSITIVE_INFINITY);
    await updateDurably(memento, 'token', 'abc');
    assert.equal(memento.updates, 5);
  });
});
