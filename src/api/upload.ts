/**
 * Google's media upload protocol, for any service that takes bytes on an `/upload/...` path: `media` (bytes only),
 * `multipart` (JSON metadata + bytes in one multipart/related body) and `resumable` (a session, then chunks that
 * survive interruptions). The service client says where to send and how to read the answer; nothing here names a service.
 */
import type { Response } from 'node-fetch';
import { Readable } from 'node:stream';
import type * as z from '../shared/schemas/zod';
import { GoogleApiError, NetworkError } from './errors';
import type { HttpClient, QueryValue, Recovery } from './http';

export type UploadType = 'media' | 'multipart' | 'resumable';

export interface MediaUploadOptions {
  /** Byte count of `content`; required for a stream sent resumably (Google needs the total up front). */
  size?: number;
  /** Default: multipart up to 5 MiB, resumable above (and for streams of unknown size). */
  uploadType?: UploadType;
  /** Resumable chunk size, a multiple of 256 KiB (default 8 MiB). */
  chunkSize?: number;
  /** Called after each acknowledged chunk (resumable) or once at the end. */
  onProgress?: (sentBytes: number, totalBytes: number | undefined) => void;
  signal?: AbortSignal;
  /** The media's Content-Type; defaults to the metadata's mimeType, then application/octet-stream. */
  contentType?: string;
}

export interface MediaUpload<T> {
  method: 'POST' | 'PUT';
  /** The upload path, e.g. `/upload/drive/v2/files`. */
  path: string;
  query: Record<string, QueryValue>;
  /** The resource's JSON metadata (sent in the multipart body or when opening a resumable session). */
  metadata: { readonly mimeType?: string | undefined };
  content: Buffer | Readable;
  /** Extra request headers on the first request (If-Match). */
  headers: Record<string, string>;
  /** Reads the finished upload's answer. */
  schema: z.ZodMiniType<T>;
  operation: string;
  /** A media upload carries no metadata: the service applies it in a second step (when there is any). */
  applyMetadata: (result: T) => Promise<T>;
  /** The size of the stored bytes, for the final progress report when the caller did not know it. */
  sizeOf: (result: T) => number;
  /**
   * The service's reason why repeating a media or multipart upload is safe (e.g. Drive's chosen id in the metadata),
   * with what an error to a repeat means; without it a POST is repeated only after a refusal. Resumable uploads
   * resume instead of repeating.
   */
  repeatable?: { idempotent: boolean } & Pick<Recovery<T>, 'alreadyApplied'>;
}

const MULTIPART_LIMIT = 5 * 1024 * 1024;
const CHUNK_GRANULARITY = 256 * 1024;
const DEFAULT_CHUNK_SIZE = 8 * 1024 * 1024;

