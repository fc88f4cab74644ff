/**
 * The Bookshelves tree's data, without vscode: My Library and the public libraries the user added, their shelves, and
 * each shelf's volumes loaded a page at a time (startIndex/maxResults) behind a "Load more…" row. Nodes keep stable
 * ids (`<kind>/<owner>/<ids>`) and their parent (for reveal); the provider (treeProvider.ts) only renders them.
 */
import { isUnreachable } from '../../../api/errors';
import { FirstRowsFromCache, type ViewSnapshotStore } from '../../../core/storage/viewCache';
import type { Bookshelf, Volume } from '../../../shared/schemas/books';
import { BooksApi, isWritableShelf } from '../port';
import { appendAll } from '../../../shared/arrays';

/** `me` is the signed-in user's library; any other owner is a Books user id (digits, never `me`). */
export const MY_LIBRARY = 'me';

export interface LibraryNode {
  readonly kind: 'library';
  readonly id: string;
  readonly parent: undefined;
  /** `me` or a user id. */
  readonly owner: string;
  readonly mine: boolean;
}

export interface ShelfNode {
  readonly kind: 'shelf';
  readonly id: string;
  readonly parent: LibraryNode;
  /** Replaced in place when the library reloads, so VS Code keeps the row (and its expansion). */
  shelf: Bookshelf;
  /** Mine and not one of the shelves Google fills itself: volumes may be added, removed, moved, cleared. */
  readonly writable: boolean;
}

export interface VolumeNode {
  readonly kind: 'volume';
  readonly id: string;
  readonly parent: ShelfNode;
  volume: Volume;
  /** 0-based place on the shelf (moveVolume's volumePosition). */
  position: number;
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
  readonly id: string;
  readonly parent: ShelfNode;
}

/** A row that is not data; the provider words it (l10n). `error` carries what failed in `detail`. */
export interface MessageNode {
  readonly kind: 'message';
  readonly id: string;
  readonly parent: LibraryNode | ShelfNode;
  readonly key: 'noShelves' | 'noPublicShelves' | 'noVolumes' | 'offline' | 'error';
  readonly detail?: string;
}

export type BooksNode = LibraryNode | ShelfNode | VolumeNode | LoadMoreNode | MessageNode;

/** What is loaded of one shelf: volumes in shelf order, from index 0 on. */
interface ShelfListing {
  readonly volumes: Volume[];
  totalItems: number;
  /** A page came back empty before totalItems was reached (Google's totalItems is an estimate): stop offering more. */
  exhausted: boolean;
  pending: Promise<void> | undefined;
  error: unknown;
}

export interface BooksTreeModelOptions {
  /** The user ids of the public libraries to show, in order (remembered per account by the feature). */
  readonly publicLibraries: () => readonly string[];
  /** Volumes per page of a shelf (default 40). */
  readonly pageSize?: number;
  /** The view's slot (tree/snapshot.ts): My Library's shelves of the last session, shown at the first start until the fresh ones come. */
  readonly cache?: ViewSnapshotStore<Bookshelf[]>;
  /** The fresh shelves replaced the cached ones: My Library must be drawn again. */
  readonly onFirstRowsReplaced?: (myLibrary: LibraryNode) => void;
  /** The cached shelves were of an account not signed in: the library rows must be drawn again. */
  readonly onFirstRowsDropped?: () => void;
}

export const DEFAULT_SHELF_PAGE_SIZE = 40;


export const libraryId = (owner: string): string => `library/${owner}`;
export const shelfNodeId = (owner: string, shelfId: number): string => `shelf/${owner}/${shelfId}`;
export const volumeNodeId = (owner: string, shelfId: number, volumeId: string): string => `volume/${owner}/${shelfId}/${volumeId}`;

export class BooksTreeModel {
  /** Mutable so tests (and a future setting) can make pages small. */
  pageSize: number;
  private readonly libraries = new Map<string, LibraryNode>();
  private readonly shelfLists = new Map<string, Promise<Bookshelf[]>>();
  private readonly listings = new Map<string, ShelfListing>();
  private readonly shelfNodes = new Map<string, ShelfNode>();
  private readonly volumeNodes = new Map<string, VolumeNode>();
  /**
   * What the view last showed (this session): offline, shelves and volumes keep showing it instead of error rows.
   * Kept across Refresh; a new model (sign-in, another backend, back online) starts without it.
   */
  private readonly knownShelves = new Map<string, Bookshelf[]>();
  private readonly knownVolumes = new Map<string, Volume[]>();

