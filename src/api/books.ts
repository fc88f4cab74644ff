import {
  Bookshelf,
  bookshelfSchema,
  Bookshelves,
  bookshelvesSchema,
  Projection,
  SEARCH_DEFAULT_MAX_RESULTS,
  SEARCH_MAX_RESULTS,
  ShelfId,
  Volume,
  volumeSchema,
  VolumeSearchInput,
  volumeSearchInputSchema,
  Volumes,
  volumesSchema,
} from '../shared/schemas/books';
import { HttpClient, path } from './http';

export type { Bookshelf, Bookshelves, ShelfId, Volume, Volumes, VolumeSearchInput } from '../shared/schemas/books';

/**
 * Google Books API v1: one method per discovery operation (all 12 of volumes, bookshelves and mylibrary.bookshelves),
 * every answer checked against the shared schemas. Books' base already contains `/books/v1`, so the paths here carry
 * it and the HttpClient's root is Google's host (or the emulator's root). Books pages by startIndex and totalItems,
 * never by page tokens: `searchAll` and `allShelfVolumes` walk those.
 */

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SearchOptions extends VolumeSearchInput, CallOptions {}

export interface ShelfVolumesOptions extends CallOptions {
  startIndex?: number;
  maxResults?: number;
}

export interface MyShelfVolumesOptions extends ShelfVolumesOptions {
  /** A search within the shelf (same syntax as volumes.list). */
  q?: string;
  projection?: Projection;
}

export interface GetVolumeOptions extends CallOptions {
  projection?: Projection;
}

/** What `searchAll` yields: stops after `limit` volumes (Google will not page a search much past ~1000 anyway). */
export interface SearchAllOptions extends Omit<SearchOptions, 'startIndex'> {
  limit?: number;
}

const shelfSegment = (shelf: ShelfId): string => String(shelf);

export class BooksClient {
  constructor(private readonly http: HttpClient) {}

  // ---- volumes

  getVolume(volumeId: string, options: GetVolumeOptions = {}): Promise<Volume> {
    return this.http.json(volumeSchema, {
      method: 'GET',
      path: path`/books/v1/volumes/${volumeId}`,
      query: { projection: options.projection },
      signal: options.signal,
      operation: 'books.volumes.get',
    });
  }

  /** One page of a search; `q` uses Google's syntax (free text, intitle:, inauthor:, inpublisher:, subject:, isbn:, "phrases"). */
  async searchVolumes(q: string, options: SearchOptions = {}): Promise<Volumes> {
    const { signal, ...parameters } = options;
    // Fail before the network: a bad enum or a maxResults above 40 is the caller's bug, not the service's.
    const result = volumeSearchInputSchema.safeParse(parameters);
    if (!result.success) {
      const issue = result.error.issues.at(0);
      throw new RangeError(`books.volumes.list: ${issue?.path.map(String).join('.') || 'options'} ${issue?.message ?? 'is invalid'}`);
    }
    const checked = result.data;
    return this.http.json(volumesSchema, {
      method: 'GET',
      path: '/books/v1/volumes',
      query: { q, ...checked },
      signal,
      operation: 'books.volumes.list',
    });
  }

  /**
   * Every volume of a search, lazily, page by page with startIndex. Stops at totalItems, at `limit`, or at the first
   * empty page (Google's totalItems is an estimate and may promise more than it serves).
   */
  async *searchAll(q: string, options: SearchAllOptions = {}): AsyncGenerator<Volume> {
    const { limit = Number.POSITIVE_INFINITY, ...rest } = options;
    const pageSize = rest.maxResults ?? SEARCH_MAX_RESULTS;
    if (pageSize <= 0) return;
    let startIndex = 0;
    let yielded = 0;
    while (yielded < limit) {
      const page = await this.searchVolumes(q, { ...rest, maxResults: pageSize, startIndex });
      const items = page.items ?? [];
      for (const volume of items) {
        yield volume;
        if (++yielded >= limit) return;
      }
      startIndex += items.length;
      if (items.length === 0 || startIndex >= page.totalItems) return;
    }
  }

  // ---- bookshelves (a named user's public shelves)

  listUserBookshelves(userId: string, options: CallOptions = {}): Promise<Bookshelves> {
    return this.http.json(bookshelvesSchema, {
      method: 'GET',
      path: path`/books/v1/users/${userId}/bookshelves`,
      signal: options.signal,
      operation: 'books.bookshelves.list',
    });
  }