/** Sends `content` with the upload type the options ask for (or the one its size suggests) and returns the parsed answer. */
export async function uploadMedia<T>(http: HttpClient, request: MediaUpload<T>, options: MediaUploadOptions): Promise<T> {
  const size = Buffer.isBuffer(request.content) ? request.content.length : options.size;
  const uploadType: UploadType = options.uploadType ?? (size !== undefined && size <= MULTIPART_LIMIT ? 'multipart' : 'resumable');
  const contentType = options.contentType ?? request.metadata.mimeType ?? 'application/octet-stream';

  if (uploadType === 'resumable') return resumableUpload(http, request, options, contentType, size);

  let result: T;
  if (uploadType === 'media') {
    result = await http.json(request.schema, {
      method: request.method,
      path: request.path,
      query: { ...request.query, uploadType: 'media' },
      body: request.content,
      contentType,
      headers: { ...request.headers, ...(size !== undefined ? { 'Content-Length': String(size) } : {}) },
      signal: options.signal,
      ...request.repeatable,
      operation: request.operation,
    });
    if (Object.keys(request.metadata).length > 0) result = await request.applyMetadata(result);
  } else {
    const boundary = `desk_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(request.metadata)}\r\n` +
        `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.isBuffer(request.content) ? Buffer.concat([head, request.content, tail]) : Readable.from(concatStreams(head, request.content, tail));
    result = await http.json(request.schema, {
      method: request.method,
      path: request.path,
      query: { ...request.query, uploadType: 'multipart' },
      body,
      contentType: `multipart/related; boundary=${boundary}`,
      headers: { ...request.headers, ...(size !== undefined ? { 'Content-Length': String(head.length + size + tail.length) } : {}) },
      signal: options.signal,
      ...request.repeatable,
      operation: request.operation,
    });
  }
  options.onProgress?.(size ?? request.sizeOf(result), size);
  return result;
}

/**
 * The resumable protocol: open a session (metadata), then PUT chunks with Content-Range. After a failed
 * chunk (network error or 5xx) wait as the retry policy waits, ask the server how much it has (`bytes *\/total`)
 * and continue from there, so an interrupted upload resumes instead of starting over. Tries that make no progress
 * count against the policy's attempts; progress starts the count again. Memory use is one chunk.
 */
async function resumableUpload<T>(http: HttpClient, request: MediaUpload<T>, options: MediaUploadOptions, contentType: string, size: number | undefined): Promise<T> {
  const chunkSize = Math.max(CHUNK_GRANULARITY, Math.floor((options.chunkSize ?? DEFAULT_CHUNK_SIZE) / CHUNK_GRANULARITY) * CHUNK_GRANULARITY);
  const start = await http.send({
    method: request.method,
    path: request.path,
    query: { ...request.query, uploadType: 'resumable' },
    json: request.metadata,
    headers: {
      ...request.headers,
      'X-Upload-Content-Type': contentType,
      ...(size !== undefined ? { 'X-Upload-Content-Length': String(size) } : {}),
    },
    signal: options.signal,
    // Opening a session stores nothing (an unused one expires), so it is safe to repeat.
    idempotent: true,
    operation: request.operation,
  });
  await start.arrayBuffer();
  const sessionUrl = start.headers.get('location');
  if (!sessionUrl) throw new GoogleApiError(start.status, (t) => t('The upload session was not opened (no Location header)'), undefined, [], undefined);
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
    if (offset < pendingStart) throw new GoogleApiError(400, (t) => t('The upload session lost acknowledged bytes'), undefined, [], undefined);
    const piece = pending.subarray(offset - pendingStart);
    const isLast = sourceDone || (size !== undefined && offset + piece.length >= size);
    const total = isLast ? String(offset + piece.length) : size !== undefined ? String(size) : '*';
    const range = piece.length === 0 ? `bytes */${total}` : `bytes ${offset}-${offset + piece.length - 1}/${total}`;
    let response: Response;
    try {
      response = await http.send(
        { method: 'PUT', path: session.path, query: session.query, body: piece, contentType, headers: { 'Content-Range': range }, signal: options.signal, idempotent: false, operation: request.operation },
        (status) => (status >= 200 && status < 300) || status === 308,
      );
    } catch (error) {
      if (!isResumable(error) || ++stalled >= http.maxAttempts) throw error;
      // Google asks for exponential backoff before resuming after a 5xx: repeated at once, a short outage used up every try.
      await http.pauseBeforeRetry(stalled, error instanceof GoogleApiError ? error.retryAfterMs : undefined, options.signal);
      const acknowledged = await uploadStatus(http, session, size, contentType, request.operation, options.signal);
      if (acknowledged > offset) stalled = 0;
      offset = acknowledged;
      continue;
    }
    if (response.status !== 308) {
      const result = parseJson(request.schema, await response.text(), request.operation);
      options.onProgress?.(offset + piece.length, size);
      return result;
    }
    await response.arrayBuffer();
    const acknowledged = acknowledgedBytes(response.headers.get('range'));
    if (acknowledged > offset) stalled = 0;
    else if (++stalled >= http.maxAttempts) throw new GoogleApiError(308, (t) => t('The upload made no progress'), undefined, [], undefined);
    else await http.pauseBeforeRetry(stalled, undefined, options.signal);
    offset = acknowledged;
    options.onProgress?.(offset, size);
  }
}

/** Asks a resumable session how many bytes it holds. */
async function uploadStatus(http: HttpClient, session: { path: string; query: Record<string, string> }, size: number | undefined, contentType: string, operation: string, signal: AbortSignal | undefined): Promise<number> {
  const response = await http.send(
    { method: 'PUT', path: session.path, query: session.query, body: Buffer.alloc(0), contentType, headers: { 'Content-Range': `bytes */${size ?? '*'}` }, signal, operation },
    (status) => status === 308 || (status >= 200 && status < 300),
  );
  await response.arrayBuffer();
  return response.status === 308 ? acknowledgedBytes(response.headers.get('range')) : size ?? 0;
}

/**
 * Parses the JSON text of a raw response (one read with `http.send` because its status needs a look first: 304,
 * 308, a long-poll header). An answer that is not JSON, or not the schema, is a GoogleApiError with status 0.
 */
export function parseJson<T>(schema: z.ZodMiniType<T>, text: string, operation: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GoogleApiError(0, (t) => t('The service sent a non-JSON answer for {0}', operation), undefined, [], undefined);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new GoogleApiError(0, (t) => t('The service sent an answer Desk does not understand for {0}', operation), undefined, [], undefined);
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
