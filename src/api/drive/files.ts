/** Drive's files resource, metadata side: get, list, insert, patch, copy, trash, delete, touch, generateIds. */
import {
  DriveFile,
  driveFileSchema,
  FileList,
  fileListSchema,
  FileMetadataInput,
  FOLDER_MIME_TYPE,
  generatedIdsSchema,
} from '../../shared/schemas/drive';
import { GoogleApiError } from '../errors';
import { BATCH_ENDPOINTS, BatchCall, BatchResult, sendBatch } from '../batch';
import { path, QueryValue } from '../http';
import { parseJson } from '../upload';
import { ALL_DRIVES, DriveContext, ifMatchHeader } from './context';

export interface ListFilesOptions {
  q?: string;
  orderBy?: string;
  maxResults?: number;
  pageToken?: string;
  /** user, drive (with driveId), allDrives, domain. */
  corpora?: string;
  /** With corpora 'drive': the shared drive to list. */
  driveId?: string;
  /** Shared drives' items too (Drive leaves them out unless asked; needed with driveId and corpora drive/allDrives). */
  includeItemsFromAllDrives?: boolean;
  spaces?: string;
  /** Google's partial response: only these fields of the listing (e.g. `items(id,title),nextPageToken`). */
  fields?: string;
  signal?: AbortSignal;
}

/** The query options files.update and files.patch share. */
export interface MetadataUpdateOptions {
  /** The etag the caller last saw: a stale one fails with 412 (GoogleApiError.isConflict). */
  ifMatch?: string;
  addParents?: readonly string[];
  removeParents?: readonly string[];
  modifiedDateBehavior?: 'fromBody' | 'fromBodyIfNeeded' | 'fromBodyOrNow' | 'noChange' | 'now' | 'nowIfNeeded';
  /** Convert text/HTML/CSV content to a native Google document on the way in. */
  convert?: boolean;
  signal?: AbortSignal;
}

