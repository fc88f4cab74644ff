/**
 * The Books port: the part of BooksClient the Bookshelves view, its commands and the live search use. A `Pick` of the
 * client, so no resource type is declared twice and the fakes (test/support/fakes/books.ts) implement exactly this.
 */
import type { BooksClient } from '../../api/books';
import type { Bookshelf } from '../../shared/schemas/books';

export type BooksApi = Pick<BooksClient,
  | 'getVolume' | 'searchVolumes'
  | 'listUserBookshelves' | 'getUserBookshelf' | 'listUserShelfVolumes'
  | 'listMyBookshelves' | 'getMyBookshelf' | 'listMyShelfVolumes'
  | 'addVolume' | 'removeVolume' | 'clearVolumes' | 'moveVolume'>;

/**
 * Google's predefined shelves that Google fills itself and refuses changes to (Purchased, Reviewed, Recently viewed,
 * Books for you, Browsing history): the API's bookshelf resource does not say so, so the ids are listed here, as in
 * the emulator's shelf rules (src/emulator/books/model.ts PREDEFINED_SHELVES).
 */
export const READ_ONLY_SHELF_IDS: ReadonlySet<number> = new Set([1, 5, 6, 8, 9]);

/** My eBooks takes eBooks only (saleInfo.isEbook): the add picker offers it only for those. */
export const MY_EBOOKS_SHELF_ID = 7;

/** Whether the signed-in user may add, remove, move and clear volumes on one of their own shelves. */
export function isWritableShelf(shelf: Pick<Bookshelf, 'id'>): boolean {
  return !READ_ONLY_SHELF_IDS.has(shelf.id);
}
