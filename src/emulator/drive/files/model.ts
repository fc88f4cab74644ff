/** Drive's files, folders and trash over the store: the semantics behind files, children and parents (no HTTP). */
import { createHash, randomBytes } from 'node:crypto';
import { FileMetadataInput, FOLDER_MIME_TYPE, isGoogleAppsType, PropertyVisibility } from '../../../shared/schemas/drive';
import { DEMO_USERS, EmulatorUser } from '../../auth/users';
import { checkIfMatch } from '../../core/etag';
import { ApiError, badRequest, forbidden, invalid } from '../../core/errors';
import { Collection, Store } from '../../store/store';
import type { StoredBlob } from '../content/blobs';
import { ChangeFeed, ChangePage, ChangeRecord } from '../changes/model';
import { AccessIndex, allows, Capability, insufficientPermissions, Role, StoredPermission } from '../permissions/access';
import { matches, parseQuery, QueryNode, QuerySyntaxError, QueryTarget, requiredTerms, resolveAliases } from './query';
import { compareKeys, decodeCursor, DEFAULT_ORDER, encodeCursor, parseOrderBy, sortKeys } from './order';
import { addTo, removeFrom } from '../../core/multimap';

export type { ChangePage, ChangeRecord } from '../changes/model';

/** A file as the emulator stores it (times in epoch ms). Folders and native documents are files too. */
export interface StoredFile {
  id: string;
  ownerId: string;
  title: string;
  mimeType: string;
  description?: string;
  starred: boolean;
  hidden: boolean;
  restricted: boolean;
  viewed: boolean;
  trashed: boolean;
  /** True when the user trashed this file itself; false when it went to the trash with a folder. */
  explicitlyTrashed: boolean;
  trashedDate?: number;
  parents: string[];
  /** The user's My Drive folder (one per user, created on first use). */
  isRoot?: boolean;
  createdDate: number;
  modifiedDate: number;
  modifiedByMeDate: number;
  lastViewedByMeDate?: number;
  markedViewedByMeDate?: number;
  /** Increases on every change of the file: etag and `version` derive from it. */
  version: number;
  /** Increases when the content changes: `headRevisionId`. */
  contentRevision: number;
  /** Bytes of a binary file, or the text of a native document (see convert.ts). */
  blobId?: string;
  fileSize?: number;
  md5?: string;
  originalFilename?: string;
  /** The start of the content as text, searched by `fullText contains`. */
  indexableText?: string;
  properties: { key: string; value: string; visibility: PropertyVisibility; appId?: string }[];
  lastModifyingUserId: string;
  /** Explicit grants besides the owner's (see permissions/access.ts). */
  permissions?: StoredPermission[];
  /** false: only owners (organizers in a shared drive) change sharing. Default true. */
  writersCanShare?: boolean;
  /** The shared drive holding the file; its members hold roles on it. */
  driveId?: string;
}

export interface Media {
  blob: StoredBlob;
  /** The stored mimeType (already resolved: upload type, metadata, conversion). */
  mimeType: string;
  /** The start of the content as text, for `fullText contains` (text files and native documents only). */
  text?: string;
}

/** How much of a file's text `fullText` searches (Drive indexes content; the emulator keeps a prefix). */
export const INDEXED_TEXT_CHARS = 32 * 1024;

export type ModifiedDateBehavior = 'fromBody' | 'fromBodyIfNeeded' | 'fromBodyOrNow' | 'noChange' | 'now' | 'nowIfNeeded';

export interface UpdateOptions {
  /** false: the new content replaces the head revision's instead of making a new revision. */
  newRevision?: boolean;
  /** Pin the new head revision (files with bytes). */
  pinned?: boolean;
  addParents?: readonly string[];
  removeParents?: readonly string[];
  modifiedDateBehavior?: ModifiedDateBehavior;
  updateViewedDate?: boolean;
  ifMatch?: string;
  media?: Media;
}

export interface ListOptions {
  q?: string;
  orderBy?: string;
  maxResults: number;
  pageToken?: string;
  /** children.list: only children of this folder. */
  parentId?: string;
  /** corpora=drive: only the items of this shared drive. */
  driveId?: string;
  /** includeItemsFromAllDrives: shared-drive items too. */
  allDrives?: boolean;
  /** The calling app (OAuth client): its private properties are searchable, other apps' are not. */
  appId?: string;
}

export interface ListResult {
  files: StoredFile[];
  nextPageToken?: string;
}

/** What a mutation leaves for the caller to clean up once the metadata is committed. */
export interface Garbage {
  blobIds: string[];
}

const ROOT_TITLE = 'My Drive';
export function newFileId(): string {
  // Google's ids are ~33 url-safe characters.
  return randomBytes(24).toString('base64url');
}

