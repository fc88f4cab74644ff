/**
 * Books shelf changes made while the service cannot be reached: adding a volume to a shelf and removing one are kept
 * in Desk's write queue and sent when it is back. Both are safe to send once more: an add of a volume already on the
 * shelf changes nothing, and a remove answered 404 (not on the shelf) means an earlier one landed.
 */
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import type { QueuedChange, ReplayOutcome } from '../../core/sync/writeQueue';
import type { BooksApi } from './port';

export const BOOKS_CHANGE = { add: 'books.addVolume', remove: 'books.removeVolume' } as const;

interface ShelfIntent {
  readonly shelfId: number;
  readonly volumeId: string;
}

export interface BooksOfflineHost {
  readonly desk: Pick<DeskContext, 'offlineQueue' | 'log'>;
  readonly api: () => Pick<BooksApi, 'addVolume' | 'removeVolume'>;
}

export class BooksOfflineWrites {
  constructor(private readonly host: BooksOfflineHost) {}

  register(): DisposableLike[] {
    const queue = this.host.desk.offlineQueue;
    return [
      queue.registerReplayer(BOOKS_CHANGE.add, (change) => this.replay(change, 'add')),
      queue.registerReplayer(BOOKS_CHANGE.remove, (change) => this.replay(change, 'remove')),
    ];
  }

  /** Keeps an add or a remove; `summary` says what and where ("Add “Dune” to “Favorites”"). */
  async keep(kind: 'add' | 'remove', shelfId: number, volumeId: string, summary: string): Promise<void> {
    const intent: ShelfIntent = { shelfId, volumeId };
    await this.host.desk.offlineQueue.add({ kind: kind === 'add' ? BOOKS_CHANGE.add : BOOKS_CHANGE.remove, summary, intent: { ...intent } });
  }

  private async replay(change: QueuedChange, kind: 'add' | 'remove'): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as ShelfIntent;
    const api = this.host.api();
    if (kind === 'add') {
      await api.addVolume(intent.shelfId, intent.volumeId);
      return 'applied';
    }
    try {
      await api.removeVolume(intent.shelfId, intent.volumeId);
    } catch (error) {
      // Not on the shelf any more: an earlier remove (or someone else) took it off.
      if (!(error instanceof GoogleApiError && error.isNotFound)) throw error;
      this.host.desk.log.info(`Books: ${intent.volumeId} was off shelf ${intent.shelfId} already`);
    }
    return 'applied';
  }
}
