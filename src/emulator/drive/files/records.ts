/** What a Drive file is in the store (times in epoch ms), the options of the files model's operations, and its id and etag rules. */
import { createHash, randomBytes } from 'node:crypto';
import { FOLDER_MIME_TYPE, PropertyVisibility } from '../../../shared/schemas/drive';
import type { StoredBlob } from '../content/blobs';
import type { StoredPermission } from '../permissions/access';

/** A file as the emulator stores it (times in epoch ms). Folders and native documents are files too. */
export interface StoredFile {
  id: string;
  /** The owning user's id; for a shared drive's items, the drive's owner key (files/drives.ts). */
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

export function newFileId(): string {
  // Google's ids are ~33 url-safe characters.
  return randomBytes(24).toString('base64url');
}

export function etagOf(file: StoredFile): string {
  return `"${createHash('sha1').update(`${file.id}:${file.version}`).digest('base64url').slice(0, 27)}"`;
}

/** A new, empty folder record (a user's My Drive, a shared drive's top folder). */
export function newFolderRecord(id: string, ownerId: string, title: string, userId: string, time: number): StoredFile {
  return {
    id,
    ownerId,
    title,
    mimeType: FOLDER_MIME_TYPE,
    starred: false,
    hidden: false,
    restricted: false,
    viewed: true,
    trashed: false,
    explicitlyTrashed: false,
    parents: [],
    createdDate: time,
    modifiedDate: time,
    modifiedByMeDate: time,
    version: 1,
    contentRevision: 0,
    properties: [],
    lastModifyingUserId: userId,
  };
}