export function etagOf(file: StoredFile): string {
  return `"${createHash('sha1').update(`${file.id}:${file.version}`).digest('base64url').slice(0, 27)}"`;
}

/**
 * Drive's semantics over the store: files and folders (several parents each, a lazily created root per
 * user), trash with explicit/implicit marks, deletes of whole trees, the search language, stable paging,
 * and the change feed. Pure: no HTTP, no blobs I/O (callers write blobs first and delete the ones returned
 * as garbage after the commit). In-memory indexes (by owner, by parent, by title, changes by user) are
 * rebuilt from the store at startup so listing a folder never scans every file.
 */
export class DriveModel {
  private readonly files: Collection<StoredFile>;
  private readonly roots: Collection<{ rootId: string }>;
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly byParent = new Map<string, Set<string>>();
  private readonly byTitle = new Map<string, Set<string>>();
  /** The change feed every mutation records into. */
  readonly feed: ChangeFeed;
  /** Grants per user and role arithmetic (owner, explicit grants, inheritance from folders). */
  readonly access: AccessIndex;
  /** Called with every file before it is deleted for good (revisions, comments drop theirs). */
  readonly onDelete: ((file: StoredFile, garbage: Garbage) => void)[] = [];
  /** Called when new content replaces what `before` (the file as it was) held; true when the old blob is kept (as a revision). */
  readonly onContentChange: ((file: StoredFile, before: Readonly<StoredFile>, user: EmulatorUser, garbage: Garbage, options: UpdateOptions) => boolean)[] = [];

  constructor(store: Store, private readonly now: () => number, driveRole?: (user: EmulatorUser, driveId: string) => Role | undefined) {
    this.files = store.collection<StoredFile>('drive.files');
    this.roots = store.collection<{ rootId: string }>('drive.roots');
    this.feed = new ChangeFeed(store, now);
    this.access = new AccessIndex((id) => this.files.get(id), now, driveRole);
    for (const file of this.files.values()) this.index(file);
  }

  // ---- lookups ----

  rootOf(user: EmulatorUser): StoredFile {
    const existing = this.roots.get(user.id);
    const found = existing ? this.files.get(existing.rootId) : undefined;
    if (found) return found;
    const time = this.now();
    const root: StoredFile = {
      id: newFileId(),
      ownerId: user.id,
      title: ROOT_TITLE,
      mimeType: FOLDER_MIME_TYPE,
      starred: false,
      hidden: false,
      restricted: false,
      viewed: true,
      trashed: false,
      explicitlyTrashed: false,
      parents: [],
      isRoot: true,
      createdDate: time,
      modifiedDate: time,
      modifiedByMeDate: time,
      version: 1,
      contentRevision: 0,
      properties: [],
      lastModifyingUserId: user.id,
    };
    this.save(root);
    this.roots.set(user.id, { rootId: root.id });
    return root;
  }

  /** The file `id` ('root' for the user's root) if the user may see it; otherwise 404 as Google answers. */
  get(user: EmulatorUser, id: string): StoredFile {
    const resolved = id === 'root' ? this.rootOf(user).id : id;
    const file = this.files.get(resolved);
    if (!file || this.access.roleOf(user, file) === undefined) throw new ApiError(404, 'notFound', `File not found: ${id}`, { location: 'file', locationType: 'other' });
    return file;
  }

  /** The file if the user may do `capability` to it: 404 when they cannot see it, 403 when their role is too weak. */
  require(user: EmulatorUser, id: string, capability: Capability): StoredFile {
    const file = this.get(user, id);
    if (!allows(this.access.roleOf(user, file), capability, file)) throw insufficientPermissions();
    return file;
  }

  /** The user's role on a file they can see. */
  roleOf(user: EmulatorUser, file: StoredFile): Role | undefined {
    return this.access.roleOf(user, file);
  }

