import * as assert from 'node:assert/strict';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/sync/writeQueue';
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
});
