/**
 * A file's revisions (versions of its content). Pure: no HTTP, no blob I/O. Every content write makes a new head
 * revision and keeps the old content's blob as the previous revision (the files model asks through its
 * `onContentChange` hook), except when edits are merged:
 * - `newRevision=false` on an update replaces the head's content (the head takes the new revision id), as Drive does;
 * - Docs Editors files merge an edit into the head when the same user made the head less than `MERGE_WINDOW_MS`
 *   ago, unless that head is published without publishAuto (it must keep its words); Drive merges rapid edits of
 *   a document, and revision ids then have gaps.
 * Files with bytes keep unpinned revisions for 30 days after newer content and at most 100 of them (the oldest
 * go first); pinned ones (`pinned`, v3's keepForever) stay until deleted. Blobs of dropped revisions are handed
 * back as garbage, freed by the caller once the metadata no longer names them.
 *
 * Storage: one record per file in `drive.revisions`, oldest first. The head revision is the file's own content:
 * it is stored only once it differs from what the file says (a flag changed, or content was replaced), and
 * rebuilt from the file otherwise, so files created before revisions existed (or by seeds) have a head too.
 */
import { FOLDER_MIME_TYPE, isGoogleAppsType } from '../../../shared/schemas/drive';
import type { RevisionInput } from '../../../shared/schemas/drive/revisions';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, badRequest, invalid } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import type { Collection, Store } from '../../store/store';
import type { DriveModel, Garbage, StoredFile, UpdateOptions } from '../files/model';

export interface StoredRevision {
  id: string;
  /** Absent for a file that never had content. */
  blobId?: string;
  fileSize: number;
  md5?: string;
  mimeType: string;
  originalFilename?: string;
  /** When this content was written (epoch ms). */
  modifiedDate: number;
  /** Who wrote it. */
  userId: string;
  pinned: boolean;
  published: boolean;
  publishAuto: boolean;
  publishedOutsideDomain: boolean;
  /** Increases on every change of the revision's flags: its etag. */
  version: number;
}

interface RevisionHistory {
  fileId: string;
  /** Oldest first; the last may be the head. */
  revisions: StoredRevision[];
}

export interface RevisionPage {
  file: StoredFile;
  revisions: StoredRevision[];
  nextPageToken?: string;
}

/** Rapid edits of a Docs Editors file by one user within this window become one revision. */
export const MERGE_WINDOW_MS = 60_000;
/** Unpinned revisions of a file with bytes: purged this long after newer content arrived… */
export const UNPINNED_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
/** …and never more than this many of them. */
export const UNPINNED_MAX = 100;

/** The id of a file's head revision (what files render as `headRevisionId`). */
export function headRevisionId(file: Pick<StoredFile, 'contentRevision'>): string {
  return String(file.contentRevision || 1);
}

export function isDocsEditorsFile(file: Pick<StoredFile, 'mimeType'>): boolean {
  return isGoogleAppsType(file.mimeType) && file.mimeType !== FOLDER_MIME_TYPE;
}

export class RevisionsModel {
  private readonly histories: Collection<RevisionHistory>;

  constructor(store: Store, private readonly files: DriveModel, private readonly now: () => number) {
    this.histories = store.collection<RevisionHistory>('drive.revisions');
    files.onContentChange.push((file, before, user, garbage, options) => this.contentWritten(file, before, user, garbage, options));
    // A file deleted for good takes its old versions with it.
    files.onDelete.push((file, garbage) => this.dropFile(file, garbage));
  }

  /** Every blob a revision names (for the startup sweep of orphaned content). */
  referencedBlobs(): Set<string> {
    const blobIds = new Set<string>();
    for (const history of this.histories.values()) for (const revision of history.revisions) if (revision.blobId) blobIds.add(revision.blobId);
    return blobIds;
  }

