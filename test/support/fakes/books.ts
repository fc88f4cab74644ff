/** An in-memory Books service implementing the extension's Books port: shelves per user, Google's shelf rules, paging by startIndex, and a substring search. */
import { GoogleApiError } from '../../../src/api/errors';
import type { BooksApi } from '../../../src/features/books/port';
import { READ_ONLY_SHELF_IDS } from '../../../src/features/books/port';
import type { Bookshelf, Bookshelves, Volume, Volumes } from '../../../src/shared/schemas/books';

type Options = { signal?: AbortSignal; startIndex?: number; maxResults?: number };

export function fakeVolume(id: string, title: string, extra: Partial<Volume['volumeInfo']> = {}, more: Partial<Volume> = {}): Volume {
  return { kind: 'books#volume', id, volumeInfo: { title, authors: ['Anon'], publishedDate: '2001', pageCount: 100, ...extra }, saleInfo: { isEbook: true }, ...more };
}

interface FakeShelf {
  id: number;
  title: string;
  access: 'PUBLIC' | 'PRIVATE';
  volumeIds: string[];
}

const notFound = (message: string): GoogleApiError => new GoogleApiError(404, message, 'notFound', [], undefined);

export class FakeBooks implements BooksApi {
  readonly volumes = new Map<string, Volume>();
  readonly libraries = new Map<string, FakeShelf[]>();
  /** Every call, as `method args…`, to assert what the feature asked for. */
  readonly calls: string[] = [];
  /** Held back search answers: tests resolve them to control ordering. */
  searchGate: Promise<void> | undefined;
  me = 'me-id';

  constructor() {
    this.libraries.set(this.me, [
      { id: 0, title: 'Favorites', access: 'PUBLIC', volumeIds: [] },
      { id: 1, title: 'Purchased', access: 'PRIVATE', volumeIds: [] },
      { id: 2, title: 'To read', access: 'PUBLIC', volumeIds: [] },
      { id: 7, title: 'My eBooks', access: 'PRIVATE', volumeIds: [] },
    ]);
  }

  addVolumes(...volumes: Volume[]): void {
    for (const volume of volumes) this.volumes.set(volume.id, volume);
  }

  shelf(owner: string, id: number): FakeShelf {
    const shelf = this.libraries.get(owner)?.find((candidate) => candidate.id === id);
    if (!shelf) throw notFound('The bookshelf ID could not be found.');
    return shelf;
  }

  private render(shelf: FakeShelf): Bookshelf {
    return { kind: 'books#bookshelf', id: shelf.id, title: shelf.title, access: shelf.access, volumeCount: shelf.volumeIds.length };
  }

  private page(ids: readonly string[], options: Options): Volumes {
    const start = options.startIndex ?? 0;
    const size = options.maxResults ?? 10;
    const items = ids.slice(start, start + size).map((id) => this.volumes.get(id) as Volume);
    return { kind: 'books#volumes', totalItems: ids.length, ...(items.length ? { items } : {}) };
  }

  private publicShelf(userId: string, shelf: number | string): FakeShelf {
    if (!this.libraries.has(userId)) throw notFound('The user ID could not be found.');
    const found = this.shelf(userId, Number(shelf));
    if (found.access !== 'PUBLIC') throw notFound('The bookshelf ID could not be found.');
    return found;
  }

  async getVolume(volumeId: string): Promise<Volume> {
    this.calls.push(`getVolume ${volumeId}`);
    const volume = this.volumes.get(volumeId);
    if (!volume) throw notFound('The volume ID could not be found.');
    return volume;
  }

  async searchVolumes(q: string, options: Options = {}): Promise<Volumes> {
    this.calls.push(`searchVolumes ${q} ${options.startIndex ?? 0}`);
    if (this.searchGate) await this.searchGate;
    if (options.signal?.aborted) throw new Error('aborted');
    const words = q.toLowerCase().replace(/\b(intitle|inauthor|subject|isbn):/g, '').split(/\s+/).filter(Boolean);
    const ids = [...this.volumes.values()].filter((volume) => words.every((word) => JSON.stringify(volume.volumeInfo).toLowerCase().includes(word))).map((volume) => volume.id);
    return this.page(ids, options);
  }

  async listUserBookshelves(userId: string): Promise<Bookshelves> {
    this.calls.push(`listUserBookshelves ${userId}`);
    if (!this.libraries.has(userId)) throw notFound('The user ID could not be found.');
    return { kind: 'books#bookshelves', items: (this.libraries.get(userId) ?? []).filter((shelf) => shelf.access === 'PUBLIC').map((shelf) => this.render(shelf)) };
  }

  async getUserBookshelf(userId: string, shelf: number | string): Promise<Bookshelf> {
    this.calls.push(`getUserBookshelf ${userId} ${shelf}`);
    return this.render(this.publicShelf(userId, shelf));
  }

  async listUserShelfVolumes(userId: string, shelf: number | string, options: Options = {}): Promise<Volumes> {
    this.calls.push(`listUserShelfVolumes ${userId} ${shelf} ${options.startIndex ?? 0}`);
    return this.page(this.publicShelf(userId, shelf).volumeIds, options);
  }

  async listMyBookshelves(): Promise<Bookshelves> {
    this.calls.push('listMyBookshelves');
    return { kind: 'books#bookshelves', items: (this.libraries.get(this.me) ?? []).map((shelf) => this.render(shelf)) };
  }

  async getMyBookshelf(shelf: number | string): Promise<Bookshelf> {
    this.calls.push(`getMyBookshelf ${shelf}`);
    return this.render(this.shelf(this.me, Number(shelf)));
  }

  async listMyShelfVolumes(shelf: number | string, options: Options = {}): Promise<Volumes> {
    this.calls.push(`listMyShelfVolumes ${shelf} ${options.startIndex ?? 0}`);
    return this.page(this.shelf(this.me, Number(shelf)).volumeIds, options);
  }

  private writable(shelf: number | string): FakeShelf {
    const found = this.shelf(this.me, Number(shelf));
    if (READ_ONLY_SHELF_IDS.has(found.id)) throw new GoogleApiError(403, 'cannot be changed', 'forbidden', [], undefined);
    return found;
  }

  async addVolume(shelf: number | string, volumeId: string): Promise<void> {
    this.calls.push(`addVolume ${shelf} ${volumeId}`);
    const found = this.writable(shelf);
    if (!found.volumeIds.includes(volumeId)) found.volumeIds.unshift(volumeId);
  }

  async removeVolume(shelf: number | string, volumeId: string): Promise<void> {
    this.calls.push(`removeVolume ${shelf} ${volumeId}`);
    const found = this.writable(shelf);
    if (!found.volumeIds.includes(volumeId)) throw notFound('not on the shelf');
    found.volumeIds = found.volumeIds.filter((id) => id !== volumeId);
  }

  async clearVolumes(shelf: number | string): Promise<void> {
    this.calls.push(`clearVolumes ${shelf}`);
    this.writable(shelf).volumeIds = [];
  }

  async moveVolume(shelf: number | string, volumeId: string, volumePosition: number): Promise<void> {
    this.calls.push(`moveVolume ${shelf} ${volumeId} ${volumePosition}`);
    const found = this.writable(shelf);
    const index = found.volumeIds.indexOf(volumeId);
    if (index < 0) throw notFound('not on the shelf');
    found.volumeIds.splice(index, 1);
    found.volumeIds.splice(Math.min(volumePosition, found.volumeIds.length), 0, volumeId);
  }
}