  /** My Library's shelves of the last session, read once at the first start (tree/snapshot.ts). */
  private readonly firstRows: FirstRowsFromCache<Bookshelf[]> | undefined;

  constructor(private readonly apiOf: () => BooksApi, private readonly options: BooksTreeModelOptions) {
    this.pageSize = options.pageSize ?? DEFAULT_SHELF_PAGE_SIZE;
    this.firstRows = options.cache
      ? new FirstRowsFromCache(options.cache, () => options.onFirstRowsReplaced?.(this.library(MY_LIBRARY)), options.onFirstRowsDropped ? { onDropped: options.onFirstRowsDropped } : {})
      : undefined;
  }

  /** Reads the cached shelves now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.firstRows?.prefetch();
  }

  /** Built on first use: constructing the model costs no client. */
  private get api(): BooksApi {
    return this.apiOf();
  }

  // ---- nodes

  /** My Library first, then each public library in the order it was added. */
  roots(): LibraryNode[] {
    const owners = [MY_LIBRARY, ...this.options.publicLibraries().filter((owner) => owner !== MY_LIBRARY)];
    return [...new Set(owners)].map((owner) => this.library(owner));
  }

  library(owner: string): LibraryNode {
    let node = this.libraries.get(owner);
    if (!node) {
      node = { kind: 'library', id: libraryId(owner), parent: undefined, owner, mine: owner === MY_LIBRARY };
      this.libraries.set(owner, node);
    }
    return node;
  }

  parentOf(node: BooksNode): BooksNode | undefined {
    return node.parent;
  }

  /** A library's shelves, or a shelf's loaded volumes (the first page fetched on first expansion). Throws on failure. */
  async children(node: BooksNode): Promise<BooksNode[]> {
    if (node.kind === 'library') return this.shelfChildren(node);
    if (node.kind === 'shelf') return this.volumeChildren(node);
    return [];
  }

  /** A shelf's node, once its library has been listed. */
  shelfNode(owner: string, shelfId: number): ShelfNode | undefined {
    return this.shelfNodes.get(shelfNodeId(owner, shelfId));
  }

  /** The shelf rows of a library built so far (to reload all their volumes on Refresh). */
  loadedShelves(owner: string): ShelfNode[] {
    const prefix = `shelf/${owner}/`;
    return [...this.shelfNodes.values()].filter((node) => node.id.startsWith(prefix));
  }

  /** Finds (loading the library and pages as needed) the row of a volume on a shelf, for reveal. */
  async findVolumeNode(owner: string, shelfId: number, volumeId: string, maxPages = 25): Promise<VolumeNode | undefined> {
    await this.children(this.library(owner));
    const shelf = this.shelfNode(owner, shelfId);
    if (!shelf) return undefined;
    for (let page = 0; page < maxPages; page++) {
      const rows = await this.children(shelf);
      const found = rows.find((row): row is VolumeNode => row.kind === 'volume' && row.volume.id === volumeId);
      if (found) return found;
      if (!(await this.loadMore(shelf))) return undefined;
    }
    return undefined;
  }

  // ---- data for commands

  /** A library's shelves (cached until invalidated). */
  shelves(owner: string): Promise<Bookshelf[]> {
    let list = this.shelfLists.get(owner);
    if (!list) {
      list = owner === MY_LIBRARY
        ? this.api.listMyBookshelves().then((answer) => {
          const shelves = answer.items ?? [];
          this.firstRows?.save(shelves);
          this.knownShelves.set(owner, shelves);
          return shelves;
        })
        : this.api.listUserBookshelves(owner).then((answer) => {
          const shelves = answer.items ?? [];
          this.knownShelves.set(owner, shelves);
          return shelves;
        });
      this.shelfLists.set(owner, list);
      // Failures are not cached: the next expansion or command tries again.
      list.catch(() => {
        if (this.shelfLists.get(owner) === list) this.shelfLists.delete(owner);
      });
    }
    return list;
  }

  /** My shelves that take changes (for "Add to Shelf…"). */
  async writableShelves(): Promise<Bookshelf[]> {
    return (await this.shelves(MY_LIBRARY)).filter(isWritableShelf);
  }

  /** The volume ids loaded for a shelf, in shelf order (the drop plan's positions). */
  loadedOrder(shelf: ShelfNode): string[] {
    return (this.listings.get(shelf.id)?.volumes ?? []).map((volume) => volume.id);
  }

