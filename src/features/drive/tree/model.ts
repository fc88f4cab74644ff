/** The Drive tree's vscode-free model: sections, folders, paging behind "Load more", and which listings a change touches. */
import { isUnreachable } from '../../../api/errors';
import { FirstRowsFromCache, type ViewSnapshotStore } from '../../../core/storage/viewCache';
import { english, Translate } from '../../../shared/l10n';
import { isFolder } from '../../../shared/schemas/drive';
import type { CommentNode, CommentsNode } from '../comments/nodes';
import { compareVersions, DriveApi, DriveItem, DriveItemPage, quoteQuery } from '../port';
import { compareItems, DisplayOrder, displayOrder } from './presentation';
import type { SharedDriveSource } from '../sharedDrives/port';
import { appendAll } from '../../../shared/arrays';

/**
 * The Drive tree's data, without vscode: sections, lazily loaded folder listings (one page at a time, with a
 * "Load more…" node), stable node ids and parent links (for reveal), and the mapping from changed files to
 * the listings that must reload. The TreeDataProvider (treeProvider.ts) only renders these nodes.
 */
export type DriveSection = 'myDrive' | 'sharedDrives' | 'shared' | 'trash';

export interface SectionNode {
  readonly kind: 'section';
  readonly id: string;
  readonly section: DriveSection;
  readonly label: string;
  /** A shared drive's own Trash (the last row under the drive): the drive, and its row as the parent. */
  readonly driveId?: string;
  readonly parent?: FileNode;
}

export interface FileNode {
  readonly kind: 'file';
  /** The path of file ids from the section down: unique even when a file has two parents. */
  readonly id: string;
  readonly parent: ContainerNode;
  item: DriveItem;
}

export interface LoadMoreNode {
  readonly kind: 'loadMore';
  readonly id: string;
  readonly parent: ContainerNode;
}

export interface MessageNode {
  readonly kind: 'message';
  readonly id: string;
  readonly parent: ContainerNode;
  readonly text: string;
}

export type ContainerNode = SectionNode | FileNode;
/** Comment rows (comments/nodes.ts) hang under files: "Comments (N)", then one row per comment. */
export type DriveNode = SectionNode | FileNode | LoadMoreNode | MessageNode | CommentsNode | CommentNode;

export const SECTION_IDS: Record<DriveSection, string> = {
  myDrive: 'drive:myDrive',
  sharedDrives: 'drive:sharedDrives',
  shared: 'drive:shared',
  trash: 'drive:trash',
};

interface Listing {
  items: DriveItem[];
  nextPageToken: string | undefined;
  /** The page request in flight, so concurrent expansions share it. */
  pending: Promise<void> | undefined;
  error: unknown;
  /** The page after the last one shown, asked for while the user reads (so "Load more" shows it at once). */
  prefetched: { readonly pageToken: string; readonly page: Promise<DriveItemPage | undefined> } | undefined;
  /** `items` in display order, kept between renders (presentation.ts displayOrder). */
  sorted?: DisplayOrder | undefined;
}

/**
 * The fields of a listing the tree asks for (Google's partial response): what its rows, hovers, context values,
 * drag and drop and row commands read, about half of the whole resource. Editors, the properties document and
 * reveal read the file whole with files.get.
 */
export const TREE_LISTING_FIELDS = 'items(id,title,mimeType,labels,parents(id,isRoot),createdDate,modifiedDate,version,fileSize,md5Checksum,driveId,etag,description,editable,shared,ownedByMe,ownerNames,owners(displayName,emailAddress,permissionId,isAuthenticatedUser),lastModifyingUserName,sharedWithMeDate,sharingUser(displayName,emailAddress),userPermission(role,additionalRoles),writersCanShare,capabilities(canComment,canDelete,canEdit,canListChildren,canShare,canTrash,canTrashChildren,canUntrash)),nextPageToken';

/** Rows of My Drive kept: the first screen, well within the cache file's bound. */
const CACHED_MY_DRIVE_ROWS = 100;

