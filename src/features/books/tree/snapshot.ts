/**
 * Where the Bookshelves view's cache is (core/storage/viewCache.ts): the slot of My Library's shelves, the check of what is
 * read back, and the reader for other features (search). The tree model (model.ts) reads and writes the slot.
 */
import type { ViewCache, ViewCacheSlot } from '../../../core/storage/viewCache';
import { bookshelfSchema, type Bookshelf } from '../../../shared/schemas/books';
import * as z from '../../../shared/schemas/zod';

/** What the view keeps for its next start: My Library's shelves. */
const myShelvesSnapshotSchema = z.array(bookshelfSchema);
export const isMyShelvesSnapshot = (data: unknown): data is Bookshelf[] => myShelvesSnapshotSchema.safeParse(data).success;

/** The view's slot (one file per account): My Library's shelves as last shown. */
export const MY_SHELVES_SNAPSHOT: ViewCacheSlot<Bookshelf[]> = { name: 'books', isValid: isMyShelvesSnapshot };

/** My Library's shelves as the Books view last showed them for `account` (default: the first signed in), from disk. */
export function cachedShelves(cache: ViewCache, account?: string): Promise<Bookshelf[] | undefined> {
  return cache.slot(MY_SHELVES_SNAPSHOT, account).read();
}