  /**
   * A move kept offline, shown at once: the volume takes `position` (0 is first) in what is loaded of the shelf (and in
   * what shows of it offline). Answers whether anything loaded changed (the shelf then redraws without a request).
   */
  moveLocally(shelf: ShelfNode, volumeId: string, position: number): boolean {
    return this.changeLoaded(shelf, (volumes) => {
      const from = volumes.findIndex((volume) => volume.id === volumeId);
      if (from < 0) return false;
      // `from` was found: the splice takes out exactly that volume.
      const moved = volumes.splice(from, 1);
      volumes.splice(Math.min(position, volumes.length), 0, ...moved);
      return true;
    }, 0);
  }

  /**
   * An add kept offline, shown at once: the volume heads what is loaded of the shelf (Books lists the latest added
   * first). Answers whether anything loaded changed.
   */
  addLocally(shelf: ShelfNode, volume: Volume): boolean {
    return this.changeLoaded(shelf, (volumes) => {
      if (volumes.some((loaded) => loaded.id === volume.id)) return false;
      volumes.unshift(volume);
      return true;
    }, 1);
  }

  /** A remove kept offline, shown at once: the volume leaves what is loaded of the shelf. */
  removeLocally(shelf: ShelfNode, volumeId: string): boolean {
    return this.changeLoaded(shelf, (volumes) => {
      const at = volumes.findIndex((loaded) => loaded.id === volumeId);
      if (at < 0) return false;
      volumes.splice(at, 1);
      return true;
    }, -1);
  }

  /** Applies `change` to the shelf's loaded rows and to what shows of it offline; the listing's count follows. */
  private changeLoaded(shelf: ShelfNode, change: (volumes: Volume[]) => boolean, countChange: number): boolean {
    const listing = this.listings.get(shelf.id);
    let changed = false;
    if (listing && change(listing.volumes)) {
      listing.totalItems = Math.max(0, listing.totalItems + countChange);
      changed = true;
    }
    const known = this.knownVolumes.get(shelf.id);
    if (known && known !== listing?.volumes && change(known)) changed = true;
    return changed;
  }

  /** Whether a shelf has more volumes than are loaded. */
  hasMore(shelf: ShelfNode): boolean {
    const listing = this.listings.get(shelf.id);
    return listing !== undefined && !listing.exhausted && listing.volumes.length < listing.totalItems;
  }

  /** Fetches a shelf's next page; false when there was none to fetch. */
  async loadMore(shelf: ShelfNode): Promise<boolean> {
    const listing = this.listings.get(shelf.id);
    if (!listing) return false;
    if (listing.pending) {
      await listing.pending;
      return true;
    }
    if (!this.hasMore(shelf)) return false;
    await this.fetchPage(shelf, listing);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the page's request failed with, kept on the listing
    if (listing.error !== undefined) throw listing.error;
    return true;
  }

  // ---- invalidation

  /** Everything again (sign-in, backend switch, Refresh); the last session's rows are not shown again. */
  reset(): void {
    this.firstRows?.reset();
    this.shelfLists.clear();
    this.listings.clear();
    this.shelfNodes.clear();
    this.volumeNodes.clear();
  }

  /** A library's shelf list (counts, access) and, with `shelfIds`, those shelves' volumes reload on next render. */
  invalidateLibrary(owner: string, shelfIds: readonly number[] = []): void {
    this.shelfLists.delete(owner);
    for (const shelfId of shelfIds) this.listings.delete(shelfNodeId(owner, shelfId));
  }

  /** Only a shelf's volumes reload. */
  invalidateShelf(owner: string, shelfId: number): void {
    this.listings.delete(shelfNodeId(owner, shelfId));
  }

  /** A public library was removed: forget its shelves and volumes. */
  forgetLibrary(owner: string): void {
    this.shelfLists.delete(owner);
    this.libraries.delete(owner);
    const prefix = (kind: string): string => `${kind}/${owner}/`;
    for (const id of [...this.listings.keys()]) if (id.startsWith(prefix('shelf'))) this.listings.delete(id);
    for (const id of [...this.shelfNodes.keys()]) if (id.startsWith(prefix('shelf'))) this.shelfNodes.delete(id);
    for (const id of [...this.volumeNodes.keys()]) if (id.startsWith(prefix('volume'))) this.volumeNodes.delete(id);
  }

  // ---- loading

  /** Whether My Library's first rows come from the cache (see FirstRowsFromCache.startsFromCache). */
  async startsFromCache(): Promise<boolean> {
    return (await this.firstRows?.startsFromCache()) ?? false;
  }

  /** Whether My Library shows the last session's shelves while the fresh ones load. */
  get refreshing(): boolean {
    return this.firstRows?.refreshing ?? false;
  }