  /** A stored file by id, whoever may see it (for models layered on this one; never hand it to a caller unchecked). */
  peek(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  /** Every blob a file names (for the startup sweep of orphaned content). */
  referencedBlobs(): Set<string> {
    const blobIds = new Set<string>();
    for (const file of this.files.values()) if (file.blobId) blobIds.add(file.blobId);
    return blobIds;
  }

  /** Whether the id is taken by anyone's file (ids are global on Drive). */
  exists(id: string): boolean {
    return this.files.has(id);
  }

  childIds(parentId: string): ReadonlySet<string> {
    return this.byParent.get(parentId) ?? new Set();
  }

  filesOf(userId: string): StoredFile[] {
    return [...(this.byOwner.get(userId) ?? [])].map((id) => this.files.get(id)).filter((file): file is StoredFile => file !== undefined);
  }

  checkIfMatch(file: StoredFile, ifMatch: string | undefined): void {
    checkIfMatch(etagOf(file), ifMatch, 'the file');
  }

  // ---- create ----

  insert(user: EmulatorUser, input: FileMetadataInput, media?: Media): StoredFile {
    if (input.id !== undefined && this.files.has(input.id)) throw new ApiError(409, 'duplicate', `A file already exists with the provided ID: ${input.id}`, { location: 'id', locationType: 'body' });
    const mimeType = media?.mimeType ?? input.mimeType ?? 'application/octet-stream';
    if (media && mimeType === FOLDER_MIME_TYPE) throw badRequest('A folder cannot have content.');
    const parents = this.parentIds(user, input.parents?.map((parent) => parent.id) ?? ['root']);
    const time = this.now();
    const file: StoredFile = {
      id: input.id ?? newFileId(),
      ownerId: user.id,
      title: input.title ?? 'Untitled',
      mimeType,
      starred: input.labels?.starred ?? false,
      hidden: input.labels?.hidden ?? false,
      restricted: input.labels?.restricted ?? false,
      viewed: input.labels?.viewed ?? true,
      trashed: false,
      explicitlyTrashed: false,
      parents,
      createdDate: time,
      modifiedDate: time,
      modifiedByMeDate: time,
      lastViewedByMeDate: time,
      version: 1,
      contentRevision: media ? 1 : 0,
      properties: (input.properties ?? []).map((property) => ({ key: property.key, value: property.value ?? '', visibility: property.visibility ?? 'PRIVATE' })),
      lastModifyingUserId: user.id,
    };
    if (input.description !== undefined) file.description = input.description;
    if (input.originalFilename !== undefined) file.originalFilename = input.originalFilename;
    if (media) this.attach(file, media);
    this.save(file);
    this.recordChange(file, user);
    if (input.labels?.trashed) this.trash(user, file.id);
    return this.get(user, file.id);
  }

  copy(user: EmulatorUser, id: string, input: FileMetadataInput, copiedBlobId: string | undefined): StoredFile {
    const source = this.get(user, id);
    if (source.mimeType === FOLDER_MIME_TYPE) throw forbidden('This file cannot be copied by the user.', 'cannotCopyFile');
    const media: Media | undefined = copiedBlobId !== undefined && source.blobId !== undefined
      ? { blob: { blobId: copiedBlobId, size: source.fileSize ?? 0, md5: source.md5 ?? '' }, mimeType: source.mimeType, ...(source.indexableText !== undefined ? { text: source.indexableText } : {}) }
      : undefined;
    const copy = this.insert(user, {
      title: input.title ?? source.title,
      description: input.description ?? source.description,
      mimeType: source.mimeType,
      labels: { starred: input.labels?.starred ?? false, hidden: input.labels?.hidden ?? false, restricted: input.labels?.restricted ?? source.restricted },
      parents: input.parents ?? source.parents.map((parentId) => ({ id: parentId })),
      properties: input.properties ?? source.properties,
      id: input.id,
      originalFilename: source.originalFilename,
    }, media);
    return copy;
  }

  // ---- update ----

  update(user: EmulatorUser, id: string, input: FileMetadataInput, options: UpdateOptions = {}): { file: StoredFile; garbage: Garbage } {
    const file = this.require(user, id, 'write');
    if (input.writersCanShare !== undefined && input.writersCanShare !== (file.writersCanShare !== false) && !allows(this.access.roleOf(user, file), file.driveId !== undefined ? 'delete' : 'own', file)) {
      throw insufficientPermissions('Only the owner can change whether writers can share this file.');
    }
    this.checkIfMatch(file, options.ifMatch);
    if (file.isRoot) throw forbidden('The root folder cannot be modified.', 'cannotModifyRoot');
    const garbage: Garbage = { blobIds: [] };
    const time = this.now();

    // Validate everything before changing anything, so a 400 leaves the file untouched.
    let newParents: string[] | undefined;
    if (input.parents !== undefined || options.addParents?.length || options.removeParents?.length) {
      let parents = input.parents !== undefined ? this.parentIds(user, input.parents.map((parent) => parent.id)) : [...file.parents];
      const added = this.parentIds(user, options.addParents ?? []);
      const removed = (options.removeParents ?? []).map((parentId) => (parentId === 'root' ? this.rootOf(user).id : parentId));
      parents = parents.filter((parentId) => !removed.includes(parentId));
      for (const parentId of added) if (!parents.includes(parentId)) parents.push(parentId);
      for (const parentId of parents) this.assertNoCycle(file, parentId);
      newParents = parents;
    }
    if (options.media && file.mimeType === FOLDER_MIME_TYPE) throw badRequest('A folder cannot have content.');
    if (input.mimeType === FOLDER_MIME_TYPE && file.mimeType !== FOLDER_MIME_TYPE) throw badRequest('A file cannot become a folder.');
    if (file.mimeType === FOLDER_MIME_TYPE && input.mimeType !== undefined && input.mimeType !== FOLDER_MIME_TYPE) throw badRequest('A folder cannot change its mimeType.');
    if (!options.media && input.mimeType !== undefined && input.mimeType !== file.mimeType && (isGoogleAppsType(file.mimeType) || isGoogleAppsType(input.mimeType))) {
      throw badRequest(`The mimeType of this file cannot change from ${file.mimeType} to ${input.mimeType} without converting content.`);
    }
    const behavior = options.modifiedDateBehavior ?? 'now';
    if (behavior === 'fromBody' && input.modifiedDate === undefined) throw new ApiError(400, 'required', 'modifiedDateBehavior=fromBody needs modifiedDate in the body', { location: 'modifiedDate', locationType: 'body' });

    this.mutate(file, (target) => {
      if (input.title !== undefined) target.title = input.title;
      if (input.description !== undefined) target.description = input.description;
      if (input.mimeType !== undefined && !options.media) target.mimeType = input.mimeType;
      if (input.originalFilename !== undefined) target.originalFilename = input.originalFilename;
      if (input.labels?.starred !== undefined) target.starred = input.labels.starred;
      if (input.labels?.hidden !== undefined) target.hidden = input.labels.hidden;
      if (input.labels?.restricted !== undefined) target.restricted = input.labels.restricted;
      if (input.labels?.viewed !== undefined) target.viewed = input.labels.viewed;
      if (input.writersCanShare !== undefined) target.writersCanShare = input.writersCanShare;
      if (input.properties !== undefined) target.properties = mergeProperties(target.properties, input.properties);
      if (newParents) target.parents = newParents;
      if (options.media) {
        const before = { ...target };
        this.attach(target, options.media);
        target.contentRevision += 1;
        // A revision keeper (revisions/model.ts) may keep the old content; otherwise it is garbage.
        if (before.blobId && !this.onContentChange.some((keep) => keep(target, before, user, garbage, options))) garbage.blobIds.push(before.blobId);
      }
      if (input.lastViewedByMeDate !== undefined) target.lastViewedByMeDate = Date.parse(input.lastViewedByMeDate);
      else if (options.updateViewedDate !== false) target.lastViewedByMeDate = time;
      const bodyDate = input.modifiedDate !== undefined ? Date.parse(input.modifiedDate) : undefined;
      switch (behavior) {
        case 'fromBody':
        case 'fromBodyIfNeeded':
        case 'fromBodyOrNow':
          target.modifiedDate = bodyDate ?? time;
          break;
        case 'noChange':
          break;
        default:
          target.modifiedDate = time;
      }
      if (behavior !== 'noChange') target.modifiedByMeDate = target.modifiedDate;
      target.lastModifyingUserId = user.id;
      target.version += 1;
    });
    this.recordChange(file, user);
    if (input.labels?.trashed === true && !file.trashed) this.trash(user, file.id);
    if (input.labels?.trashed === false && file.trashed) this.untrash(user, file.id);
    return { file: this.get(user, file.id), garbage };
  }

  touch(user: EmulatorUser, id: string): StoredFile {
    const file = this.require(user, id, 'write');
    const time = this.now();
    this.mutate(file, (target) => {
      target.modifiedDate = time;
      target.modifiedByMeDate = time;
      target.lastModifyingUserId = user.id;
      target.version += 1;
    });
    this.recordChange(file, user);
    return file;
  }

  /** Moves a file (and, for a folder, everything under it) to the trash. */
  trash(user: EmulatorUser, id: string, ifMatch?: string): StoredFile {
    const file = this.require(user, id, 'trash');
    this.checkIfMatch(file, ifMatch);
    if (file.isRoot) throw forbidden('The root folder cannot be trashed.', 'cannotModifyRoot');
    const time = this.now();
    // Only the file the user trashed is trashed explicitly: untrash restores the rest with it.
    const moveToTrash = (target: StoredFile, explicitly: boolean): void => {
      this.mutate(target, (changed) => {
        changed.trashed = true;
        changed.explicitlyTrashed = explicitly;
        changed.trashedDate = time;
        changed.version += 1;
      });
      this.recordChange(target, user);
    };
    moveToTrash(file, true);
    for (const descendant of this.descendants(file.id)) {
      if (descendant.trashed || (descendant.ownerId !== user.id && (file.driveId === undefined || descendant.driveId !== file.driveId))) continue;
      moveToTrash(descendant, false);
    }
    return file;
  }

  /** Restores a file and what went to the trash with it (not what was trashed on its own before). */
  untrash(user: EmulatorUser, id: string): StoredFile {
    const file = this.require(user, id, 'trash');
    if (!file.trashed) return file;
    const restore = (target: StoredFile): void => {
      this.mutate(target, (changed) => {
        changed.trashed = false;
        changed.explicitlyTrashed = false;
        delete changed.trashedDate;
        changed.version += 1;
      });
      this.recordChange(target, user);
    };
    restore(file);
    const queue = [file.id];
    while (queue.length > 0) {
      const parentId = queue.shift() as string;
      for (const childId of this.childIds(parentId)) {
        const child = this.files.get(childId);
        if (!child || (child.ownerId !== user.id && (file.driveId === undefined || child.driveId !== file.driveId)) || !child.trashed || child.explicitlyTrashed) continue;
        restore(child);
        queue.push(child.id);
      }
    }
    return file;
  }

  /** Deletes for good; a folder takes with it every descendant that has no parent left outside the deleted tree. */
  delete(user: EmulatorUser, id: string, ifMatch?: string): Garbage {
    const file = this.require(user, id, 'delete');
    this.checkIfMatch(file, ifMatch);
    if (file.isRoot) throw forbidden('The root folder cannot be deleted.', 'cannotModifyRoot');
    return this.deleteTrees(user, [file]);
  }

  emptyTrash(user: EmulatorUser): Garbage {
    const trashed = this.filesOf(user.id).filter((file) => file.trashed && file.driveId === undefined);
    return this.deleteTrees(user, trashed);
  }

  // ---- parents and children ----

  addParent(user: EmulatorUser, fileId: string, parentId: string): { file: StoredFile; parentId: string } {
    const file = this.get(user, fileId);
    const [resolved] = this.parentIds(user, [parentId]);
    const parent = resolved as string;
    if (file.isRoot) throw forbidden('The root folder cannot be moved.', 'cannotModifyRoot');
    if (file.parents.includes(parent)) return { file, parentId: parent };
    this.assertNoCycle(file, parent);
    this.mutate(file, (target) => {
      target.parents = [...target.parents, parent];
      target.version += 1;
    });
    this.recordChange(file, user);
    return { file, parentId: parent };
  }

  removeParent(user: EmulatorUser, fileId: string, parentId: string): void {
    const file = this.get(user, fileId);
    const resolved = parentId === 'root' ? this.rootOf(user).id : parentId;
    if (!file.parents.includes(resolved)) throw new ApiError(404, 'notFound', `File not found: ${parentId}`, { location: 'parentId', locationType: 'parameter' });
    // Taking a file out of a folder is a change to the folder (the file's owner may always do it).
    const folder = this.files.get(resolved);
    if (file.ownerId !== user.id && !(folder && allows(this.access.roleOf(user, folder), 'write', folder))) throw insufficientPermissions();
    const before = this.access.audience(file);
    this.mutate(file, (target) => {
      target.parents = target.parents.filter((existing) => existing !== resolved);
      target.version += 1;
    });
    this.recordChange(file, user, before);
  }

  // ---- listing ----

  list(user: EmulatorUser, options: ListOptions): ListResult {
    const root = this.rootOf(user);
    this.currentAppId = options.appId;
    let query: QueryNode | undefined;
    if (options.q !== undefined && options.q.trim() !== '') {
      try {
        query = resolveAliases(parseQuery(options.q), root.id);
      } catch (error) {
        if (error instanceof QuerySyntaxError) throw invalid(error.message, 'q');
        throw error;
      }
    }
    const order = parseOrderBy(options.orderBy ?? DEFAULT_ORDER);
    const fingerprint = createHash('sha1').update(`${user.id}\0${options.parentId ?? ''}\0${options.q ?? ''}\0${options.orderBy ?? ''}\0${options.driveId ?? ''}\0${options.allDrives ? 1 : 0}`).digest('base64url').slice(0, 12);
    const cursor = options.pageToken !== undefined ? decodeCursor(options.pageToken, fingerprint) : undefined;

    const candidates = this.candidates(user, root.id, query, options);
    const selected: { file: StoredFile; keys: (string | number)[] }[] = [];
    const memo = new Map<string, Role | undefined>();
    for (const file of candidates) {
      if (file.isRoot) continue;
      if (options.parentId !== undefined && !file.parents.includes(options.parentId)) continue;
      if (file.ownerId !== user.id) {
        if (!this.listable(user, file, memo, options.driveId)) continue;
      } else if (options.driveId !== undefined ? file.driveId !== options.driveId : file.driveId !== undefined && !options.allDrives) {
        continue;
      }
      if (query && !matches(query, this.queryTarget(file, user, memo))) continue;
      selected.push({ file, keys: sortKeys(file, order) });
    }
    // Only the page is ordered: entries after the cursor are kept in a bounded sorted buffer (top-k), so a
    // page of a 10,000-file folder costs about one comparison per file instead of a full sort.
    type Entry = { file: StoredFile; keys: (string | number)[] };
    const compare = (a: Entry, b: Entry): number => compareKeys(a.keys, a.file.id, b.keys, b.file.id, order);
    const cursorEntry = cursor ? { keys: cursor.keys, file: { id: cursor.id } as StoredFile } : undefined;
    const limit = options.maxResults;
    const page: Entry[] = [];
    let remaining = 0;
    for (const entry of selected) {
      if (cursorEntry && compare(entry, cursorEntry) <= 0) continue;
      remaining++;
      if (page.length === limit && (limit === 0 || compare(entry, page[limit - 1] as Entry) >= 0)) continue;
      let low = 0;
      let high = page.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (compare(page[middle] as Entry, entry) < 0) low = middle + 1;
        else high = middle;
      }
      page.splice(low, 0, entry);
      if (page.length > limit) page.pop();
    }
    const result: ListResult = { files: page.map((entry) => entry.file) };
    const last = page[page.length - 1];
    if (last && remaining > page.length) result.nextPageToken = encodeCursor(fingerprint, { keys: last.keys, id: last.file.id });
    return result;
  }

