/** Drive's files, folders and trash over the store: the semantics behind files, children and parents (no HTTP). */
import { FileMetadataInput, FOLDER_MIME_TYPE, isGoogleAppsType, PropertyVisibility } from '../../../shared/schemas/drive';
import type { EmulatorUser } from '../../identity/users';
import { checkIfMatch } from '../../core/etag';
import { ApiError, badRequest, forbidden, invalid } from '../../core/errors';
import { Collection, Store } from '../../store/store';
import { ChangeFeed, ChangePage, ChangeRecord, driveFeedKey } from '../changes/model';
import { AccessIndex, allows, Capability, insufficientPermissions, Role } from '../permissions/access';
import { DriveDirectory, driveOwnerId, isDriveRoot, NO_DRIVES } from './drives';
import { listFiles } from './listing';
import { checkMove, driveOfParents, parentLimit } from './placement';
import { deleteFile, deleteTrees, trashFile, untrashFile } from './removal';
import { etagOf, Garbage, INDEXED_TEXT_CHARS, ListOptions, ListResult, Media, newFileId, newFolderRecord, StoredFile, UpdateOptions } from './records';
import { FileTable } from './table';
import { appendAll } from '../../../shared/arrays';

export type { ChangePage, ChangeRecord } from '../changes/model';
export { etagOf, INDEXED_TEXT_CHARS, newFileId } from './records';
export type { Garbage, ListOptions, ListResult, Media, ModifiedDateBehavior, StoredFile, UpdateOptions } from './records';

const ROOT_TITLE = 'My Drive';

/**
 * Drive's semantics over the store: files and folders (several parents each in My Drive, one in a shared drive, a
 * lazily created root per user), trash with explicit/implicit marks (removal.ts), deletes of whole trees, the
 * search language and stable paging (listing.ts), and the change feed. Pure: no HTTP, no blobs I/O (callers write
 * blobs first and delete the ones returned as garbage after the commit). The file table's indexes (table.ts) are
 * rebuilt from the store at startup so listing a folder never scans every file.
 */
export class DriveModel {
  /** The file records and their indexes (for the modules of this model; others go through its methods). */
  readonly table: FileTable;
  private readonly roots: Collection<{ rootId: string }>;
  /** The change feed every mutation records into. */
  readonly feed: ChangeFeed;
  /** Grants per user and role arithmetic (owner, explicit grants, drive membership, inheritance from folders). */
  readonly access: AccessIndex;
  /** The shared drives (set by drives/model.ts). */
  drives: DriveDirectory = NO_DRIVES;
  /** Called with every file before it is deleted for good (revisions, comments drop theirs). */
  readonly onDelete: ((file: StoredFile, garbage: Garbage) => void)[] = [];
  /** Called when new content replaces what `before` (the file as it was) held; true when the old blob is kept (as a revision). */
  readonly onContentChange: ((file: StoredFile, before: Readonly<StoredFile>, user: EmulatorUser, garbage: Garbage, options: UpdateOptions) => boolean)[] = [];

  constructor(store: Store, readonly now: () => number) {
    this.table = new FileTable(store);
    this.roots = store.collection<{ rootId: string }>('drive.roots');
    this.feed = new ChangeFeed(store, now);
    this.access = new AccessIndex((id) => this.table.get(id), now, (user, driveId) => this.drives.roleOf(user, driveId));
    this.table.addIndex(this.access);
  }

  // ---- lookups ----

  rootOf(user: EmulatorUser): StoredFile {
    const existing = this.roots.get(user.id);
    const found = existing ? this.table.get(existing.rootId) : undefined;
    if (found) return found;
    const root = newFolderRecord(newFileId(), user.id, ROOT_TITLE, user.id, this.now());
    root.isRoot = true;
    this.table.save(root);
    this.roots.set(user.id, { rootId: root.id });
    return root;
  }

  /** The file `id` ('root' for the user's root) if the user may see it; otherwise 404 as Google answers. */
  get(user: EmulatorUser, id: string): StoredFile {
    const resolved = id === 'root' ? this.rootOf(user).id : id;
    const file = this.table.get(resolved);
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
    return this.table.get(id);
  }

  /** Every blob a file names (for the startup sweep of orphaned content). */
  referencedBlobs(): Set<string> {
    const blobIds = new Set<string>();
    for (const file of this.table.values()) if (file.blobId) blobIds.add(file.blobId);
    return blobIds;
  }

  /** Whether the id is taken by anyone's file (ids are global on Drive). */
  exists(id: string): boolean {
    return this.table.has(id);
  }

  childIds(parentId: string): ReadonlySet<string> {
    return this.table.childIds(parentId);
  }

  filesOf(userId: string): StoredFile[] {
    return [...this.table.ownedBy(userId)].map((id) => this.table.get(id)).filter((file): file is StoredFile => file !== undefined);
  }