export interface TreeModelOptions {
  /** Items per page of a folder listing. */
  readonly pageSize?: number;
  /** The shared drives the "Shared drives" section lists (none without it). */
  readonly sharedDrives?: SharedDriveSource;
  /** Words the section names and the rows' messages (vscode.l10n.t); English without it. */
  readonly t?: Translate;
  /** The view's slot of the model's account (tree/snapshot.ts): My Drive's first rows of the last session, shown at the first start until the fresh ones come. */
  readonly cache?: ViewSnapshotStore<DriveItem[]>;
  /** The fresh rows replaced the cached ones: My Drive must be drawn again. */
  readonly onFirstRowsReplaced?: (myDrive: SectionNode) => void;
  /** The cached rows were of an account not signed in: the whole tree must be drawn again. */
  readonly onFirstRowsDropped?: () => void;
}

/** How findNode looks: pages per folder before giving up, and who hears of a container it had to complete. */
export interface FindNodeOptions {
  readonly maxPagesPerFolder?: number;
  readonly onPlaced?: (container: ContainerNode) => void;
}

export class DriveTreeModel {
  readonly pageSize: number;
  readonly sections: readonly SectionNode[];
  private readonly t: Translate;
  private readonly listings = new Map<string, Listing>();
  /** Each container's rows as last loaded (or cached at a reload): offline, they stay instead of an error row. */
  private readonly known = new Map<string, DriveItem[]>();
  private readonly nodes = new Map<string, FileNode>();
  /** The Trash rows of the shared drives shown, by node id. */
  private readonly driveTrashes = new Map<string, SectionNode>();
  private rootFolderId: Promise<string> | undefined;
  private readonly sharedDrives: SharedDriveSource | undefined;
  /** Whether "Shared drives" also lists the drives the user hid. */
  showHiddenDrives = false;

  constructor(private readonly api: DriveApi, options: TreeModelOptions = {}) {
    this.pageSize = options.pageSize ?? 200;
    const t = (this.t = options.t ?? english);
    this.sections = [
      { kind: 'section', id: SECTION_IDS.myDrive, section: 'myDrive', label: t('My Drive') },
      { kind: 'section', id: SECTION_IDS.sharedDrives, section: 'sharedDrives', label: t('Shared drives') },
      { kind: 'section', id: SECTION_IDS.shared, section: 'shared', label: t('Shared with me') },
      { kind: 'section', id: SECTION_IDS.trash, section: 'trash', label: t('Trash') },
    ];
    this.sharedDrives = options.sharedDrives;
    const myDrive = this.section('myDrive');
    this.cache = options.cache
      ? new FirstRowsFromCache(options.cache, () => options.onFirstRowsReplaced?.(myDrive), options.onFirstRowsDropped ? { onDropped: options.onFirstRowsDropped } : {})
      : undefined;
  }

  private readonly cache: FirstRowsFromCache<DriveItem[]> | undefined;

  /** Whether My Drive shows the last session's rows while the fresh ones load. */
  get refreshing(): boolean {
    return this.cache?.refreshing ?? false;
  }

  section(section: DriveSection): SectionNode {
    return this.sections.find((node) => node.section === section) as SectionNode;
  }

  /** My Drive's real folder id (changes name parents by id; `root` is only an alias). */
  rootId(): Promise<string> {
    this.rootFolderId ??= this.api.about().then((about) => {
      if (!about.rootFolderId) throw new Error(this.t('The Drive service did not say which folder is My Drive'));
      return about.rootFolderId;
    });
    this.rootFolderId.catch(() => { this.rootFolderId = undefined; });
    return this.rootFolderId;
  }

  /** Forget everything (sign-out, backend switch, invalid change token); the last session's rows are not shown again. */
  reset(): void {
    this.cache?.reset();
    this.listings.clear();
    this.nodes.clear();
    this.driveTrashes.clear();
    this.rootFolderId = undefined;
  }

  isContainer(node: DriveNode): node is ContainerNode {
    if (node.kind === 'section') return true;
    return node.kind === 'file' && isFolder(node.item) && sectionOf(node) !== 'trash';
  }

  parentOf(node: DriveNode): DriveNode | undefined {
    return node.parent;
  }

  /**
   * A shared drive's own Trash, under the drive's row: Drive keeps one trash per shared drive, apart from the user's,
   * and its organizers empty it.
   */
  driveTrashOf(row: FileNode): SectionNode {
    const id = `${row.id}/…trash`;
    let node = this.driveTrashes.get(id);
    if (!node) {
      node = { kind: 'section', id, section: 'trash', label: this.t('Trash'), driveId: row.item.id, parent: row };
      this.driveTrashes.set(id, node);
    }
    return node;
  }

