import * as assert from 'node:assert/strict';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/offline/writeQueue';
import { BooksOfflineWrites } from '../../../../src/features/books/offline';
import { MapMemento } from '../../../support/memento';

describe('Books shelf changes offline', () => {
  it('are sent in order when back; a remove of a volume no longer on the shelf counts as done', async () => {
    const shelf = new Set<string>(['dune']);
    let offline = true;
    const sent: string[] = [];
    const gone = (): never => {
      throw new ServiceUnreachableError('books', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    };
    const api = {
      moveVolume: async (): Promise<void> => undefined,
      addVolume: async (_shelf: number, volumeId: string): Promise<void> => {
        if (offline) gone();
        sent.push(`add ${volumeId}`);
        shelf.add(volumeId);
      },
      removeVolume: async (_shelf: number, volumeId: string): Promise<void> => {
        if (offline) gone();
        sent.push(`remove ${volumeId}`);
        if (!shelf.delete(volumeId)) throw new GoogleApiError(404, 'Not found', 'notFound', [], undefined);
      },
    };
    const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
    const writes = new BooksOfflineWrites({ desk: { offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'offlineQueue' | 'log'>, api: () => api });
    await writes.keep('add', 2, 'emma', 'Add "Emma" to "Favorites"');
    await writes.keep('remove', 2, 'dune', 'Remove "Dune" from "Favorites"');
    await writes.keep('remove', 2, 'never-there', 'Remove "Ghost" from "Favorites"');
    writes.register();
    await queue.settled();
    assert.equal(queue.size, 3);
    offline = false;
    await queue.replay();
    assert.deepEqual(sent, ['add emma', 'remove dune', 'remove never-there']);
    assert.deepEqual([...shelf], ['emma']);
    assert.equal(queue.size, 0);
  });

  it('a move within a shelf is sent once back, to the position the user chose; a volume gone from the shelf drops it', async () => {
    let offline = true;
    const order = ['a', 'b', 'c'];
    const sent: string[] = [];
    const api = {
      addVolume: async (): Promise<void> => undefined,
      removeVolume: async (): Promise<void> => undefined,
      moveVolume: async (_shelf: number, volumeId: string, position: number): Promise<void> => {
        if (offline) throw new ServiceUnreachableError('books', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
        const index = order.indexOf(volumeId);
        if (index < 0) throw new GoogleApiError(404, 'Not found', 'notFound', [], undefined);
        order.splice(index, 1);
        order.splice(position, 0, volumeId);
        sent.push(`move ${volumeId} ${position}`);
      },
    };
    const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
    const writes = new BooksOfflineWrites({ desk: { offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'offlineQueue' | 'log'>, api: () => api });
    writes.register();
    await writes.keepMove(2, 'c', 0, 'Move a volume to position 1 on "Favorites"');
    await writes.keepMove(2, 'gone', 1, 'Move a volume to position 2 on "Favorites"');
    await queue.settled();
    assert.equal(queue.size, 2);
    offline = false;
    await queue.replay();
    assert.deepEqual(order, ['c', 'a', 'b']);
    assert.deepEqual(sent, ['move c 0']);
    assert.equal(queue.size, 0);
  });
});