  getUserBookshelf(userId: string, shelf: ShelfId, options: CallOptions = {}): Promise<Bookshelf> {
    return this.http.json(bookshelfSchema, {
      method: 'GET',
      path: path`/books/v1/users/${userId}/bookshelves/${shelfSegment(shelf)}`,
      signal: options.signal,
      operation: 'books.bookshelves.get',
    });
  }

  listUserShelfVolumes(userId: string, shelf: ShelfId, options: ShelfVolumesOptions = {}): Promise<Volumes> {
    return this.http.json(volumesSchema, {
      method: 'GET',
      path: path`/books/v1/users/${userId}/bookshelves/${shelfSegment(shelf)}/volumes`,
      query: { startIndex: options.startIndex, maxResults: options.maxResults },
      signal: options.signal,
      operation: 'books.bookshelves.volumes.list',
    });
  }

  // ---- mylibrary.bookshelves (the signed-in user's shelves)

  listMyBookshelves(options: CallOptions = {}): Promise<Bookshelves> {
    return this.http.json(bookshelvesSchema, {
      method: 'GET',
      path: '/books/v1/mylibrary/bookshelves',
      signal: options.signal,
      operation: 'books.mylibrary.bookshelves.list',
    });
  }

  getMyBookshelf(shelf: ShelfId, options: CallOptions = {}): Promise<Bookshelf> {
    return this.http.json(bookshelfSchema, {
      method: 'GET',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}`,
      signal: options.signal,
      operation: 'books.mylibrary.bookshelves.get',
    });
  }

  listMyShelfVolumes(shelf: ShelfId, options: MyShelfVolumesOptions = {}): Promise<Volumes> {
    return this.http.json(volumesSchema, {
      method: 'GET',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}/volumes`,
      query: { startIndex: options.startIndex, maxResults: options.maxResults, q: options.q, projection: options.projection },
      signal: options.signal,
      operation: 'books.mylibrary.bookshelves.volumes.list',
    });
  }

  /** Every volume on one of my shelves, in shelf order, following startIndex to totalItems. */
  async *allMyShelfVolumes(shelf: ShelfId, options: Omit<MyShelfVolumesOptions, 'startIndex'> = {}): AsyncGenerator<Volume> {
    const pageSize = options.maxResults ?? SEARCH_DEFAULT_MAX_RESULTS;
    if (pageSize <= 0) return;
    let startIndex = 0;
    for (;;) {
      const page = await this.listMyShelfVolumes(shelf, { ...options, maxResults: pageSize, startIndex });
      const items = page.items ?? [];
      yield* items;
      startIndex += items.length;
      if (items.length === 0 || startIndex >= page.totalItems) return;
    }
  }

  /** Adding a volume already on the shelf changes nothing, so a retried POST is harmless. */
  addVolume(shelf: ShelfId, volumeId: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'POST',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}/addVolume`,
      query: { volumeId },
      signal: options.signal,
      idempotent: true,
      operation: 'books.mylibrary.bookshelves.addVolume',
    });
  }

  /**
   * Not retried: if the first attempt landed, a repeat answers "not on the shelf" and would turn a success into an
   * error the user must puzzle over.
   */
  removeVolume(shelf: ShelfId, volumeId: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'POST',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}/removeVolume`,
      query: { volumeId },
      signal: options.signal,
      operation: 'books.mylibrary.bookshelves.removeVolume',
    });
  }

  /** Emptying an empty shelf is still an empty shelf: safe to retry. */
  clearVolumes(shelf: ShelfId, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'POST',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}/clearVolumes`,
      signal: options.signal,
      idempotent: true,
      operation: 'books.mylibrary.bookshelves.clearVolumes',
    });
  }

  /** Moving to an absolute position twice lands in the same place: safe to retry. */
  moveVolume(shelf: ShelfId, volumeId: string, volumePosition: number, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'POST',
      path: path`/books/v1/mylibrary/bookshelves/${shelfSegment(shelf)}/moveVolume`,
      query: { volumeId, volumePosition },
      signal: options.signal,
      idempotent: true,
      operation: 'books.mylibrary.bookshelves.moveVolume',
    });
  }
}