  private async shelfChildren(library: LibraryNode): Promise<BooksNode[]> {
    const cache = library.mine ? this.firstRows : undefined;
    let shelves: Bookshelf[];
    try {
      const cached = (await cache?.firstStart(() => this.shelves(MY_LIBRARY))) ?? cache?.snapshot;
      shelves = cached ?? (await this.shelves(library.owner));
    } catch (error) {
      // Offline: the shelves as last shown (or cached), never an error row; never loaded, one short row says so.
      if (!isUnreachable(error)) throw error;
      const known = this.knownShelves.get(library.owner) ?? cache?.snapshot;
      if (!known) return [{ kind: 'message', id: `message/${library.owner}/offline`, parent: library, key: 'offline' }];
      shelves = known;
    }
    const rows: BooksNode[] = shelves.map((shelf) => this.toShelfNode(library, shelf));
    if (rows.length === 0) {
      rows.push({ kind: 'message', id: `message/${library.owner}/empty`, parent: library, key: library.mine ? 'noShelves' : 'noPublicShelves' });
    }
    return rows;
  }

  private async volumeChildren(shelf: ShelfNode): Promise<BooksNode[]> {
    let listing = this.listings.get(shelf.id);
    if (!listing) {
      listing = { volumes: [], totalItems: 0, exhausted: false, pending: undefined, error: undefined };
      this.listings.set(shelf.id, listing);
      await this.fetchPage(shelf, listing);
    } else if (listing.pending) {
      await listing.pending;
    }
    if (listing.error !== undefined && listing.volumes.length === 0) {
      // Not cached: the next expansion (or the error row's retry) loads again.
      this.listings.delete(shelf.id);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the shelf's request failed with, kept on the listing
      if (!isUnreachable(listing.error)) throw listing.error;
      // Offline: the volumes as last shown this session; never loaded, one short row says so.
      const known = this.knownVolumes.get(shelf.id);
      if (!known) return [{ kind: 'message', id: `message/${shelf.parent.owner}/${shelf.shelf.id}/offline`, parent: shelf, key: 'offline' }];
      return known.map((volume, position) => this.toVolumeNode(shelf, volume, position));
    }
    if (listing.error === undefined) this.knownVolumes.set(shelf.id, [...listing.volumes]);
    const rows: BooksNode[] = listing.volumes.map((volume, position) => this.toVolumeNode(shelf, volume, position));
    if (this.hasMore(shelf)) rows.push({ kind: 'loadMore', id: `loadMore/${shelf.parent.owner}/${shelf.shelf.id}`, parent: shelf });
    if (rows.length === 0) rows.push({ kind: 'message', id: `message/${shelf.parent.owner}/${shelf.shelf.id}/empty`, parent: shelf, key: 'noVolumes' });
    return rows;
  }

  private fetchPage(shelf: ShelfNode, listing: ShelfListing): Promise<void> {
    const run = async (): Promise<void> => {
      try {
        const paging = { startIndex: listing.volumes.length, maxResults: this.pageSize };
        const page = shelf.parent.mine
          ? await this.api.listMyShelfVolumes(shelf.shelf.id, paging)
          : await this.api.listUserShelfVolumes(shelf.parent.owner, shelf.shelf.id, paging);
        const items = page.items ?? [];
        const known = new Set(listing.volumes.map((volume) => volume.id));
        appendAll(listing.volumes, items.filter((volume) => !known.has(volume.id)));
        listing.totalItems = page.totalItems;
        listing.exhausted = items.length === 0;
        listing.error = undefined;
      } catch (error) {
        listing.error = error;
      } finally {
        listing.pending = undefined;
      }
    };
    listing.pending = run();
    return listing.pending;
  }

  private toShelfNode(library: LibraryNode, shelf: Bookshelf): ShelfNode {
    const id = shelfNodeId(library.owner, shelf.id);
    const existing = this.shelfNodes.get(id);
    if (existing) {
      existing.shelf = shelf;
      return existing;
    }
    const node: ShelfNode = { kind: 'shelf', id, parent: library, shelf, writable: library.mine && isWritableShelf(shelf) };
    this.shelfNodes.set(id, node);
    return node;
  }

  private toVolumeNode(shelf: ShelfNode, volume: Volume, position: number): VolumeNode {
    const id = volumeNodeId(shelf.parent.owner, shelf.shelf.id, volume.id);
    const existing = this.volumeNodes.get(id);
    if (existing && existing.parent === shelf) {
      existing.volume = volume;
      existing.position = position;
      return existing;
    }
    const node: VolumeNode = { kind: 'volume', id, parent: shelf, volume, position };
    this.volumeNodes.set(id, node);
    return node;
  }
}