  /**
   * Whether a file someone else owns belongs in the user's listing: they must see it, and (as on Drive) a file
   * its owner trashed leaves every other user's listings. Outside a drive listing, shared-drive items show only
   * with includeItemsFromAllDrives.
   */
  private listable(user: EmulatorUser, file: StoredFile, memo: Map<string, Role | undefined>, driveId: string | undefined): boolean {
    if (driveId !== undefined ? file.driveId !== driveId : file.driveId !== undefined && !this.listingAllDrives) return false;
    if (file.trashed && file.driveId === undefined) return false;
    return this.access.roleOf(user, file, memo) !== undefined;
  }

  private listingAllDrives = false;
  private currentAppId: string | undefined;

  /**
   * Where a listing starts: the smallest index bucket the query's required terms name (a folder's children, a
   * title), else everything the user owns plus what was shared with them directly and what lies below it.
   */
  private candidates(user: EmulatorUser, rootId: string, query: QueryNode | undefined, options: ListOptions): Iterable<StoredFile> {
    this.listingAllDrives = options.allDrives === true;
    const hints = query ? requiredTerms(query) : { parentIds: [], titles: [], trashed: undefined };
    const parentIds = options.parentId !== undefined ? [options.parentId, ...hints.parentIds] : hints.parentIds;
    const buckets: ReadonlySet<string>[] = [];
    for (const id of parentIds) buckets.push(this.childIds(id === 'root' ? rootId : id));
    const files = this.files;
    if (buckets.length === 0 && options.driveId !== undefined) buckets.push(this.driveItems(options.driveId));
    // `sharedWithMe` holds only files granted to the user directly: the grant index is the whole answer.
    if (buckets.length === 0 && hints.sharedWithMe) buckets.push(this.access.grantedTo(user.id));
    if (buckets.length === 0 && hints.titles.length > 0 && !options.allDrives && !this.hasShares(user)) {
      for (const title of hints.titles) buckets.push(this.byTitle.get(`${user.id}\0${title}`) ?? new Set());
    }
    if (buckets.length > 0) {
      const ids = buckets.reduce((smallest, bucket) => (bucket.size < smallest.size ? bucket : smallest));
      return (function* () {
        for (const id of ids) {
          const file = files.get(id);
          if (file) yield file;
        }
      })();
    }
    const reachable = (): Set<string> => {
      const ids = new Set<string>(this.byOwner.get(user.id) ?? []);
      const queue: string[] = [...this.access.grantedTo(user.id)];
      if (options.allDrives) for (const driveId of this.memberDrives(user)) for (const id of this.driveItems(driveId)) ids.add(id);
      while (queue.length > 0) {
        const id = queue.pop() as string;
        if (ids.has(id) && !this.access.grantedTo(user.id).has(id)) continue;
        ids.add(id);
        for (const childId of this.childIds(id)) if (!ids.has(childId)) queue.push(childId);
      }
      return ids;
    };
    const ids = this.access.grantedTo(user.id).size === 0 && !options.allDrives ? this.byOwner.get(user.id) ?? new Set<string>() : reachable();
    return (function* () {
      for (const id of ids) {
        const file = files.get(id);
        if (file) yield file;
      }
    })();
  }