  checkIfMatch(file: StoredFile, ifMatch: string | undefined): void {
    checkIfMatch(etagOf(file), ifMatch, 'the file');
  }

  // ---- create ----

  insert(user: EmulatorUser, input: FileMetadataInput, media?: Media): StoredFile {
    if (input.id !== undefined && this.table.has(input.id)) throw new ApiError(409, 'duplicate', `A file already exists with the provided ID: ${input.id}`, { location: 'id', locationType: 'body' });
    const mimeType = media?.mimeType ?? input.mimeType ?? 'application/octet-stream';
    if (media && mimeType === FOLDER_MIME_TYPE) throw badRequest('A folder cannot have content.');
    const parents = this.parentIds(user, input.parents?.map((parent) => parent.id) ?? ['root']);
    const driveId = driveOfParents(parents.map((id) => this.table.get(id) as StoredFile));
    const time = this.now();
    const file: StoredFile = {
      id: input.id ?? newFileId(),
      // A shared drive's items belong to the drive.
      ownerId: driveId !== undefined ? driveOwnerId(driveId) : user.id,
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
    if (driveId !== undefined) file.driveId = driveId;
    if (input.description !== undefined) file.description = input.description;
    if (input.originalFilename !== undefined) file.originalFilename = input.originalFilename;
    if (media) this.attach(file, media);
    if (input.indexableText?.text !== undefined) file.indexableText = input.indexableText.text;
    this.table.save(file);
    this.recordChange(file, user);
    if (input.labels?.trashed) this.trash(user, file.id);
    return this.get(user, file.id);
  }

  copy(user: EmulatorUser, id: string, input: FileMetadataInput, copiedBlobId: string | undefined): StoredFile {
    const source = this.get(user, id);
    if (source.mimeType === FOLDER_MIME_TYPE) throw forbidden('This file cannot be copied by the user.', 'cannotCopyFile');
    // Readers and commenters may not copy what its drive (copyRequiresWriterPermission) or the file restricts.
    const restricted = source.restricted || (source.driveId !== undefined && this.drives.restrictions(source.driveId)?.copyRequiresWriterPermission === true);
    if (restricted && !allows(this.access.roleOf(user, source), 'write', source)) throw forbidden('This file cannot be copied by the user.', 'cannotCopyFile');
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
    if (isDriveRoot(file)) throw forbidden('The top folder of a shared drive changes through drives.update.', 'cannotModifyRoot');
    const garbage: Garbage = { blobIds: [] };
    const time = this.now();

    // Validate everything before changing anything, so a 400 leaves the file untouched.
    let newParents: string[] | undefined;
    let newDriveId = file.driveId;
    if (input.parents !== undefined || options.addParents?.length || options.removeParents?.length) {
      let parents = input.parents !== undefined ? this.parentIds(user, input.parents.map((parent) => parent.id)) : [...file.parents];
      const added = this.parentIds(user, options.addParents ?? []);
      const removed = (options.removeParents ?? []).map((parentId) => (parentId === 'root' ? this.rootOf(user).id : parentId));
      parents = parents.filter((parentId) => !removed.includes(parentId));
      for (const parentId of added) if (!parents.includes(parentId)) parents.push(parentId);
      for (const parentId of parents) this.assertNoCycle(file, parentId);
      if (parents.length !== file.parents.length || parents.some((parentId) => !file.parents.includes(parentId))) {
        // An item of a shared drive cannot be left without a folder.
        if (file.driveId !== undefined && parents.length === 0) throw parentLimit();
        newDriveId = driveOfParents(parents.map((parentId) => this.table.get(parentId) as StoredFile));
        checkMove(this.access, user, file, newDriveId);
        newParents = parents;
      }
    }
    if (options.media && file.mimeType === FOLDER_MIME_TYPE) throw badRequest('A folder cannot have content.');
    if (input.mimeType === FOLDER_MIME_TYPE && file.mimeType !== FOLDER_MIME_TYPE) throw badRequest('A file cannot become a folder.');
    if (file.mimeType === FOLDER_MIME_TYPE && input.mimeType !== undefined && input.mimeType !== FOLDER_MIME_TYPE) throw badRequest('A folder cannot change its mimeType.');
    if (!options.media && input.mimeType !== undefined && input.mimeType !== file.mimeType && (isGoogleAppsType(file.mimeType) || isGoogleAppsType(input.mimeType))) {
      throw badRequest(`The mimeType of this file cannot change from ${file.mimeType} to ${input.mimeType} without converting content.`);
    }
    const behavior = options.modifiedDateBehavior ?? 'now';
    if (behavior === 'fromBody' && input.modifiedDate === undefined) throw new ApiError(400, 'required', 'modifiedDateBehavior=fromBody needs modifiedDate in the body', { location: 'modifiedDate', locationType: 'body' });

    // Moving between My Drive and a shared drive changes who sees the file: they learn it left.
    const audienceBefore = newDriveId !== file.driveId ? this.access.audience(file) : [];
    this.table.mutate(file, (target) => {
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
      if (newDriveId !== file.driveId) {
        target.ownerId = newDriveId !== undefined ? driveOwnerId(newDriveId) : user.id;
        if (newDriveId !== undefined) target.driveId = newDriveId;
        else delete target.driveId;
      }
      if (options.media) {
        const before = { ...target };
        this.attach(target, options.media);
        target.contentRevision += 1;
        // A revision keeper (revisions/model.ts) may keep the old content; otherwise it is garbage.
        if (before.blobId && !this.onContentChange.some((keep) => keep(target, before, user, garbage, options))) garbage.blobIds.push(before.blobId);
      }
      // The client's own text to index replaces what the content gave.
      if (input.indexableText?.text !== undefined) target.indexableText = input.indexableText.text;
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
    this.recordChange(file, user, audienceBefore);
    if (input.labels?.trashed === true && !file.trashed) this.trash(user, file.id);
    if (input.labels?.trashed === false && file.trashed) this.untrash(user, file.id);
    return { file: this.get(user, file.id), garbage };
  }

  touch(user: EmulatorUser, id: string): StoredFile {
    const file = this.require(user, id, 'write');
    const time = this.now();
    this.table.mutate(file, (target) => {
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
    return trashFile(this, user, id, ifMatch);
  }

  /** Restores a file and what went to the trash with it (not what was trashed on its own before). */
  untrash(user: EmulatorUser, id: string): StoredFile {
    return untrashFile(this, user, id);
  }

  /** Deletes for good; a folder takes with it every descendant that has no parent left outside the deleted tree. */
  delete(user: EmulatorUser, id: string, ifMatch?: string): Garbage {
    return deleteFile(this, user, id, ifMatch);
  }

  /** Deletes the user's trashed My Drive files for good. */
  emptyTrash(user: EmulatorUser): Garbage {
    const trashed = this.filesOf(user.id).filter((file) => file.trashed && file.driveId === undefined);
    return deleteTrees(this, user, trashed);
  }

  // ---- parents and children ----

  addParent(user: EmulatorUser, fileId: string, parentId: string): { file: StoredFile; parentId: string } {
    const file = this.get(user, fileId);
    const [resolved] = this.parentIds(user, [parentId]);
    const parent = resolved as string;
    if (file.isRoot || isDriveRoot(file)) throw forbidden('The root folder cannot be moved.', 'cannotModifyRoot');
    if (file.parents.includes(parent)) return { file, parentId: parent };
    // A shared drive's items have exactly one parent; a second one would also straddle two spaces.
    if (file.driveId !== undefined || this.table.get(parent)?.driveId !== undefined) throw parentLimit();
    this.assertNoCycle(file, parent);
    this.table.mutate(file, (target) => {
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
    if (file.driveId !== undefined) throw parentLimit();
    // Taking a file out of a folder is a change to the folder (the file's owner may always do it).
    const folder = this.table.get(resolved);
    if (file.ownerId !== user.id && !(folder && allows(this.access.roleOf(user, folder), 'write', folder))) throw insufficientPermissions();
    const before = this.access.audience(file);
    this.table.mutate(file, (target) => {
      target.parents = target.parents.filter((existing) => existing !== resolved);
      target.version += 1;
    });
    this.recordChange(file, user, before);
  }

  // ---- listing ----

  list(user: EmulatorUser, options: ListOptions): Promise<ListResult> {
    return listFiles(this, user, options);
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

  /**
   * Records a change of `file` in the feed of everyone who sees it now, of `before` (who saw it until this
   * change: they learn it is gone), of the user who made it, and of its shared drive.
   */
  recordChange(file: StoredFile, actor: EmulatorUser, before: readonly EmulatorUser[] = []): void {
    const viewers = new Set<string>([actor.id, ...before.map((user) => user.id)]);
    for (const user of this.access.audience(file)) viewers.add(user.id);
    const details = file.driveId !== undefined ? { driveId: file.driveId } : {};
    for (const userId of viewers) this.feed.record(userId, file.id, false, details);
    if (file.driveId !== undefined) this.feed.record(driveFeedKey(file.driveId), file.id, false, details);
  }

  /** Changes a stored file in place, keeping the indexes right (for models layered on this one). */
  mutateFile(file: StoredFile, change: (file: StoredFile) => void): void {
    this.table.mutate(file, change);
  }

  /** Every file below a folder (for permission changes that reach a whole tree). */
  descendantsOf(folderId: string): StoredFile[] {
    return this.table.descendants(folderId);
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

  /** Resolves and validates parent ids: each must be a folder the user may add files to. */
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
      const ancestor = this.table.get(current);
      if (ancestor) appendAll(queue, ancestor.parents);
    }
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
