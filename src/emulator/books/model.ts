import type { ShelfAccess } from '../../shared/schemas/books';
import { findUser } from '../identity/users';
import { ApiError, badRequest, forbidden, notFound } from '../core/errors';
import { Collection, Store } from '../store/store';
import type { Catalogue, CatalogueVolume } from './catalogue';

/**
 * The Books bookshelf semantics, free of HTTP: every user's predefined shelves (created on first use), which of them
 * a client may change, the order of volumes on a shelf, and what another user may see. Models take a user id and
 * throw the core's ApiErrors; shelves are documents of the Store, so they survive restarts.
 *
 * Error choices where Google documents none (each kept in one place, below):
 *  - an unknown shelf, an unknown user, and another user's PRIVATE shelf are all 404 notFound with the same message,
 *    so a private shelf cannot be told apart from a missing one;
 *  - changing a shelf Google fills itself (Purchased, Reviewed, Recently viewed, Books for you, Browsing history) is
 *    403 forbidden: the request is well formed, the user is just not allowed to write there;
 *  - removing or moving a volume that is not on the shelf is 404 notFound, so a client can treat "already gone" as done;
 *  - only eBooks go on My eBooks (Google: saleInfo.isEbook means "can be added to the My eBooks shelf"): 400 invalid.
 */

interface PredefinedShelf {
  readonly id: number;
  readonly title: string;
  readonly access: ShelfAccess;
  /** Whether addVolume/removeVolume/moveVolume/clearVolumes may change it. */
  readonly writable: boolean;
}

/**
 * Google's predefined shelves, with Google's ids, titles and default visibility (developers.google.com/books,
 * "Google Books IDs" and "Bookshelf"). Favorites, To read, Reading now and Have read are the user's to manage;
 * My eBooks takes eBooks; the others Google fills from purchases, reviews and browsing.
 */
export const PREDEFINED_SHELVES: readonly PredefinedShelf[] = [
  { id: 0, title: 'Favorites', access: 'PUBLIC', writable: true },
  { id: 1, title: 'Purchased', access: 'PRIVATE', writable: false },
  { id: 2, title: 'To read', access: 'PUBLIC', writable: true },
  { id: 3, title: 'Reading now', access: 'PUBLIC', writable: true },
  { id: 4, title: 'Have read', access: 'PUBLIC', writable: true },
  { id: 5, title: 'Reviewed', access: 'PUBLIC', writable: false },
  { id: 6, title: 'Recently viewed', access: 'PRIVATE', writable: false },
  { id: 7, title: 'My eBooks', access: 'PRIVATE', writable: true },
  { id: 8, title: 'Books for you', access: 'PRIVATE', writable: false },
  { id: 9, title: 'Browsing history', access: 'PRIVATE', writable: false },
];

export const MY_EBOOKS_SHELF = 7;
/** Google numbers a user's own shelves from 1000 up (created on the Google Books site, never through the API). */
export const FIRST_CUSTOM_SHELF_ID = 1001;

export interface StoredShelf {
  userId: string;
  id: number;
  title: string;
  description?: string;
  access: ShelfAccess;
  writable: boolean;
  /** Epoch ms. */
  created: number;
  /** Any change to the shelf, a reordering included. */
  updated: number;
  /** The last time a volume arrived or left. */
  volumesLastUpdated: number;
  /** Shelf order: index 0 is first. New volumes go to the front (most recently added first, as Google lists them). */
  volumeIds: string[];
}

const NO_SUCH_SHELF = 'The bookshelf ID could not be found.';
const NO_SUCH_VOLUME = 'The volume ID could not be found.';

const shelfKey = (userId: string, shelfId: number): string => `${userId}/${shelfId}`;

export class BookshelvesModel {
  private readonly shelves: Collection<StoredShelf>;

  constructor(store: Store, private readonly now: () => number, private readonly catalogue: Catalogue) {
    this.shelves = store.collection<StoredShelf>('books.shelves');
  }

  // ---- the signed-in user's library

  listMine(userId: string): StoredShelf[] {
    this.ensureLibrary(userId);
    return [...this.shelves.values()].filter((shelf) => shelf.userId === userId).sort((a, b) => a.id - b.id);
  }

  getMine(userId: string, shelf: string): StoredShelf {
    this.ensureLibrary(userId);
    return this.find(userId, shelf);
  }

  /** Adds a volume at the front; one already on the shelf stays where it is (no duplicate, no change). */
  addVolume(userId: string, shelf: string, volumeId: string): StoredShelf {
    const stored = this.writableShelf(userId, shelf);
    const volume = this.volume(volumeId);
    if (stored.id === MY_EBOOKS_SHELF && !volume.isEbook) {
      throw new ApiError(400, 'invalid', `The volume ${volumeId} is not an eBook: only eBooks can be added to My eBooks.`, { location: 'volumeId', locationType: 'parameter' });
    }
    if (stored.volumeIds.includes(volumeId)) return stored;
    stored.volumeIds.unshift(volumeId);
    return this.touch(stored, true);
  }

  removeVolume(userId: string, shelf: string, volumeId: string): StoredShelf {
    const stored = this.writableShelf(userId, shelf);
    const index = this.positionOf(stored, volumeId);
    stored.volumeIds.splice(index, 1);
    return this.touch(stored, true);
  }

  clearVolumes(userId: string, shelf: string): StoredShelf {
    const stored = this.writableShelf(userId, shelf);
    if (stored.volumeIds.length === 0) return stored;
    stored.volumeIds = [];
    return this.touch(stored, true);
  }

