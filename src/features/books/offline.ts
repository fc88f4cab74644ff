/**
 * Books shelf changes made while the service cannot be reached: adding a volume to a shelf, removing one and moving
 * one within its shelf are kept in Desk's write queue and sent when it is back. All are safe to send once more: an add
 * of a volume already on the shelf changes nothing, a remove answered 404 (not on the shelf) means an earlier one
 * landed, and a move names the position it ends at (the same again lands in the same place).
 */
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import type { QueuedChange, ReplayOutcome } from '../../core/offline/writeQueue';
import type { BooksApi } from './port';

export const BOOKS_CHANGE = { add: 'books.addVolume', remove: 'books.removeVolume', move: 'books.moveVolume' } as const;

interface ShelfIntent {
  readonly shelfId: number;
  readonly volumeId: string;
  /** A move's position (0 is first). */
  readonly position?: number;
}

export interface BooksOfflineHost {
  readonly desk: Pick<DeskContext, 'offlineQueue' | 'log'>;
  readonly api: () => Pick<BooksApi, 'addVolume' | 'removeVolume' | 'moveVolume'>;
}

export class BooksOfflineWrites {
  constructor(private readonly host: BooksOfflineHost) {}

  register(): DisposableLike[] {
    const queue = this.host.desk.offlineQueue;
    return [
      queue.registerReplayer(BOOKS_CHANGE.add, (change) => this.replay(change, 'add')),
      queue.registerReplayer(BOOKS_CHANGE.remove, (change) => this.replay(change, 'remove')),
      queue.registerReplayer(BOOKS_CHANGE.move, (change) => this.replay(change, 'move')),
    ];
  }

  /** Keeps an add or a remove; `summary` says what and where ("Add “Dune” to “Favorites”"). */
  async keep(kind: 'add' | 'remove', shelfId: number, volumeId: string, summary: string): Promise<void> {
    const intent: ShelfIntent = { shelfId, volumeId };
    await this.host.desk.offlineQueue.add({ kind: kind === 'add' ? BOOKS_CHANGE.add : BOOKS_CHANGE.remove, summary, intent: { ...intent } });
  }

  /** Keeps a move within a shelf to `position` (0 is first). */
  async keepMove(shelfId: number, volumeId: string, position: number, summary: string): Promise<void> {
    const intent: ShelfIntent = { shelfId, volumeId, position };
    await this.host.desk.offlineQueue.add({ kind: BOOKS_CHANGE.move, summary, intent: { ...intent } });
  }

  private async replay(change: QueuedChange, kind: 'add' | 'remove' | 'move'): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as ShelfIntent;
    const api = this.host.api();
    if (kind === 'add') {
      await api.addVolume(intent.shelfId, intent.volumeId);
      return 'applied';
    }
    if (kind === 'move') {
      try {
        await api.moveVolume(intent.shelfId, intent.volumeId, intent.position ?? 0);
      } catch (error) {
        // Taken off the shelf meanwhile (here or elsewhere): nothing left to move.
        if (!(error instanceof GoogleApiError && error.isNotFound)) throw error;
        this.host.desk.log.info(`Books: ${intent.volumeId} was off shelf ${intent.shelfId}; its move is dropped`);
      }
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