  private hasShares(user: EmulatorUser): boolean {
    return this.access.grantedTo(user.id).size > 0;
  }

  /** Files of a shared drive (set by the drives model); none until shared drives exist. */
  driveItems: (driveId: string) => ReadonlySet<string> = () => new Set();
  /** Shared drives the user is a member of (set by the drives model). */
  memberDrives: (user: EmulatorUser) => readonly string[] = () => [];

  private queryTarget(file: StoredFile, viewer: EmulatorUser, memo: Map<string, Role | undefined>): QueryTarget {
    const ownerEmail = viewer.id === file.ownerId ? viewer.email : (DEMO_USERS.find((user) => user.id === file.ownerId)?.email ?? '');
    let emails: { writers: string[]; readers: string[] } | undefined;
    const roles = (): { writers: string[]; readers: string[] } => {
      if (emails) return emails;
      emails = { writers: [ownerEmail], readers: [ownerEmail] };
      for (const user of DEMO_USERS) {
        if (user.email === ownerEmail) continue;
        const role = this.access.roleOf(user, file);
        if (role === undefined) continue;
        emails.readers.push(user.email);
        if (allows(role, 'write', file)) emails.writers.push(user.email);
      }
      return emails;
    };
    void memo;
    return {
      title: file.title,
      mimeType: file.mimeType,
      fullText: () => `${file.title}\n${file.description ?? ''}\n${file.properties.map((property) => property.value).join(' ')}\n${file.indexableText ?? ''}`,
      dates: {
        modifiedDate: file.modifiedDate,
        createdDate: file.createdDate,
        modifiedByMeDate: file.modifiedByMeDate,
        lastViewedByMeDate: file.lastViewedByMeDate,
      },
      trashed: file.trashed,
      starred: file.starred,
      hidden: file.hidden,
      parents: file.parents,
      ownerEmails: [ownerEmail],
      get writerEmails() { return roles().writers; },
      get readerEmails() { return roles().readers; },
      properties: file.properties.filter((property) => property.visibility === 'PUBLIC' || property.appId === undefined || property.appId === this.currentAppId),
      sharedWithMe: file.ownerId !== viewer.id && this.access.grantedTo(viewer.id).has(file.id),
    };
  }

