import type { Response } from 'node-fetch';
import { Readable } from 'node:stream';
import * as z from '../shared/schemas/zod';
import {
  About,
  aboutSchema,
  AppList,
  appListSchema,
  appSchema,
  Change,
  ChangeList,
  changeListSchema,
  changeSchema,
  ChildList,
  childListSchema,
  ChildReference,
  childReferenceSchema,
  DriveApp,
  DriveFile,
  driveFileSchema,
  FileList,
  fileListSchema,
  FileMetadataInput,
  FOLDER_MIME_TYPE,
  generatedIdsSchema,
  LONG_POLL_ANNOUNCE_HEADER,
  LONG_POLL_MAX_SECONDS,
  LONG_POLL_WAIT_HEADER,
  ParentList,
  parentListSchema,
  ParentReference,
  parentReferenceSchema,
  startPageTokenSchema,
} from '../shared/schemas/drive';
import { GoogleApiError, NetworkError } from './errors';
import { HttpClient, path, QueryValue } from './http';

export type UploadType = 'media' | 'multipart' | 'resumable';

export interface UploadOptions {
  /** Byte count of `content`; required for a stream sent resumably (Google needs the total up front). */
  size?: number;
  /** Default: multipart up to 5 MiB, resumable above (and for streams of unknown size). */
  uploadType?: UploadType;
  /** Resumable chunk size, a multiple of 256 KiB (default 8 MiB). */
  chunkSize?: number;
  /** Called after each acknowledged chunk (resumable) or once at the end. */
  onProgress?: (sentBytes: number, totalBytes: number | undefined) => void;
  signal?: AbortSignal;
  /** Convert text/HTML/CSV content to a native Google document on the way in. */
  convert?: boolean;
  /** The media's Content-Type; defaults to the metadata's mimeType, then application/octet-stream. */
  contentType?: string;
}

export interface UpdateOptions extends UploadOptions {
  /** New bytes for the file (sent on the upload path). */
  content?: Buffer | Readable;
  /** The etag the caller last saw: a stale one fails with 412 (GoogleApiError.isConflict). */
  ifMatch?: string;
  addParents?: readonly string[];
  removeParents?: readonly string[];
  modifiedDateBehavior?: 'fromBody' | 'fromBodyIfNeeded' | 'fromBodyOrNow' | 'noChange' | 'now' | 'nowIfNeeded';
}

export interface ListFilesOptions {
  q?: string;
  orderBy?: string;
  maxResults?: number;
  pageToken?: string;
  corpora?: string;
  spaces?: string;
  signal?: AbortSignal;
}

export interface ListChildrenOptions {
  q?: string;
  orderBy?: string;
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export interface ListChangesOptions {
  pageToken?: string;
  maxResults?: number;
  includeDeleted?: boolean;
  includeSubscribed?: boolean;
  spaces?: string;
  /**
   * Ask the server to hold an empty answer up to this many seconds until a change arrives (long poll).
   * Only the Desk emulator offers this, and only when it announced it; Google answers at once.
   */
  waitSeconds?: number;
  signal?: AbortSignal;
}

export interface Download {
  stream: Readable;
  etag: string | undefined;
  size: number | undefined;
  contentType: string | undefined;
}

const MULTIPART_LIMIT = 5 * 1024 * 1024;
const CHUNK_GRANULARITY = 256 * 1024;
const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;
/** Consecutive failed chunk attempts (no progress) before a resumable upload gives up. */
const MAX_STALLED_ATTEMPTS = 5;

/** The Drive v2 client: one method per operation, typed with the shared schemas. */
export class DriveClient {
  /** Learned from the server's answers: whether changes.list honours `X-Desk-Wait`. */
  private longPollSupported: boolean | undefined;

  constructor(private readonly http: HttpClient) {}

  // ---- about, apps ----

  async about(signal?: AbortSignal): Promise<About> {
    const about = await this.http.json(aboutSchema, { method: 'GET', path: '/drive/v2/about', signal, operation: 'drive.about.get' });
    if (about.deskLongPoll !== undefined) this.longPollSupported = about.deskLongPoll;
    return about;
  }