/** With `ifNoneMatch` in the options: undefined when the file still has that etag (304). */
export function getFile(drive: DriveContext, fileId: string, options?: { signal?: AbortSignal }): Promise<DriveFile>;
export function getFile(drive: DriveContext, fileId: string, options: { ifNoneMatch: string; signal?: AbortSignal }): Promise<DriveFile | undefined>;
export async function getFile(drive: DriveContext, fileId: string, options: { ifNoneMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile | undefined> {
  const request = {
    method: 'GET' as const,
    path: path`/drive/v2/files/${fileId}`,
    query: ALL_DRIVES,
    headers: options.ifNoneMatch ? { 'If-None-Match': options.ifNoneMatch } : undefined,
    signal: options.signal,
    operation: 'drive.files.get',
  };
  if (!options.ifNoneMatch) return drive.http.json(driveFileSchema, request);
  const response = await drive.http.send(request, (status) => (status >= 200 && status < 300) || status === 304);
  if (response.status === 304) {
    await response.arrayBuffer();
    return undefined;
  }
  return parseJson(driveFileSchema, await response.text(), 'drive.files.get');
}

export function listFiles(drive: DriveContext, options: ListFilesOptions = {}): Promise<FileList> {
  return drive.http.json(fileListSchema, {
    method: 'GET',
    path: '/drive/v2/files',
    query: {
      q: options.q,
      orderBy: options.orderBy,
      maxResults: options.maxResults,
      pageToken: options.pageToken,
      corpora: options.corpora,
      driveId: options.driveId,
      includeItemsFromAllDrives: options.includeItemsFromAllDrives,
      spaces: options.spaces,
      fields: options.fields,
      ...ALL_DRIVES,
    },
    signal: options.signal,
    operation: 'drive.files.list',
  });
}

/** Every file matching the options, across pages. */
export function allFiles(drive: DriveContext, options: Omit<ListFilesOptions, 'pageToken'> = {}): AsyncGenerator<DriveFile> {
  return drive.http.items((pageToken) => listFiles(drive, { ...options, pageToken }), (page) => page.items);
}

export function insertFolder(drive: DriveContext, title: string, parentId = 'root', signal?: AbortSignal): Promise<DriveFile> {
  return insertFile(drive, { title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] }, signal);
}

/**
 * Creates a file without content (a folder, an empty file, or an empty native document), under the caller's id or
 * one from the client's generateIds pool: see insertFileWithId for why that makes it safe to repeat.
 */
export async function insertFile(drive: DriveContext, metadata: FileMetadataInput, signal?: AbortSignal): Promise<DriveFile> {
  const id = metadata.id ?? (await drive.ids.take(signal));
  return insertFileWithId(drive, { ...metadata, id }, signal);
}

/**
 * Creates a file under an id reserved with generateIds. Repeating such an insert cannot make a second file, so it
 * is retried like an idempotent call; a 409 duplicate to a repeat then means an earlier attempt landed, and that
 * file is the answer. (A 409 to the first attempt is the server's verdict and is surfaced.)
 */
export function insertFileWithId(drive: DriveContext, metadata: FileMetadataInput & { id: string }, signal?: AbortSignal): Promise<DriveFile> {
  return drive.http.json(driveFileSchema, {
    method: 'POST',
    path: '/drive/v2/files',
    query: ALL_DRIVES,
    json: metadata,
    signal,
    idempotent: true,
    alreadyApplied: landedUnder(drive, metadata.id, signal),
    operation: 'drive.files.insert',
  });
}

/** For a create under a chosen id: a 409 to a repeat means the earlier attempt made the file, which is the answer. */
export function landedUnder(drive: DriveContext, id: string, signal: AbortSignal | undefined): (error: GoogleApiError) => Promise<DriveFile | undefined> {
  return async (error) => (error.status === 409 ? getFile(drive, id, { signal }) : undefined);
}

/**
 * Changes only the given fields; addParents/removeParents move the file. Idempotent: the same patch twice leaves the
 * same file (adding a parent it has, removing one it lacks, change nothing). With `ifMatch`, a repeat of a patch that
 * landed meets our own new etag (412): when the file then shows every field the patch set, that was our write and
 * the file is the answer; otherwise the 412 is a real conflict and is surfaced.
 */
export function patchFile(drive: DriveContext, fileId: string, metadata: FileMetadataInput, options: MetadataUpdateOptions = {}): Promise<DriveFile> {
  return drive.http.json(driveFileSchema, {
    method: 'PATCH',
    path: path`/drive/v2/files/${fileId}`,
    query: updateQuery(options),
    json: metadata,
    headers: ifMatchHeader(options.ifMatch),
    signal: options.signal,
    idempotent: true,
    alreadyApplied: async (error) => {
      if (!error.isConflict || !options.ifMatch) return undefined;
      const file = await getFile(drive, fileId, { signal: options.signal });
      return showsPatch(file, metadata, options) ? file : undefined;
    },
    operation: 'drive.files.patch',
  });
}

/**
 * Copies a file under an id from the client's generateIds pool (or the caller's), so a repeat after an unclear
 * failure cannot make a second copy: as insertFileWithId, a 409 to a repeat means the copy exists and is the answer.
 */
export async function copyFile(drive: DriveContext, fileId: string, metadata: FileMetadataInput = {}, signal?: AbortSignal): Promise<DriveFile> {
  const id = metadata.id ?? (await drive.ids.take(signal));
  return drive.http.json(driveFileSchema, {
    method: 'POST',
    path: path`/drive/v2/files/${fileId}/copy`,
    query: ALL_DRIVES,
    json: { ...metadata, id },
    signal,
    idempotent: true,
    alreadyApplied: landedUnder(drive, id, signal),
    operation: 'drive.files.copy',
  });
}

/** files.delete: for good (a folder with its descendants), skipping the trash. */
function deleteCall(fileId: string, ifMatch?: string): BatchCall<void> {
  return { method: 'DELETE', path: path`/drive/v2/files/${fileId}`, query: ALL_DRIVES, headers: ifMatchHeader(ifMatch), operation: 'drive.files.delete' };
}

/** files.trash. Trashing twice leaves the same state, so a retry after a lost answer is safe. */
function trashCall(fileId: string, ifMatch?: string): BatchCall<DriveFile> & { schema: typeof driveFileSchema } {
  return { method: 'POST', path: path`/drive/v2/files/${fileId}/trash`, query: ALL_DRIVES, headers: ifMatchHeader(ifMatch), schema: driveFileSchema, idempotent: true, operation: 'drive.files.trash' };
}

function untrashCall(fileId: string): BatchCall<DriveFile> & { schema: typeof driveFileSchema } {
  return { method: 'POST', path: path`/drive/v2/files/${fileId}/untrash`, query: ALL_DRIVES, schema: driveFileSchema, idempotent: true, operation: 'drive.files.untrash' };
}

export function deleteFile(drive: DriveContext, fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<void> {
  return drive.http.empty({ ...deleteCall(fileId, options.ifMatch), signal: options.signal });
}

export function trashFile(drive: DriveContext, fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile> {
  const { schema, ...request } = trashCall(fileId, options.ifMatch);
  return drive.http.json(schema, { ...request, signal: options.signal });
}

export function untrashFile(drive: DriveContext, fileId: string, signal?: AbortSignal): Promise<DriveFile> {
  const { schema, ...request } = untrashCall(fileId);
  return drive.http.json(schema, { ...request, signal });
}

/** Several files deleted for good in one batch request (or a few); a result per file, in order. */
export function deleteFiles(drive: DriveContext, fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<void>[]> {
  return sendBatch(drive.http, BATCH_ENDPOINTS.drive, fileIds.map((fileId) => deleteCall(fileId)), signal);
}

export function trashFiles(drive: DriveContext, fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> {
  return sendBatch(drive.http, BATCH_ENDPOINTS.drive, fileIds.map((fileId) => trashCall(fileId)), signal);
}

export function untrashFiles(drive: DriveContext, fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> {
  return sendBatch(drive.http, BATCH_ENDPOINTS.drive, fileIds.map((fileId) => untrashCall(fileId)), signal);
}

/** Moves (files.patch with addParents/removeParents, no metadata) of several files in one batch request. */
export function moveFiles(drive: DriveContext, moves: readonly { fileId: string; addParents: readonly string[]; removeParents: readonly string[] }[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> {
  return sendBatch(drive.http, BATCH_ENDPOINTS.drive, moves.map((move): BatchCall<DriveFile> => ({
    method: 'PATCH',
    path: path`/drive/v2/files/${move.fileId}`,
    query: updateQuery({ addParents: [...move.addParents], removeParents: [...move.removeParents] }),
    json: {},
    schema: driveFileSchema,
    // Adding a parent a file has, or removing one it lacks, changes nothing: the same move twice is one move.
    idempotent: true,
    operation: 'drive.files.patch',
  })), signal);
}

/** The user's trash, or with `driveId` a shared drive's (its organizers). */
export function emptyTrash(drive: DriveContext, signal?: AbortSignal, driveId?: string): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: '/drive/v2/files/trash', query: { driveId }, signal, operation: 'drive.files.emptyTrash' });
}

export function touchFile(drive: DriveContext, fileId: string, signal?: AbortSignal): Promise<DriveFile> {
  return drive.http.json(driveFileSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/touch`, query: ALL_DRIVES, signal, idempotent: true, operation: 'drive.files.touch' });
}

export async function generateIds(drive: DriveContext, count = 10, signal?: AbortSignal): Promise<string[]> {
  const generated = await drive.http.json(generatedIdsSchema, { method: 'GET', path: '/drive/v2/files/generateIds', query: { maxResults: count }, signal, operation: 'drive.files.generateIds' });
  return generated.ids;
}

/** Whether a file carries every field a patch set (the ones Desk patches; anything else counts as not shown). */
function showsPatch(file: DriveFile, metadata: FileMetadataInput, options: MetadataUpdateOptions): boolean {
  const { title, description, mimeType, labels, parents: wanted, ...rest } = metadata;
  if (Object.values<unknown>(rest).some((value) => value !== undefined)) return false;
  if (title !== undefined && file.title !== title) return false;
  if (description !== undefined && file.description !== description) return false;
  if (mimeType !== undefined && file.mimeType !== mimeType) return false;
  for (const [label, value] of Object.entries<unknown>(labels ?? {})) {
    if (value !== undefined && (file.labels as Record<string, unknown> | undefined)?.[label] !== value) return false;
  }
  const parents = new Set((file.parents ?? []).map((parent) => parent.id));
  if (wanted !== undefined && (wanted.length !== parents.size || wanted.some((parent) => !parents.has(parent.id)))) return false;
  if (options.addParents?.some((id) => id !== 'root' && !parents.has(id))) return false;
  if (options.removeParents?.some((id) => parents.has(id))) return false;
  return true;
}

export function updateQuery(options: MetadataUpdateOptions): Record<string, QueryValue> {
  return {
    addParents: options.addParents?.length ? options.addParents.join(',') : undefined,
    removeParents: options.removeParents?.length ? options.removeParents.join(',') : undefined,
    modifiedDateBehavior: options.modifiedDateBehavior,
    convert: options.convert ? true : undefined,
    ...ALL_DRIVES,
  };
}