  /** A shared drive's Trash by the drive (its row as shown, or as it would be when the section is not loaded). */
  driveTrashOfDrive(drive: DriveItem): SectionNode {
    const section = this.section('sharedDrives');
    const id = `${section.id}/${drive.id}`;
    return this.driveTrashOf(this.nodes.get(id) ?? { kind: 'file', id, parent: section, item: drive });
  }

  /** Where a trashed item is listed: its shared drive's Trash (once that drive is shown), else the user's Trash. */
  trashFor(item: Pick<DriveItem, 'driveId'>): SectionNode[] {
    if (item.driveId === undefined) return [this.section('trash')];
    return [...this.driveTrashes.values()].filter((node) => node.driveId === item.driveId);
  }

  /** Reads the cached rows now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.cache?.prefetch();
  }

  /** Whether My Drive's first rows come from the cache (see FirstRowsFromCache.startsFromCache). */
  async startsFromCache(): Promise<boolean> {
    return (await this.cache?.startsFromCache()) ?? false;
  }

  /** Children of a container: the first page is fetched on first expansion; later pages on "Load more…". */
  async children(container: ContainerNode): Promise<DriveNode[]> {
    if (this.cache && container.kind === 'section' && container.section === 'myDrive' && container.driveId === undefined) {
      const cached = (await this.cache.firstStart(() => this.listing(container))) ?? this.cache.snapshot;
      if (cached && !this.known.has(container.id)) this.known.set(container.id, cached);
      if (cached) return [...cached].sort(compareItems).map((item) => this.fileNode(container, item));
    }
    return this.render(container, await this.listing(container));
  }

  /** A container's listing, its first page fetched on first use. */
  private async listing(container: ContainerNode): Promise<Listing> {
    let listing = this.listings.get(container.id);
    if (!listing) {
      listing = { items: [], nextPageToken: undefined, pending: undefined, error: undefined, prefetched: undefined };
      this.listings.set(container.id, listing);
      await this.fetchPage(container, listing, undefined);
    } else if (listing.pending) {
      await listing.pending;
    }
    return listing;
  }

  /** Fetches the next page of a container; returns false when there was none. */
  async loadMore(container: ContainerNode): Promise<boolean> {
    const listing = this.listings.get(container.id);
    if (!listing) return false;
    if (listing.pending) {
      await listing.pending;
      return true;
    }
    if (!listing.nextPageToken) return false;
    await this.fetchPage(container, listing, listing.nextPageToken);
    return true;
  }

  /** Whether a container's listing is loaded (a refresh of an unloaded folder costs nothing). */
  isLoaded(containerId: string): boolean {
    return this.listings.has(containerId);
  }

  /** Drops a container's listing; its next expansion or render reloads the first page. */
  invalidate(container: ContainerNode): void {
    const listing = this.listings.get(container.id);
    if (!listing) return;
    this.listings.delete(container.id);
    // Nodes below keep their ids; stale descendants are dropped so they reload when shown again.
    const prefix = `${container.id}/`;
    for (const id of [...this.listings.keys()]) if (id.startsWith(prefix)) this.listings.delete(id);
  }

  nodeById(id: string): DriveNode | undefined {
    return this.nodes.get(id) ?? this.driveTrashes.get(id) ?? this.sections.find((node) => node.id === id);
  }

  /** The loaded nodes showing this file (a file with two parents shows twice). */
  nodesForFile(fileId: string): FileNode[] {
    return [...this.nodes.values()].filter((node) => node.item.id === fileId && this.listings.get(node.parent.id)?.items.some((item) => item.id === fileId));
  }