  listApps(signal?: AbortSignal): Promise<AppList> {
    return this.http.json(appListSchema, { method: 'GET', path: '/drive/v2/apps', signal, operation: 'drive.apps.list' });
  }

  getApp(appId: string, signal?: AbortSignal): Promise<DriveApp> {
    return this.http.json(appSchema, { method: 'GET', path: path`/drive/v2/apps/${appId}`, signal, operation: 'drive.apps.get' });
  }

  // ---- files: metadata ----

  getFile(fileId: string, options?: { signal?: AbortSignal }): Promise<DriveFile>;
  /** With `ifNoneMatch`: undefined when the file still has that etag (304). */
  getFile(fileId: string, options: { ifNoneMatch: string; signal?: AbortSignal }): Promise<DriveFile | undefined>;
  async getFile(fileId: string, options: { ifNoneMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile | undefined> {
    const request = {
      method: 'GET' as const,
      path: path`/drive/v2/files/${fileId}`,
      headers: options.ifNoneMatch ? { 'If-None-Match': options.ifNoneMatch } : undefined,
      signal: options.signal,
      operation: 'drive.files.get',
    };
    if (!options.ifNoneMatch) return this.http.json(driveFileSchema, request);
    const response = await this.http.send(request, (status) => (status >= 200 && status < 300) || status === 304);
    if (response.status === 304) {
      await response.arrayBuffer();
      return undefined;
    }
    return parseJson(driveFileSchema, await response.text(), 'drive.files.get');
  }

  listFiles(options: ListFilesOptions = {}): Promise<FileList> {
    return this.http.json(fileListSchema, {
      method: 'GET',
      path: '/drive/v2/files',
      query: { q: options.q, orderBy: options.orderBy, maxResults: options.maxResults, pageToken: options.pageToken, corpora: options.corpora, spaces: options.spaces },
      signal: options.signal,
      operation: 'drive.files.list',
    });
  }

  /** Every file matching the options, across pages. */
  allFiles(options: Omit<ListFilesOptions, 'pageToken'> = {}): AsyncGenerator<DriveFile> {
    return this.http.items((pageToken) => this.listFiles({ ...options, pageToken }), (page) => page.items);
  }

  insertFolder(title: string, parentId = 'root', signal?: AbortSignal): Promise<DriveFile> {
    return this.insertFile({ title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] }, signal);
  }

  /** Creates a file without content (a folder, an empty file, or an empty native document). */
  insertFile(metadata: FileMetadataInput, signal?: AbortSignal): Promise<DriveFile> {
    return this.http.json(driveFileSchema, { method: 'POST', path: '/drive/v2/files', json: metadata, signal, operation: 'drive.files.insert' });
  }

  /**
   * Creates a file under an id reserved with generateIds. Repeating such an insert cannot make a second file, so it
   * is retried like an idempotent call; a 409 duplicate then means an earlier attempt landed, and that file is the answer.
   */
  async insertFileWithId(metadata: FileMetadataInput & { id: string }, signal?: AbortSignal): Promise<DriveFile> {
    try {
      return await this.http.json(driveFileSchema, { method: 'POST', path: '/drive/v2/files', json: metadata, signal, idempotent: true, operation: 'drive.files.insert' });
    } catch (error) {
      if (error instanceof GoogleApiError && error.status === 409) return this.getFile(metadata.id, { signal });
      throw error;
    }
  }

  /** Replaces the metadata (PUT semantics), and the content too when `options.content` is given. */
  async updateFile(fileId: string, metadata: FileMetadataInput, options: UpdateOptions = {}): Promise<DriveFile> {
    const query = updateQuery(options);
    if (options.content !== undefined) {
      return this.upload({ method: 'PUT', fileId, metadata, content: options.content, options, query, ifMatch: options.ifMatch });
    }
    return this.http.json(driveFileSchema, {
      method: 'PUT',
      path: path`/drive/v2/files/${fileId}`,
      query,
      json: metadata,
      headers: ifMatchHeader(options.ifMatch),
      signal: options.signal,
      operation: 'drive.files.update',
    });
  }

  /** Changes only the given fields; addParents/removeParents move the file. */
  patchFile(fileId: string, metadata: FileMetadataInput, options: Omit<UpdateOptions, 'content'> = {}): Promise<DriveFile> {
    return this.http.json(driveFileSchema, {
      method: 'PATCH',
      path: path`/drive/v2/files/${fileId}`,
      query: updateQuery(options),
      json: metadata,
      headers: ifMatchHeader(options.ifMatch),
      signal: options.signal,
      operation: 'drive.files.patch',
    });
  }

  copyFile(fileId: string, metadata: FileMetadataInput = {}, signal?: AbortSignal): Promise<DriveFile> {
    return this.http.json(driveFileSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/copy`, json: metadata, signal, operation: 'drive.files.copy' });
  }

  /** Deletes for good (a folder with its descendants), skipping the trash. */
  deleteFile(fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}`, headers: ifMatchHeader(options.ifMatch), signal: options.signal, operation: 'drive.files.delete' });
  }