  list(user: EmulatorUser, fileId: string, options: { maxResults: number; pageToken?: string }): RevisionPage {
    const file = this.readable(user, fileId);
    const page = offsetPage(this.historyOf(file), { scope: `revisions:${file.id}`, maxResults: options.maxResults, ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}) });
    return { file, revisions: page.items, ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  }

  get(user: EmulatorUser, fileId: string, revisionId: string): { file: StoredFile; revision: StoredRevision; isHead: boolean } {
    return this.find(this.readable(user, fileId), revisionId);
  }

  /** revisions.update and patch: the flags the file's kind allows (pinned for files with bytes, publishing for Docs Editors files). */
  update(user: EmulatorUser, fileId: string, revisionId: string, input: RevisionInput): { file: StoredFile; revision: StoredRevision; isHead: boolean } {
    const file = this.writable(user, fileId);
    const { revision, isHead } = this.find(file, revisionId);
    const docs = isDocsEditorsFile(file);
    if (docs && input.pinned === true) throw invalid('Only revisions of files with content stored in Drive can be pinned.', 'pinned', 'body');
    if (!docs) {
      for (const name of ['published', 'publishAuto', 'publishedOutsideDomain'] as const) {
        if (input[name] === true) throw invalid(`${name} can only be set on revisions of Docs Editors files.`, name, 'body');
      }
    }
    const changed: StoredRevision = { ...revision, version: revision.version + 1 };
    if (!docs && input.pinned !== undefined) changed.pinned = input.pinned;
    if (docs) {
      if (input.published !== undefined) changed.published = input.published;
      if (input.publishAuto !== undefined) changed.publishAuto = input.publishAuto;
      if (input.publishedOutsideDomain !== undefined) changed.publishedOutsideDomain = input.publishedOutsideDomain;
    }
    const history = this.historyOf(file).map((candidate) => (candidate.id === revision.id ? changed : candidate));
    this.save(file.id, history);
    return { file, revision: changed, isHead };
  }

  /** Deletes an old version of a file with bytes; its blob is returned as garbage. The head stays. */
  delete(user: EmulatorUser, fileId: string, revisionId: string): Garbage {
    const file = this.writable(user, fileId);
    const { revision, isHead } = this.find(file, revisionId);
    if (isDocsEditorsFile(file)) throw new ApiError(403, 'revisionDeletionNotSupported', 'Revisions of Docs Editors files cannot be deleted.');
    const history = this.historyOf(file);
    if (history.length === 1) throw new ApiError(400, 'cannotDeleteOnlyRevision', 'The last remaining revision of a file cannot be deleted.');
    if (isHead) throw badRequest('The head revision cannot be deleted: upload new content, or restore an older revision, first.');
    this.save(file.id, history.filter((candidate) => candidate.id !== revision.id));
    return { blobIds: revision.blobId && revision.blobId !== file.blobId ? [revision.blobId] : [] };
  }

  // ---- hooks from the files model ----

  /**
   * New content replaced `before`'s (the file is already changed, `contentRevision` counted up). Returns true when
   * the previous blob is kept as a revision, false when it was merged away (then it is garbage).
   */
  private contentWritten(file: StoredFile, before: Readonly<StoredFile>, user: EmulatorUser, garbage: Garbage, options: UpdateOptions): boolean {
    const time = this.now();
    const previousId = headRevisionId({ contentRevision: file.contentRevision - 1 });
    const stored = this.histories.get(file.id)?.revisions ?? [];
    let history = stored.filter((revision) => revision.id !== previousId && revision.blobId !== before.blobId);
    const previousHead = stored.find((revision) => revision.id === previousId && revision.blobId === before.blobId) ?? fromFile(before, previousId);
    const docs = isDocsEditorsFile(file);
    const merge = options.newRevision === false
      || (docs && previousHead.userId === user.id && time - previousHead.modifiedDate < MERGE_WINDOW_MS && !(previousHead.published && !previousHead.publishAuto));
    const head: StoredRevision = { ...fromFile(file, headRevisionId(file)), modifiedDate: time, userId: user.id };
    if (merge) {
      // The head's content is replaced: its flags stay, its old bytes go.
      head.pinned = previousHead.pinned;
      head.published = previousHead.published;
      head.publishAuto = previousHead.publishAuto;
      head.publishedOutsideDomain = previousHead.publishedOutsideDomain;
    } else {
      history.push(previousHead);
      if (previousHead.published && previousHead.publishAuto) {
        head.published = true;
        head.publishAuto = true;
        head.publishedOutsideDomain = previousHead.publishedOutsideDomain;
      }
    }
    if (options.pinned === true && !docs) head.pinned = true;
    history.push(head);
    if (!docs) history = this.purge(history, time, garbage);
    this.save(file.id, history);
    return !merge;
  }

  /** Drops unpinned old revisions superseded more than 30 days ago, and the oldest beyond 100. */
  private purge(history: StoredRevision[], time: number, garbage: Garbage): StoredRevision[] {
    const head = history[history.length - 1];
    const unpinned = history.slice(0, -1).filter((revision) => !revision.pinned).length;
    let excess = Math.max(0, unpinned - UNPINNED_MAX);
    const kept = history.filter((revision, index) => {
      if (revision === head || revision.pinned) return true;
      const supersededAt = history[index + 1]?.modifiedDate ?? time;
      const drop = excess > 0 || time - supersededAt > UNPINNED_KEEP_MS;
      if (!drop) return true;
      if (excess > 0) excess--;
      if (revision.blobId && revision.blobId !== head?.blobId) garbage.blobIds.push(revision.blobId);
      return false;
    });
    return kept;
  }

  private dropFile(file: StoredFile, garbage: Garbage): void {
    const history = this.histories.get(file.id);
    if (!history) return;
    for (const revision of history.revisions) {
      if (revision.blobId && revision.blobId !== file.blobId && !garbage.blobIds.includes(revision.blobId)) garbage.blobIds.push(revision.blobId);
    }
    this.histories.delete(file.id);
  }

  // ---- internals ----

  /** The file's revisions, oldest first, the head (the file's current content) last. */
  historyOf(file: StoredFile): StoredRevision[] {
    const headId = headRevisionId(file);
    const stored = this.histories.get(file.id)?.revisions ?? [];
    const old = stored.filter((revision) => revision.id !== headId && Number(revision.id) < Number(headId));
    const head = stored.find((revision) => revision.id === headId && revision.blobId === file.blobId) ?? fromFile(file, headId);
    return [...old, head];
  }

  private find(file: StoredFile, revisionId: string): { file: StoredFile; revision: StoredRevision; isHead: boolean } {
    const history = this.historyOf(file);
    const wanted = revisionId === 'head' ? headRevisionId(file) : revisionId;
    const revision = history.find((candidate) => candidate.id === wanted);
    if (!revision) throw new ApiError(404, 'revisionNotFound', `Revision not found: ${revisionId}`, { location: 'revisionId', locationType: 'parameter' });
    return { file, revision, isHead: revision === history[history.length - 1] };
  }

  private readable(user: EmulatorUser, fileId: string): StoredFile {
    return this.supported(this.files.require(user, fileId, 'read'));
  }

  private writable(user: EmulatorUser, fileId: string): StoredFile {
    return this.supported(this.files.require(user, fileId, 'write'));
  }

  private supported(file: StoredFile): StoredFile {
    if (file.mimeType === FOLDER_MIME_TYPE) throw new ApiError(403, 'revisionsNotSupported', 'Folders have no revisions.');
    return file;
  }

  private save(fileId: string, revisions: StoredRevision[]): void {
    this.histories.set(fileId, { fileId, revisions });
  }
}

/** A revision describing a file's content as the file record has it. */
function fromFile(file: Readonly<StoredFile>, id: string): StoredRevision {
  const revision: StoredRevision = {
    id,
    fileSize: file.fileSize ?? 0,
    mimeType: file.mimeType,
    modifiedDate: file.modifiedDate,
    userId: file.lastModifyingUserId,
    pinned: false,
    published: false,
    publishAuto: false,
    publishedOutsideDomain: false,
    version: 1,
  };
  if (file.blobId !== undefined) revision.blobId = file.blobId;
  if (file.md5 !== undefined) revision.md5 = file.md5;
  if (file.originalFilename !== undefined) revision.originalFilename = file.originalFilename;
  return revision;
}