  /**
   * The loaded containers whose listing a changed file affects: the folders it is now in, the folders it
   * was listed in before (a move or trash removes it there), and Trash / Shared with me where relevant.
   * Unloaded folders are skipped: they load fresh when expanded.
   */
  async containersAffectedBy(changed: readonly { fileId: string; item?: DriveItem | undefined; removed: boolean }[]): Promise<ContainerNode[]> {
    const affected = new Map<string, ContainerNode>();
    let rootId: string | undefined;
    try {
      rootId = this.listings.has(SECTION_IDS.myDrive) ? await this.rootId() : undefined;
    } catch {
      rootId = undefined;
    }
    const parentFolderIds = new Set<string>();
    // The containers listing each file and the nodes showing each folder, found once for all the changes, not by
    // searching every listing per change: 1,000 changes over 100,000 loaded rows took 1 s.
    const listedIn = new Map<string, string[]>();
    for (const [containerId, listing] of this.listings) {
      for (const item of listing.items) {
        const containers = listedIn.get(item.id);
        if (!containers) listedIn.set(item.id, [containerId]);
        else if (containers[containers.length - 1] !== containerId) containers.push(containerId);
      }
    }
    for (const change of changed) {
      for (const containerId of listedIn.get(change.fileId) ?? []) {
        const node = this.nodeById(containerId);
        if (node && (node.kind === 'section' || node.kind === 'file')) affected.set(node.id, node);
      }
      const item = change.removed ? undefined : change.item;
      if (!item) continue;
      for (const parent of item.parents ?? []) {
        if (parent.isRoot || parent.id === rootId) parentFolderIds.add(SECTION_IDS.myDrive);
        else parentFolderIds.add(parent.id);
      }
      if (item.labels?.trashed) for (const trash of this.trashFor(item)) if (this.listings.has(trash.id)) affected.set(trash.id, trash);
      if (item.shared) parentFolderIds.add(SECTION_IDS.shared);
    }
    const showing = new Map<string, FileNode[]>();
    for (const node of this.nodes.values()) {
      if (!parentFolderIds.has(node.item.id) || !this.listings.has(node.id)) continue;
      const nodes = showing.get(node.item.id);
      if (nodes) nodes.push(node);
      else showing.set(node.item.id, [node]);
    }
    for (const id of parentFolderIds) {
      if (id.startsWith('drive:')) {
        if (this.listings.has(id)) affected.set(id, this.nodeById(id) as SectionNode);
        continue;
      }
      for (const node of showing.get(id) ?? []) affected.set(node.id, node);
    }
    // Refreshing a container already refreshes what is below it: keep only the top-most ones.
    const ids = [...affected.keys()];
    return [...affected.values()].filter((node) => !ids.some((other) => other !== node.id && node.id.startsWith(`${other}/`)));
  }

  /**
   * Changes from the change feed, put in place in the loaded listings of folders and My Drive: a changed file's row
   * is updated, a file that left a folder (moved, trashed, removed) leaves its listing, one that arrived is added.
   * Those containers only redraw (no request; pages loaded, expanded subfolders and rows keep their ids). Trash,
   * Shared with me and the shared drives' section decide membership on Drive's side: they reload.
   */
  async applyChanges(changed: readonly { fileId: string; item?: DriveItem | undefined; removed: boolean }[]): Promise<{ redraw: ContainerNode[]; reload: ContainerNode[] }> {
    const reload = (await this.containersAffectedBy(changed)).filter((container) => !this.listsByParent(container));
    const rootId = await this.rootIdIfNeeded(changed);
    // Each file's last change wins, as if applied one by one; the rows are indexed once, not searched per change
    // (1000 changes over 100,000 loaded rows took 10 s searched per change).
    const rowsOfFile = new Map<string, FileNode[]>();
    for (const node of this.nodes.values()) {
      const rows = rowsOfFile.get(node.item.id);
      if (rows) rows.push(node);
      else rowsOfFile.set(node.item.id, [node]);
    }
    const latest = new Map<string, DriveItem | undefined>();
    for (const change of changed) {
      const item = change.removed ? undefined : change.item;
      // A poll answered before Desk's own write landed must not put the older version back.
      const earlier = latest.get(change.fileId);
      if (item && ((earlier && isOlderVersion(item, earlier)) || (rowsOfFile.get(change.fileId) ?? []).some((node) => isOlderVersion(item, node.item)))) continue;
      latest.set(change.fileId, item);
    }
    const redraw = new Map<string, ContainerNode>();
    for (const [containerId, listing] of this.listings) {
      const container = this.nodeById(containerId);
      if (!container || (container.kind !== 'section' && container.kind !== 'file') || !this.listsByParent(container)) continue;
      const belongs = (item: DriveItem | undefined): item is DriveItem => item !== undefined && !item.labels?.trashed && (item.parents ?? []).some((parent) => this.isParentOf(container, parent, rootId));
      const listed = new Set<string>();
      let touched = false;
      const items: DriveItem[] = [];
      for (const existing of listing.items) {
        if (!latest.has(existing.id) || listed.has(existing.id)) {
          items.push(existing);
          continue;
        }
        listed.add(existing.id);
        touched = true;
        const item = latest.get(existing.id);
        if (belongs(item)) items.push(item);
      }
      for (const [fileId, item] of latest) {
        if (listed.has(fileId) || !belongs(item)) continue;
        items.push(item);
        touched = true;
      }
      if (!touched) continue;
      listing.items = items;
      redraw.set(container.id, container);
    }
    for (const [fileId, item] of latest) if (item) for (const node of rowsOfFile.get(fileId) ?? []) node.item = item;
    return { redraw: [...redraw.values()], reload };
  }