  trashFile(fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile> {
    // Trashing twice leaves the same state, so a retry after a lost answer is safe.
    return this.http.json(driveFileSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/trash`, headers: ifMatchHeader(options.ifMatch), signal: options.signal, idempotent: true, operation: 'drive.files.trash' });
  }

  untrashFile(fileId: string, signal?: AbortSignal): Promise<DriveFile> {
    return this.http.json(driveFileSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/untrash`, signal, idempotent: true, operation: 'drive.files.untrash' });
  }

  emptyTrash(signal?: AbortSignal): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: '/drive/v2/files/trash', signal, operation: 'drive.files.emptyTrash' });
  }

  touchFile(fileId: string, signal?: AbortSignal): Promise<DriveFile> {
    return this.http.json(driveFileSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/touch`, signal, idempotent: true, operation: 'drive.files.touch' });
  }

  async generateIds(count = 10, signal?: AbortSignal): Promise<string[]> {
    const generated = await this.http.json(generatedIdsSchema, { method: 'GET', path: '/drive/v2/files/generateIds', query: { maxResults: count }, signal, operation: 'drive.files.generateIds' });
    return generated.ids;
  }

  // ---- files: content ----

  /** Creates a file with content. */
  uploadFile(metadata: FileMetadataInput, content: Buffer | Readable, options: UploadOptions = {}): Promise<DriveFile> {
    return this.upload({ method: 'POST', metadata, content, options, query: options.convert ? { convert: true } : {} });
  }

  /** The file's bytes as a stream (`alt=media`). Native Google documents fail with 403 fileNotDownloadable: export them. */
  async download(fileId: string, options: { signal?: AbortSignal } = {}): Promise<Download> {
    const response = await this.http.send({
      method: 'GET',
      path: path`/drive/v2/files/${fileId}`,
      query: { alt: 'media' },
      headers: { Accept: '*/*' },
      signal: options.signal,
      operation: 'drive.files.get (media)',
    });
    const length = response.headers.get('content-length');
    return {
      stream: response.body as unknown as Readable,
      etag: response.headers.get('etag') ?? undefined,
      size: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
      contentType: response.headers.get('content-type') ?? undefined,
    };
  }

  /** A native document converted to `mimeType` (see about().exportFormats). */
  async exportFile(fileId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> {
    const response = await this.http.send({
      method: 'GET',
      path: path`/drive/v2/files/${fileId}/export`,
      query: { mimeType },
      headers: { Accept: '*/*' },
      signal,
      operation: 'drive.files.export',
    });
    return response.buffer();
  }

  // ---- children, parents ----

  listChildren(folderId: string, options: ListChildrenOptions = {}): Promise<ChildList> {
    return this.http.json(childListSchema, {
      method: 'GET',
      path: path`/drive/v2/files/${folderId}/children`,
      query: { q: options.q, orderBy: options.orderBy, maxResults: options.maxResults, pageToken: options.pageToken },
      signal: options.signal,
      operation: 'drive.children.list',
    });
  }

  getChild(folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> {
    return this.http.json(childReferenceSchema, { method: 'GET', path: path`/drive/v2/files/${folderId}/children/${childId}`, signal, operation: 'drive.children.get' });
  }

  insertChild(folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> {
    return this.http.json(childReferenceSchema, { method: 'POST', path: path`/drive/v2/files/${folderId}/children`, json: { id: childId }, signal, idempotent: true, operation: 'drive.children.insert' });
  }

  deleteChild(folderId: string, childId: string, signal?: AbortSignal): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${folderId}/children/${childId}`, signal, operation: 'drive.children.delete' });
  }

  listParents(fileId: string, signal?: AbortSignal): Promise<ParentList> {
    return this.http.json(parentListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/parents`, signal, operation: 'drive.parents.list' });
  }

  getParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> {
    return this.http.json(parentReferenceSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/parents/${parentId}`, signal, operation: 'drive.parents.get' });
  }

  insertParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> {
    return this.http.json(parentReferenceSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/parents`, json: { id: parentId }, signal, idempotent: true, operation: 'drive.parents.insert' });
  }

  deleteParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/parents/${parentId}`, signal, operation: 'drive.parents.delete' });
  }

  // ---- changes ----

  async getStartPageToken(signal?: AbortSignal): Promise<string> {
    const response = await this.http.send({ method: 'GET', path: '/drive/v2/changes/startPageToken', signal, operation: 'drive.changes.getStartPageToken' });
    this.learnLongPoll(response);
    return parseJson(startPageTokenSchema, await response.text(), 'drive.changes.getStartPageToken').startPageToken;
  }

  /** One page of changes. With `waitSeconds`, a server that offers long polling holds an empty page until something changes. */
  async listChanges(options: ListChangesOptions = {}): Promise<ChangeList> {
    let wait: number | undefined;
    if (options.waitSeconds !== undefined && options.waitSeconds > 0) {
      if (this.longPollSupported === undefined) await this.getStartPageToken(options.signal);
      if (this.longPollSupported) wait = Math.min(LONG_POLL_MAX_SECONDS, Math.ceil(options.waitSeconds));
    }
    const query: Record<string, QueryValue> = {
      pageToken: options.pageToken,
      maxResults: options.maxResults,
      includeDeleted: options.includeDeleted,
      includeSubscribed: options.includeSubscribed,
      spaces: options.spaces,
    };
    const response = await this.http.send({
      method: 'GET',
      path: '/drive/v2/changes',
      query,
      headers: wait !== undefined ? { [LONG_POLL_WAIT_HEADER]: String(wait) } : undefined,
      signal: options.signal,
      operation: 'drive.changes.list',
    });
    this.learnLongPoll(response);
    return parseJson(changeListSchema, await response.text(), 'drive.changes.list');
  }

  /** Deprecated on Google (use listChanges); kept because the spec lists it. */
  getChange(changeId: string, signal?: AbortSignal): Promise<Change> {
    return this.http.json(changeSchema, { method: 'GET', path: path`/drive/v2/changes/${changeId}`, signal, operation: 'drive.changes.get' });
  }

  /** Whether the server announced long polling on changes.list (undefined until it answered once). */
  get supportsLongPoll(): boolean | undefined {
    return this.longPollSupported;
  }

  private learnLongPoll(response: Response): void {
    this.longPollSupported = response.headers.get(LONG_POLL_ANNOUNCE_HEADER) === '1';
  }

  // ---- uploads ----

  private async upload(request: {
    method: 'POST' | 'PUT';
    fileId?: string;
    metadata: FileMetadataInput;
    content: Buffer | Readable;
    options: UploadOptions;
    query: Record<string, QueryValue>;
    ifMatch?: string;
  }): Promise<DriveFile> {
    const { options } = request;
    const size = Buffer.isBuffer(request.content) ? request.content.length : options.size;
    const uploadType: UploadType = options.uploadType ?? (size !== undefined && size <= MULTIPART_LIMIT ? 'multipart' : 'resumable');
    const contentType = options.contentType ?? request.metadata.mimeType ?? 'application/octet-stream';
    const uploadPath = request.fileId ? path`/upload/drive/v2/files/${request.fileId}` : '/upload/drive/v2/files';
    const operation = request.fileId ? 'drive.files.update (upload)' : 'drive.files.insert (upload)';
    const query = { ...request.query, convert: options.convert ? true : request.query.convert };

    if (uploadType === 'resumable') return this.resumableUpload({ ...request, uploadPath, contentType, size, operation, query });

    let file: DriveFile;
    if (uploadType === 'media') {
      file = await this.http.json(driveFileSchema, {
        method: request.method,
        path: uploadPath,
        query: { ...query, uploadType: 'media' },
        body: request.content,
        contentType,
        headers: { ...ifMatchHeader(request.ifMatch), ...(size !== undefined ? { 'Content-Length': String(size) } : {}) },
        signal: options.signal,
        operation,
      });
      // A media upload carries no metadata: apply it in a second step.
      if (Object.keys(request.metadata).length > 0) file = await this.patchFile(file.id, request.metadata, { signal: options.signal });
    } else {
      const boundary = `desk_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(request.metadata)}\r\n` +
          `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const body = Buffer.isBuffer(request.content) ? Buffer.concat([head, request.content, tail]) : Readable.from(concatStreams(head, request.content, tail));
      file = await this.http.json(driveFileSchema, {
        method: request.method,
        path: uploadPath,
        query: { ...query, uploadType: 'multipart' },
        body,
        contentType: `multipart/related; boundary=${boundary}`,
        headers: { ...ifMatchHeader(request.ifMatch), ...(size !== undefined ? { 'Content-Length': String(head.length + size + tail.length) } : {}) },
        signal: options.signal,
        operation,
      });
    }
    options.onProgress?.(size ?? Number(file.fileSize ?? 0), size);
    return file;
  }

  /**
   * The resumable protocol: open a session (metadata), then PUT chunks with Content-Range. After a failed
   * chunk (network error or 5xx) ask the server how much it has (`bytes *\/total`) and continue from there,
   * so an interrupted upload resumes instead of starting over. Memory use is one chunk.
   */
  private async resumableUpload(request: {
    method: 'POST' | 'PUT';
    metadata: FileMetadataInput;
    content: Buffer | Readable;
    options: UploadOptions;
    query: Record<string, QueryValue>;
    ifMatch?: string;
    uploadPath: string;
    contentType: string;
    size: number | undefined;
    operation: string;
  }): Promise<DriveFile> {
    const { options, size } = request;
    const chunkSize = Math.max(CHUNK_GRANULARITY, Math.floor((options.chunkSize ?? DEFAULT_CHUNK_SIZE) / CHUNK_GRANULARITY) * CHUNK_GRANULARITY);
    const start = await this.http.send({
      method: request.method,
      path: request.uploadPath,
      query: { ...request.query, uploadType: 'resumable' },
      json: request.metadata,
      headers: {
        ...ifMatchHeader(request.ifMatch),
        'X-Upload-Content-Type': request.contentType,
        ...(size !== undefined ? { 'X-Upload-Content-Length': String(size) } : {}),
      },
      signal: options.signal,
      operation: request.operation,
    });
    await start.arrayBuffer();
    const sessionUrl = start.headers.get('location');
    if (!sessionUrl) throw new GoogleApiError(start.status, 'The upload session was not opened (no Location header)', undefined, [], undefined);
    const session = sessionPath(sessionUrl);

    const chunks = chunkSource(request.content, chunkSize);
    let offset = 0;
    let stalled = 0;
    let pending: Buffer | undefined;
    let pendingStart = 0;
    let sourceDone = false;
    for (;;) {
      if (!pending || offset >= pendingStart + pending.length) {
        const next = sourceDone ? undefined : await chunks.next();
        if (!next || next.done) {
          sourceDone = true;
          pending = Buffer.alloc(0);
        } else {
          pending = next.value;
        }
        pendingStart = offset;
      }
      // The server never forgets acknowledged bytes, so it cannot ask for ones before the current chunk.
      if (offset < pendingStart) throw new GoogleApiError(400, 'The upload session lost acknowledged bytes', undefined, [], undefined);
      const piece = pending.subarray(offset - pendingStart);
      const isLast = sourceDone || (size !== undefined && offset + piece.length >= size);
      const total = isLast ? String(offset + piece.length) : size !== undefined ? String(size) : '*';
      const range = piece.length === 0 ? `bytes */${total}` : `bytes ${offset}-${offset + piece.length - 1}/${total}`;
      let response: Response;
      try {
        response = await this.http.send(
          { method: 'PUT', path: session.path, query: session.query, body: piece, contentType: request.contentType, headers: { 'Content-Range': range }, signal: options.signal, idempotent: false, operation: request.operation },
          (status) => (status >= 200 && status < 300) || status === 308,
        );
      } catch (error) {
        if (!isResumable(error) || ++stalled > MAX_STALLED_ATTEMPTS) throw error;
        offset = await this.uploadStatus(session, size, request);
        continue;
      }
      if (response.status !== 308) {
        const file = parseJson(driveFileSchema, await response.text(), request.operation);
        options.onProgress?.(offset + piece.length, size);
        return file;
      }
      await response.arrayBuffer();
      const acknowledged = acknowledgedBytes(response.headers.get('range'));
      if (acknowledged > offset) stalled = 0;
      else if (++stalled > MAX_STALLED_ATTEMPTS) throw new GoogleApiError(308, 'The upload made no progress', undefined, [], undefined);
      offset = acknowledged;
      options.onProgress?.(offset, size);
    }
  }

  /** Asks a resumable session how many bytes it holds. */
  private async uploadStatus(session: { path: string; query: Record<string, string> }, size: number | undefined, request: { contentType: string; operation: string; options: UploadOptions }): Promise<number> {
    const response = await this.http.send(
      { method: 'PUT', path: session.path, query: session.query, body: Buffer.alloc(0), contentType: request.contentType, headers: { 'Content-Range': `bytes */${size ?? '*'}` }, signal: request.options.signal, operation: request.operation },
      (status) => status === 308 || (status >= 200 && status < 300),
    );
    await response.arrayBuffer();
    return response.status === 308 ? acknowledgedBytes(response.headers.get('range')) : size ?? 0;
  }
}

function updateQuery(options: Omit<UpdateOptions, 'content'>): Record<string, QueryValue> {
  return {
    addParents: options.addParents?.length ? options.addParents.join(',') : undefined,
    removeParents: options.removeParents?.length ? options.removeParents.join(',') : undefined,
    modifiedDateBehavior: options.modifiedDateBehavior,
    convert: options.convert ? true : undefined,
  };
}

function ifMatchHeader(etag: string | undefined): Record<string, string> {
  return etag ? { 'If-Match': etag } : {};
}

function parseJson<T>(schema: z.ZodMiniType<T>, text: string, operation: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GoogleApiError(0, `The service sent a non-JSON answer for ${operation}`, undefined, [], undefined);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new GoogleApiError(0, `The service sent an answer Desk does not understand for ${operation}`, undefined, [], undefined);
  return result.data;
}

/** `Range: bytes=0-N` → N+1 bytes persisted; no header → nothing yet. */
function acknowledgedBytes(range: string | null): number {
  const found = range ? /bytes=0-(\d+)/.exec(range) : null;
  return found ? Number(found[1]) + 1 : 0;
}

function isResumable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof GoogleApiError && (error.status >= 500 || error.status === 429 || error.status === 408));
}

/** The session URI relative to the root URL the HttpClient already prefixes. */
function sessionPath(sessionUrl: string): { path: string; query: Record<string, string> } {
  const url = new URL(sessionUrl, 'http://placeholder');
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, key) => {
    query[key] = value;
  });
  return { path: url.pathname, query };
}

/** Splits a Buffer or stream into chunks of exactly `size` bytes (the last may be shorter). */
async function* chunkSource(content: Buffer | Readable, size: number): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(content)) {
    for (let start = 0; start < content.length; start += size) yield content.subarray(start, start + size);
    return;
  }
  let buffered: Buffer[] = [];
  let length = 0;
  for await (const piece of content as AsyncIterable<Buffer | string>) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    buffered.push(bytes);
    length += bytes.length;
    while (length >= size) {
      const joined = Buffer.concat(buffered, length);
      yield joined.subarray(0, size);
      const rest = joined.subarray(size);
      buffered = rest.length ? [rest] : [];
      length = rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(buffered, length);
}

async function* concatStreams(head: Buffer, content: Readable, tail: Buffer): AsyncGenerator<Buffer> {
  yield head;
  for await (const piece of content as AsyncIterable<Buffer | string>) yield typeof piece === 'string' ? Buffer.from(piece) : piece;
  yield tail;
}
