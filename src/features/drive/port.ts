/**
 * The Drive port: the part of the Drive client the extension's Drive features use, so the views, commands, file
 * system and poller are testable with small fakes. Files are the shared schema's `DriveFile` (declared once).
 *
 * Why an adapter (driveAdapter.ts) and not `Pick<DriveClient, …>`: five operations need behaviour the client
 * deliberately leaves to callers — a folder insert made retry-safe with a generated id, `about` flattened to what
 * the views show, `children.list` reduced to ids, `parents.list` to references, apps with their details — and
 * the fakes stay small because they implement this narrow surface, not every option of the client.
 */
import type { BatchResult } from '../../api/batch';
import type { Readable } from 'node:stream';
import { quoteQuery } from '../../api/drive/query';
import { compareDigits } from '../../shared/decimal';
import type { DriveFile, ParentReference } from '../../shared/schemas/drive';

export type DriveItem = DriveFile;
export type DriveParent = Pick<ParentReference, 'id' | 'isRoot'>;

export interface DriveItemPage {
  readonly items: readonly DriveItem[];
  readonly nextPageToken?: string | undefined;
}

export interface DriveAboutInfo {
  readonly rootFolderId?: string | undefined;
  readonly userName?: string | undefined;
  readonly userEmail?: string | undefined;
  readonly quotaBytesTotal?: string | undefined;
  readonly quotaBytesUsed?: string | undefined;
  readonly quotaBytesUsedInTrash?: string | undefined;
  readonly exportFormats: readonly { readonly source: string; readonly targets: readonly string[] }[];
}

export interface DriveDownload {
  readonly stream: Readable;
  readonly etag?: string | undefined;
  readonly size?: number | undefined;
}

export interface UploadOptions {
  readonly size?: number | undefined;
  readonly onProgress?: ((bytesSent: number) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface DriveMetadataPatch {
  readonly title?: string;
  readonly labels?: { readonly starred?: boolean; readonly trashed?: boolean };
  readonly parents?: readonly { readonly id: string }[];
  readonly mimeType?: string;
}

/** An installed Drive app (apps.list / apps.get), with the fields the Apps picker shows; `details` is the whole resource. */
export interface DriveAppInfo {
  readonly id: string;
  readonly name?: string | undefined;
  readonly shortDescription?: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface DriveMove {
  readonly fileId: string;
  readonly addParents: readonly string[];
  readonly removeParents: readonly string[];
}

export interface DriveApi {
  about(): Promise<DriveAboutInfo>;
  getFile(fileId: string): Promise<DriveItem>;
  /**
   * With `includeItemsFromAllDrives`, shared drives' items too (a shared drive's folders list nothing without it);
   * `corpora: 'drive'` with `driveId` searches one shared drive (its trash, for one).
   */
  listFiles(request: { q: string; orderBy?: string; maxResults?: number; pageToken?: string | undefined; includeItemsFromAllDrives?: boolean; corpora?: 'drive'; driveId?: string; fields?: string }): Promise<DriveItemPage>;
  insertFolder(title: string, parentId: string): Promise<DriveItem>;
  /** A new empty file (New File); under `id` (one of generateIds) a repeat of an insert that landed makes no second file. */
  insertEmptyFile(title: string, parentId: string, options?: { id?: string; mimeType?: string }): Promise<DriveItem>;
  /** Ids Drive reserves for files the client creates (files.generateIds). */
  generateIds(count: number): Promise<readonly string[]>;
  uploadFile(metadata: { title: string; parents: readonly { id: string }[]; mimeType?: string }, content: Buffer | Readable, options: UploadOptions): Promise<DriveItem>;
  /** Replaces the content (and metadata); `ifMatch` makes it conditional (412 when stale). */
  updateContent(fileId: string, content: Buffer, options: { ifMatch?: string | undefined; mimeType?: string | undefined }): Promise<DriveItem>;
  patchFile(fileId: string, metadata: DriveMetadataPatch, options?: { addParents?: string[]; removeParents?: string[]; ifMatch?: string }): Promise<DriveItem>;
  copyFile(fileId: string, metadata: { title?: string; parents?: readonly { id: string }[] }): Promise<DriveItem>;
  deleteFile(fileId: string): Promise<void>;
  trashFile(fileId: string): Promise<DriveItem>;
  untrashFile(fileId: string): Promise<DriveItem>;
  /** Several files at once (one batch request per 100): a result per file, in order. */
  trashFiles(fileIds: readonly string[]): Promise<readonly BatchResult<DriveItem>[]>;
  untrashFiles(fileIds: readonly string[]): Promise<readonly BatchResult<DriveItem>[]>;
  deleteFiles(fileIds: readonly string[]): Promise<readonly BatchResult<void>[]>;
  /** Each file leaves `removeParents` for `addParents` (files.patch), batched. */
  moveFiles(moves: readonly DriveMove[]): Promise<readonly BatchResult<DriveItem>[]>;
  /** The user's trash, or with `driveId` a shared drive's (its organizers only). */
  emptyTrash(driveId?: string): Promise<void>;
  touchFile(fileId: string): Promise<DriveItem>;
  download(fileId: string, options?: { signal?: AbortSignal }): Promise<DriveDownload>;
  exportFile(fileId: string, mimeType: string): Promise<Buffer>;
  /** parents.insert: the file also appears in `parentId` (it keeps its other folders). */
  insertParent(fileId: string, parentId: string): Promise<void>;
  /** parents.delete: the file leaves `parentId` only. */
  deleteParent(fileId: string, parentId: string): Promise<void>;
  /** parents.list: the ids of the folders the file is in. */
  listParents(fileId: string): Promise<readonly DriveParent[]>;
  /** children.insert: puts an existing file into `folderId` as well. */
  insertChild(folderId: string, childId: string): Promise<void>;
  /** children.get: whether the file is (still) in the folder. */
  hasChild(folderId: string, childId: string): Promise<boolean>;
  /** children.delete: the folder lets go of the file (which stays in its other folders). */
  deleteChild(folderId: string, childId: string): Promise<void>;
  /** children.list, one page of child ids. */
  listChildren(folderId: string, pageToken?: string): Promise<{ readonly ids: readonly string[]; readonly nextPageToken?: string | undefined }>;
  listApps(): Promise<readonly DriveAppInfo[]>;
  getApp(appId: string): Promise<DriveAppInfo>;
}

/** Drive's `version` of a file: a decimal int64 that only grows with every change. */
const VERSION = /^\d{1,20}$/;

export function isDriveVersion(version: string | undefined): version is string {
  return version !== undefined && VERSION.test(version);
}

/** How two versions of one file compare (-1, 0 or 1): undefined when either is absent or not a version. */
export function compareVersions(a: string | undefined, b: string | undefined): number | undefined {
  return isDriveVersion(a) && isDriveVersion(b) ? compareDigits(a, b) : undefined;
}

/** The files.list query behind "Add Existing File to Folder…": titles containing the typed text, not in the trash. */
export function titleSearchQuery(text: string): string {
  return `title contains ${quoteQuery(text)} and trashed = false`;
}

/** Drive v2 query strings quote with single quotes (api/drive/query.ts). */
export { quoteQuery };