  /** Whether a container lists the children of one folder: My Drive, a folder, a shared drive (its top folder). */
  private listsByParent(container: ContainerNode): boolean {
    return container.kind === 'file' || (container.section === 'myDrive' && container.driveId === undefined);
  }

  private isParentOf(container: ContainerNode, parent: { id?: string; isRoot?: boolean }, rootId: string | undefined): boolean {
    if (container.kind === 'file') return parent.id === container.item.id;
    return parent.isRoot === true || (rootId !== undefined && parent.id === rootId);
  }

  /** My Drive's folder id, asked for only when a changed file's parents do not say which one is My Drive. */
  private async rootIdIfNeeded(changed: readonly { item?: DriveItem | undefined }[]): Promise<string | undefined> {
    const unsure = changed.some((change) => (change.item?.parents ?? []).some((parent) => parent.isRoot === undefined));
    if (!unsure || !this.listings.has(SECTION_IDS.myDrive)) return undefined;
    return this.rootId().catch(() => undefined);
  }

  /** The folders among the loaded rows: what a folder picker can offer offline. */
  loadedFolders(): DriveItem[] {
    const folders = new Map<string, DriveItem>();
    for (const node of this.nodes.values()) if (isFolder(node.item) && !node.item.labels?.trashed) folders.set(node.item.id, node.item);
    return [...folders.values()];
  }

  /** Updates the metadata a node shows (e.g. after a rename) without reloading its folder. */
  updateItem(item: DriveItem): FileNode[] {
    const updated: FileNode[] = [];
    for (const listing of this.listings.values()) {
      const index = listing.items.findIndex((existing) => existing.id === item.id);
      if (index >= 0) {
        listing.items[index] = item;
        listing.sorted = undefined; // a rename may move the row
      }
    }
    for (const node of this.nodes.values()) {
      if (node.item.id === item.id) {
        node.item = item;
        updated.push(node);
      }
    }
    return updated;
  }

  /**
   * Finds (loading pages as needed) the node of a file under My Drive or Shared with me, for reveal.
   * Walks up the parents with getFile, then down through the listings.
   */
  async findNode(fileId: string, options: FindNodeOptions = {}): Promise<FileNode | undefined> {
    const maxPagesPerFolder = options.maxPagesPerFolder ?? 50;
    const chain: string[] = [fileId];
    const rootId = await this.rootId();
    let section: DriveSection = 'shared';
    let current = await this.api.getFile(fileId);
    /** What Drive answers now for each file on the way: newer than a listing loaded before it was made or moved. */
    const known = new Map<string, DriveItem>([[current.id, current]]);
    if (current.labels?.trashed) section = 'trash';
    for (let depth = 0; depth < 64 && section !== 'trash'; depth++) {
      const parent = current.parents?.[0];
      if (!parent) break;
      if (parent.isRoot || parent.id === rootId) {
        section = 'myDrive';
        break;
      }
      chain.unshift(parent.id);
      try {
        current = await this.api.getFile(parent.id);
        known.set(current.id, current);
      } catch {
        break;
      }
    }
    // A shared drive's item leads up to the drive's top folder, a row of "Shared drives".
    if (section === 'shared' && current.driveId !== undefined && current.id === current.driveId) section = 'sharedDrives';
    let container: ContainerNode = this.section(section);
    if (section === 'trash') chain.splice(0, chain.length - 1);
    // A trashed item of a shared drive is in that drive's Trash, below the drive's row.
    if (section === 'trash' && current.driveId !== undefined) {
      const row = await this.findChild(this.section('sharedDrives'), current.driveId, maxPagesPerFolder);
      if (!row) return undefined;
      container = this.driveTrashOf(row);
    }
    for (const id of chain) {
      const found: FileNode | undefined = (await this.findChild(container, id, maxPagesPerFolder)) ?? (await this.placeKnown(container, known.get(id), maxPagesPerFolder, options.onPlaced));
      // A file shared with me whose top folder is not itself in "Shared with me": start lower.
      if (!found) return undefined;
      if (id === fileId) return found;
      container = found;
    }
    return undefined;
  }