  // ---- changes (the feed, seen through the user) ----

  largestChangeId(): number {
    return this.feed.largestChangeId();
  }

  startPageToken(): string {
    return this.feed.startPageToken();
  }

  listChanges(user: EmulatorUser, options: { pageToken: string | undefined; maxResults: number; includeDeleted: boolean }): ChangePage {
    return this.feed.list(user.id, options);
  }

  getChange(user: EmulatorUser, changeId: string): ChangeRecord {
    return this.feed.get(user.id, changeId);
  }

  /** Resolves after a change for `userId` is recorded, or after `ms`, or on abort; true when a change came. */
  waitForChange(userId: string, ms: number, signal: AbortSignal): Promise<boolean> {
    return this.feed.waitForChange(userId, ms, signal);
  }

  // ---- quota ----

  usage(userId: string): { used: number; inTrash: number } {
    let used = 0;
    let inTrash = 0;
    for (const file of this.filesOf(userId)) {
      if (isGoogleAppsType(file.mimeType)) continue;
      used += file.fileSize ?? 0;
      if (file.trashed) inTrash += file.fileSize ?? 0;
    }
    return { used, inTrash };
  }

  // ---- internals ----

  private attach(file: StoredFile, media: Media): void {
    file.blobId = media.blob.blobId;
    file.fileSize = media.blob.size;
    file.mimeType = media.mimeType;
    if (media.text !== undefined) file.indexableText = media.text.slice(0, INDEXED_TEXT_CHARS);
    else delete file.indexableText;
    if (isGoogleAppsType(media.mimeType)) delete file.md5;
    else file.md5 = media.blob.md5;
  }