  /**
   * Google: "0 puts the item before the current first item, 1 puts it between the first and the second and so on".
   * The volume is taken out, then put back at that index; a position past the end puts it last.
   */
  moveVolume(userId: string, shelf: string, volumeId: string, volumePosition: number): StoredShelf {
    if (!Number.isSafeInteger(volumePosition) || volumePosition < 0) {
      throw new ApiError(400, 'invalid', `Invalid value '${volumePosition}' for volumePosition: must be 0 or more`, { location: 'volumePosition', locationType: 'parameter' });
    }
    const stored = this.writableShelf(userId, shelf);
    const index = this.positionOf(stored, volumeId);
    stored.volumeIds.splice(index, 1);
    stored.volumeIds.splice(Math.min(volumePosition, stored.volumeIds.length), 0, volumeId);
    return this.touch(stored, false);
  }

  // ---- another user's public shelves

  listPublic(ownerId: string): StoredShelf[] {
    this.requireKnownUser(ownerId);
    return this.listMine(ownerId).filter((shelf) => shelf.access === 'PUBLIC');
  }

  getPublic(ownerId: string, shelf: string): StoredShelf {
    this.requireKnownUser(ownerId);
    const stored = this.getMine(ownerId, shelf);
    if (stored.access !== 'PUBLIC') throw notFound(NO_SUCH_SHELF);
    return stored;
  }

  // ---- volumes

  /** The shelf's volumes in shelf order, skipping any the current catalogue no longer has (a different --books file). */
  volumesOn(shelf: StoredShelf): CatalogueVolume[] {
    const volumes: CatalogueVolume[] = [];
    for (const id of shelf.volumeIds) {
      const volume = this.catalogue.get(id);
      if (volume) volumes.push(volume);
    }
    return volumes;
  }

  volume(volumeId: string): CatalogueVolume {
    const volume = this.catalogue.get(volumeId);
    if (!volume) throw notFound(NO_SUCH_VOLUME);
    return volume;
  }

  // ---- demo data

  /** Puts volumes on any shelf, read-only ones included (the demo's "purchased" books); unknown ids are skipped. */
  seedVolumes(userId: string, shelfId: number, volumeIds: readonly string[]): void {
    this.ensureLibrary(userId);
    const stored = this.shelves.get(shelfKey(userId, shelfId));
    if (!stored) return;
    for (const id of [...volumeIds].reverse()) {
      if (this.catalogue.get(id) && !stored.volumeIds.includes(id)) stored.volumeIds.unshift(id);
    }
    this.touch(stored, true);
  }

  /** A custom shelf as the Google Books site would have created it (the API cannot). */
  createCustomShelfForSeed(userId: string, title: string, access: ShelfAccess, description?: string): StoredShelf {
    const mine = this.listMine(userId);
    const id = mine.reduce((largest, shelf) => Math.max(largest, shelf.id), FIRST_CUSTOM_SHELF_ID - 1) + 1;
    const now = this.now();
    const shelf: StoredShelf = { userId, id, title, access, writable: true, created: now, updated: now, volumesLastUpdated: now, volumeIds: [], ...(description ? { description } : {}) };
    this.shelves.set(shelfKey(userId, id), shelf);
    return shelf;
  }

  // ---- internals

  /** A user's predefined shelves exist from their first Books request on, as on Google. */
  private ensureLibrary(userId: string): void {
    if (this.shelves.has(shelfKey(userId, 0))) return;
    const now = this.now();
    for (const predefined of PREDEFINED_SHELVES) {
      this.shelves.set(shelfKey(userId, predefined.id), {
        userId,
        id: predefined.id,
        title: predefined.title,
        access: predefined.access,
        writable: predefined.writable,
        created: now,
        updated: now,
        volumesLastUpdated: now,
        volumeIds: [],
      });
    }
  }

  private find(userId: string, shelf: string): StoredShelf {
    if (!/^\d{1,9}$/.test(shelf)) throw notFound(NO_SUCH_SHELF);
    const stored = this.shelves.get(shelfKey(userId, Number(shelf)));
    if (!stored) throw notFound(NO_SUCH_SHELF);
    return stored;
  }

  private writableShelf(userId: string, shelf: string): StoredShelf {
    const stored = this.getMine(userId, shelf);
    if (!stored.writable) throw forbidden(`The bookshelf '${stored.title}' (${stored.id}) is filled by Google Books and cannot be changed.`);
    return stored;
  }

  private positionOf(shelf: StoredShelf, volumeId: string): number {
    if (volumeId === '') throw badRequest('Required parameter: volumeId');
    const index = shelf.volumeIds.indexOf(volumeId);
    if (index < 0) throw notFound(`The volume ${volumeId} is not on the bookshelf '${shelf.title}' (${shelf.id}).`);
    return index;
  }

  private requireKnownUser(userId: string): void {
    if (!/^\d+$/.test(userId) || !findUser(userId)) throw notFound('The user ID could not be found.');
  }

  /** Records a change (timestamps never go backwards, even if two changes share a millisecond) and journals it. */
  private touch(shelf: StoredShelf, volumesChanged: boolean): StoredShelf {
    const now = Math.max(this.now(), shelf.updated);
    shelf.updated = now;
    if (volumesChanged) shelf.volumesLastUpdated = now;
    this.shelves.set(shelfKey(shelf.userId, shelf.id), shelf);
    return shelf;
  }
}