  /**
   * A file Drive places in a folder or My Drive whose loaded listing lacks it (made or moved there elsewhere, and
   * the change feed has not told us yet): the listing takes it in place, as from the change feed, and `onPlaced`
   * hears which container to redraw.
   */
  private async placeKnown(container: ContainerNode, item: DriveItem | undefined, maxPages: number, onPlaced: ((container: ContainerNode) => void) | undefined): Promise<FileNode | undefined> {
    if (!item || !this.listings.has(container.id) || !this.listsByParent(container)) return undefined;
    await this.applyChanges([{ fileId: item.id, item, removed: false }]);
    const found = await this.findChild(container, item.id, maxPages);
    if (found) onPlaced?.(container);
    return found;
  }

  /** The row of a file in a container, loading its pages until found. */
  private async findChild(container: ContainerNode, fileId: string, maxPages: number): Promise<FileNode | undefined> {
    for (let page = 0; page < maxPages; page++) {
      const children = await this.children(container);
      const found = children.find((child): child is FileNode => child.kind === 'file' && child.item.id === fileId);
      if (found) return found;
      if (!(await this.loadMore(container))) return undefined;
    }
    return undefined;
  }

  private render(container: ContainerNode, listing: Listing): DriveNode[] {
    if (listing.error !== undefined && listing.items.length === 0) {
      // Errors are not cached: the next expansion retries.
      this.listings.delete(container.id);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the folder's request failed with, kept on the listing
      if (!isUnreachable(listing.error)) throw listing.error;
      // Offline: the rows as last loaded, or one row saying this folder was never loaded.
      const known = this.known.get(container.id);
      if (!known) return [{ kind: 'message', id: `${container.id}/…offline`, parent: container, text: this.t('Not available offline') }];
      return [...known].sort(compareItems).map((item) => this.fileNode(container, item));
    }
    if (listing.error === undefined) this.known.set(container.id, listing.items);
    listing.sorted = displayOrder(listing.items, listing.sorted);
    const nodes: DriveNode[] = listing.sorted.items.map((item) => this.fileNode(container, item));
    if (listing.nextPageToken) nodes.push({ kind: 'loadMore', id: `${container.id}/…more`, parent: container });
    if (nodes.length === 0) nodes.push({ kind: 'message', id: `${container.id}/…empty`, parent: container, text: emptyText(container, this.t) });
    if (container.kind === 'file' && container.parent.kind === 'section' && container.parent.section === 'sharedDrives') nodes.push(this.driveTrashOf(container));
    return nodes;
  }

  private fileNode(parent: ContainerNode, item: DriveItem): FileNode {
    const id = `${parent.id}/${item.id}`;
    const existing = this.nodes.get(id);
    if (existing) {
      // A listing asked before Desk's own write keeps the row at the written version.
      if (!isOlderVersion(item, existing.item)) existing.item = item;
      return existing;
    }
    const node: FileNode = { kind: 'file', id, parent, item };
    this.nodes.set(id, node);
    return node;
  }

  /** One page of a container's listing from Drive. */
  private async requestPage(container: ContainerNode, pageToken: string | undefined): Promise<DriveItemPage> {
    const inSharedDrives = sectionOf(container) === 'sharedDrives';
    const driveTrash = container.kind === 'section' ? container.driveId : undefined;
    if (inSharedDrives && container.kind === 'section') {
      return await (this.sharedDrives?.listDrives({ pageToken, maxResults: this.pageSize, includeHidden: this.showHiddenDrives }) ?? { items: [] });
    }
    // A shared drive's folders list its items only when asked to include shared drives' items; its Trash is the
    // drive's corpus (the user's `trashed = true` leaves shared drives out).
    return this.api.listFiles({
      q: this.queryFor(container), orderBy: 'folder,title', maxResults: this.pageSize, pageToken, fields: TREE_LISTING_FIELDS,
      ...(inSharedDrives || driveTrash !== undefined ? { includeItemsFromAllDrives: true } : {}),
      ...(driveTrash !== undefined ? { corpora: 'drive', driveId: driveTrash } : {}),
    });
  }