  /** Resolves and validates parent ids: each must be one of the user's folders. */
  private parentIds(user: EmulatorUser, ids: readonly string[]): string[] {
    const resolved: string[] = [];
    for (const id of ids) {
      const parent = this.get(user, id);
      if (parent.mimeType !== FOLDER_MIME_TYPE) throw invalid(`The parent ${id} is not a folder`, 'parents');
      if (!allows(this.access.roleOf(user, parent), 'write', parent)) throw insufficientPermissions(`The user cannot add files to the folder ${id}.`);
      if (!resolved.includes(parent.id)) resolved.push(parent.id);
    }
    return resolved;
  }

  private assertNoCycle(file: StoredFile, parentId: string): void {
    if (parentId === file.id) throw invalid('A folder cannot be its own parent', 'parents');
    if (file.mimeType !== FOLDER_MIME_TYPE) return;
    const seen = new Set<string>();
    const queue = [parentId];
    while (queue.length > 0) {
      const current = queue.pop() as string;
      if (current === file.id) throw invalid('Moving a folder inside its own subfolder would create a cycle', 'parents');
      if (seen.has(current)) continue;
      seen.add(current);
      const ancestor = this.files.get(current);
      if (ancestor) queue.push(...ancestor.parents);
    }
  }

  /** Every file reachable below `folderId` (each once). */
  private descendants(folderId: string): StoredFile[] {
    const result: StoredFile[] = [];
    const seen = new Set<string>([folderId]);
    const queue = [folderId];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const childId of this.childIds(current)) {
        if (seen.has(childId)) continue;
        seen.add(childId);
        const child = this.files.get(childId);
        if (!child) continue;
        result.push(child);
        queue.push(childId);
      }
    }
    return result;
  }

  private deleteTrees(user: EmulatorUser, tops: readonly StoredFile[]): Garbage {
    const doomed = new Set(tops.map((file) => file.id));
    const reachable: StoredFile[] = [];
    for (const top of tops) for (const descendant of this.descendants(top.id)) if (!doomed.has(descendant.id)) reachable.push(descendant);
    // A descendant goes only when every parent goes too; iterate to a fixed point for multi-parent trees.
    let grew = true;
    while (grew) {
      grew = false;
      for (const file of reachable) {
        if (doomed.has(file.id) || (file.ownerId !== user.id && (file.driveId === undefined || !tops.some((top) => top.driveId === file.driveId)))) continue;
        if (file.parents.every((parentId) => doomed.has(parentId))) {
          doomed.add(file.id);
          grew = true;
        }
      }
    }
    const garbage: Garbage = { blobIds: [] };
    for (const file of reachable) {
      if (doomed.has(file.id)) continue;
      if (file.parents.some((parentId) => doomed.has(parentId))) {
        const before = this.access.audience(file);
        this.mutate(file, (target) => {
          target.parents = target.parents.filter((parentId) => !doomed.has(parentId));
          target.version += 1;
        });
        this.recordChange(file, user, before);
      }
    }
    // Who saw each file is known only while the folders above it still exist.
    const audiences = new Map<string, EmulatorUser[]>();
    for (const id of doomed) {
      const file = this.files.get(id);
      if (file) audiences.set(id, this.access.audience(file));
    }
    for (const id of doomed) {
      const file = this.files.get(id);
      if (!file) continue;
      for (const hook of this.onDelete) hook(file, garbage);
      this.unindex(file);
      this.files.delete(id);
      if (file.blobId && !garbage.blobIds.includes(file.blobId)) garbage.blobIds.push(file.blobId);
      for (const viewer of audiences.get(id) ?? []) this.feed.record(viewer.id, id, true);
      if (!(audiences.get(id) ?? []).some((viewer) => viewer.id === user.id)) this.feed.record(user.id, id, true);
    }
    return garbage;
  }

  /**
   * Records a change of `file` in the feed of everyone who sees it now, of `before` (who saw it until this
   * change: they learn it is gone), and of the user who made it.
   */
  recordChange(file: StoredFile, actor: EmulatorUser, before: readonly EmulatorUser[] = []): void {
    const viewers = new Set<string>([actor.id, ...before.map((user) => user.id)]);
    for (const user of this.access.audience(file)) viewers.add(user.id);
    for (const userId of viewers) this.feed.record(userId, file.id, false);
  }

  /** Changes a stored file in place, keeping the indexes right (for models layered on this one). */
  mutateFile(file: StoredFile, change: (file: StoredFile) => void): void {
    this.mutate(file, change);
  }

  /** Every file below a folder (for permission changes that reach a whole tree). */
  descendantsOf(folderId: string): StoredFile[] {
    return this.descendants(folderId);
  }

  private mutate(file: StoredFile, change: (file: StoredFile) => void): void {
    this.unindex(file);
    change(file);
    this.save(file);
  }

  private save(file: StoredFile): void {
    this.files.set(file.id, file);
    this.index(file);
  }

  private index(file: StoredFile): void {
    this.access.index(file);
    addTo(this.byOwner, file.ownerId, file.id);
    for (const parentId of file.parents) addTo(this.byParent, parentId, file.id);
    addTo(this.byTitle, `${file.ownerId}\0${file.title}`, file.id);
  }

  private unindex(file: StoredFile): void {
    this.access.unindex(file);
    removeFrom(this.byOwner, file.ownerId, file.id);
    for (const parentId of file.parents) removeFrom(this.byParent, parentId, file.id);
    removeFrom(this.byTitle, `${file.ownerId}\0${file.title}`, file.id);
  }
}


function mergeProperties(existing: StoredFile['properties'], incoming: readonly { key: string; value?: string | undefined; visibility?: PropertyVisibility | undefined }[]): StoredFile['properties'] {
  const merged = existing.map((property) => ({ ...property }));
  for (const property of incoming) {
    const visibility = property.visibility ?? 'PRIVATE';
    const found = merged.find((candidate) => candidate.key === property.key && candidate.visibility === visibility);
    if (found) found.value = property.value ?? '';
    else merged.push({ key: property.key, value: property.value ?? '', visibility });
  }
  return merged;
}