  /** The page at `pageToken`: the one fetched ahead if it is that one and arrived, else asked for now. */
  private async pageAt(container: ContainerNode, listing: Listing, pageToken: string | undefined): Promise<DriveItemPage> {
    const ahead = listing.prefetched;
    listing.prefetched = undefined;
    const page = ahead && ahead.pageToken === pageToken ? await ahead.page : undefined;
    return page ?? this.requestPage(container, pageToken);
  }

  /** Starts fetching the page after the ones shown (a failure is forgotten: "Load more" then asks again). */
  private prefetch(container: ContainerNode, listing: Listing): void {
    const pageToken = listing.nextPageToken;
    if (pageToken === undefined || this.listings.get(container.id) !== listing) return;
    listing.prefetched = { pageToken, page: this.requestPage(container, pageToken).catch(() => undefined) };
  }

  private fetchPage(container: ContainerNode, listing: Listing, pageToken: string | undefined): Promise<void> {
    const run = async (): Promise<void> => {
      try {
        const page = await this.pageAt(container, listing, pageToken);
        const known = new Set(listing.items.map((item) => item.id));
        appendAll(listing.items, page.items.filter((item) => !known.has(item.id)));
        listing.nextPageToken = page.nextPageToken || undefined;
        listing.error = undefined;
        this.prefetch(container, listing);
        if (pageToken === undefined && container.kind === 'section' && container.section === 'myDrive' && container.driveId === undefined) {
          this.cache?.save(listing.items.slice(0, CACHED_MY_DRIVE_ROWS));
        }
      } catch (error) {
        listing.error = error;
        if (listing.items.length > 0) throw error;
      } finally {
        listing.pending = undefined;
      }
    };
    listing.pending = run();
    return listing.pending;
  }

  private queryFor(container: ContainerNode): string {
    if (container.kind === 'file') return `${quoteQuery(container.item.id)} in parents and trashed = false`;
    switch (container.section) {
      // Drive's `root` alias: the listing needs no about.get first (one round trip, not two).
      case 'myDrive': return `${quoteQuery('root')} in parents and trashed = false`;
      case 'sharedDrives': throw new Error('The shared drives are listed with drives.list');
      case 'shared': return 'sharedWithMe and trashed = false';
      case 'trash': return 'trashed = true';
    }
  }
}

/**
 * The titles above a node, its section first, as the tree shows them (['My Drive', 'Projects', 'Desk'] for
 * roadmap.txt): the folder path of the URI it opens at (see fs/drivePath.ts).
 */
export function folderTitles(node: FileNode): string[] {
  const titles: string[] = [];
  let current: ContainerNode = node.parent;
  while (current.kind !== 'section') {
    titles.unshift(current.item.title ?? current.item.id);
    current = current.parent;
  }
  titles.unshift(current.label);
  return titles;
}

/** The container whose listing shows a row (a comment row counts as its file's row). */
export function listingOf(node: Exclude<DriveNode, SectionNode>): ContainerNode {
  let current: Exclude<DriveNode, SectionNode> = node;
  while (current.kind === 'comments' || current.kind === 'comment') current = current.parent;
  return current.parent;
}

export function sectionOf(node: DriveNode): DriveSection {
  let current: DriveNode = node;
  while (current.kind !== 'section') current = current.parent;
  return current.section;
}

function emptyText(container: ContainerNode, t: Translate): string {
  if (container.kind === 'section') {
    switch (container.section) {
      case 'trash': return t('Trash is empty');
      case 'shared': return t('Nothing is shared with you');
      case 'sharedDrives': return t('No shared drives');
      case 'myDrive': return t('My Drive is empty');
    }
  }
  return t('Empty folder');
}

/** Whether `item` is an earlier version of `than` (Drive's `version` only grows); false when either lacks one. */
function isOlderVersion(item: DriveItem, than: DriveItem): boolean {
  return (compareVersions(item.version, than.version) ?? 0) < 0;
}
