/** Upload bodies and resumable upload sessions: media and multipart parsing, chunks, sessions that survive restarts. */
import { createHash, Hash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { FileMetadataInput, fileMetadataInputSchema } from '../../../shared/schemas/drive';
import { EmulatorUser } from '../../identity/users';
import { ApiError, badRequest, invalid, notFound } from '../../core/errors';
import { parseJsonBody } from '../../core/json';
import { parseBody } from '../../core/params';
import { Collection, Store } from '../../store/store';
import { BlobStore, StoredBlob } from './blobs';
import { LfMultipartTooLarge, readMultipartStream } from '../../../shared/multipart';

/** Google's ceiling for one file (5 TiB); announced in about.maxUploadSizes. */
export const MAX_UPLOAD_BYTES = 5_497_558_138_880;
const MAX_METADATA_BYTES = 1024 * 1024;

/**
 * An upload announced larger than Drive's maximum is refused before any byte is stored (413: Google publishes the
 * 5 TiB ceiling, not the answer; the status is the emulator's choice), whichever header announced it.
 */
export function refuseOverMaximum(bytes: number | undefined, header: string): void {
  if (bytes === undefined || bytes <= MAX_UPLOAD_BYTES) return;
  throw new ApiError(413, 'uploadTooLarge', `The file is larger than Drive's maximum of 5 TiB (${MAX_UPLOAD_BYTES} bytes): ${header} announces ${bytes}.`, { location: header, locationType: 'header' });
}
/**
 * Sessions kept per user, finished or not (the emulator's bound; Google's sessions expire after a week). Each holds
 * its file's metadata: a client opening sessions it never used grew memory and journal with every one.
 */
export const MAX_UPLOAD_SESSIONS_PER_USER = 1000;
const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export interface ReceivedMedia {
  blob: StoredBlob;
  /** The media's Content-Type as the client sent it. */
  contentType: string;
}

/** A resumable upload in progress (durable, so a session survives an emulator restart). */
export interface UploadSession {
  id: string;
  userId: string;
  /** Set for files.update sessions. */
  fileId?: string;
  metadata: FileMetadataInput;
  /** The query parameters of the opening request (convert, addParents, …), applied at the end. */
  query: Record<string, string>;
  ifMatch?: string;
  contentType: string;
  totalSize?: number;
  createdAt: number;
  /** The file the finished upload produced; later requests on the session answer it again. */
  completedFileId?: string;
}

export type ChunkOutcome =
  | { kind: 'incomplete'; received: number }
  | { kind: 'complete'; session: UploadSession; media: ReceivedMedia }
  | { kind: 'alreadyComplete'; session: UploadSession };

/**
 * The three upload protocols of `/upload/drive/v2/files`: `media` (the body is the content), `multipart`
 * (multipart/related: JSON metadata, then the media, parsed as a stream with dicer) and `resumable` (a
 * session opened with the metadata, then chunks with Content-Range). Content goes straight to the blob
 * store as it arrives; nothing holds a whole file in memory.
 */
export class Uploads {
  private readonly sessions: Collection<UploadSession>;
  /** Serializes the chunks of one session (a retry can overlap a chunk still being written). */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** The request currently writing to each session. */
  private readonly inFlight = new Map<string, IncomingMessage>();
  /** Running md5 of each session's stored bytes (lost on restart or after a cut-off chunk: then read back). */
  private readonly digests = new Map<string, { hash: Hash; bytes: number }>();

  constructor(store: Store, private readonly blobs: BlobStore, private readonly now: () => number) {
    this.sessions = store.collection<UploadSession>('drive.uploads');
  }

  /** uploadType=media: the whole body is the content. */
  async receiveMedia(request: IncomingMessage): Promise<ReceivedMedia> {
    const contentType = headerValue(request, 'content-type') ?? 'application/octet-stream';
    refuseOverMaximum(declaredLength(request), 'Content-Length');
    const blob = await this.blobs.write(request, declaredLength(request) ?? MAX_UPLOAD_BYTES);
    return { blob, contentType };
  }

  /** uploadType=multipart: the first part is JSON metadata, the second the media. */
  receiveMultipart(request: IncomingMessage): Promise<{ metadata: FileMetadataInput; media: ReceivedMedia }> {
    const contentType = headerValue(request, 'content-type') ?? '';
    const boundaryMatch = /^multipart\/(?:related|mixed|form-data)\s*;.*?boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
    if (!boundaryMatch) {
      request.resume();
      return Promise.reject(badRequest("A multipart upload needs Content-Type 'multipart/related; boundary=…'"));
    }
    const boundary = (boundaryMatch[1] ?? boundaryMatch[2]) as string;
    return new Promise((resolve, reject) => {
      // Google also reads parts delimited by bare LF lines (Python's client writes them): the reader takes both.
      const reader = readMultipartStream(request, boundary);
      const dicer = reader.parts;
      let partIndex = 0;
      // Kept as bytes until the part has ended: a character may straddle two chunks.
      const metadataChunks: Buffer[] = [];
      let metadataBytes = 0;
      let metadataTooLarge = false;
      let mediaType = 'application/octet-stream';
      let metadata: FileMetadataInput | undefined;
      let media: Promise<StoredBlob> | undefined;
      let metadataDone: Promise<void> = Promise.resolve();
      let failed = false;
      let mediaPart: Readable | undefined;
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        reader.stop();
        request.resume();
        // End a half-written media part and answer only once its bytes are gone from the blob store. A media part
        // that is already complete (a further part has begun) is left to finish writing: destroying it would drop
        // its buffered bytes and leave the blob write waiting forever.
        if (partIndex <= 2) mediaPart?.destroy();
        const cleanup = media ? media.then((blob) => this.blobs.remove(blob.blobId), () => undefined) : Promise.resolve();
        const refusal = error instanceof ApiError ? error
          : error instanceof LfMultipartTooLarge ? new ApiError(413, 'uploadTooLarge', error.message)
            : badRequest(`Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`);
        void cleanup.then(() => reject(refusal));
      };
      /** The metadata part is complete once the media part starts: validate it before storing any bytes. */
      const parseMetadata = (): FileMetadataInput => {
        if (metadataTooLarge) throw badRequest('The metadata part is too large');
        return parseBody(fileMetadataInputSchema, parseJsonBody(Buffer.concat(metadataChunks)));
      };
      dicer.on('part', (part) => {
        const index = partIndex++;
        part.on('error', fail);
        part.on('header', (header: Record<string, string[] | undefined>) => {
          if (failed) {
            part.resume();
            return;
          }
          if (index === 0) {
            part.on('data', (chunk: Buffer) => {
              metadataBytes += chunk.length;
              if (metadataBytes > MAX_METADATA_BYTES) metadataTooLarge = true;
              else metadataChunks.push(chunk);
            });
            metadataDone = new Promise((resolveEnd) => {
              part.on('end', () => resolveEnd());
              // A part cut short errors and closes without 'end'.
              part.on('close', () => resolveEnd());
            });
          } else if (index === 1) {
            mediaType = header['content-type']?.[0] ?? 'application/octet-stream';
            mediaPart = part;
            // The media part waits (back-pressured) until the metadata part has ended and is valid.
            media = metadataDone.then(() => {
              // Failed meanwhile (a third part, a bad header): the part may be destroyed and would never end.
              if (failed) throw badRequest('The multipart upload was refused');
              try {
                metadata = parseMetadata();
              } catch (error) {
                part.resume();
                throw error;
              }
              return this.blobs.write(part, MAX_UPLOAD_BYTES);
            });
            media.catch(fail);
          } else {
            part.resume();
            fail(badRequest('A multipart upload has exactly two parts: metadata, then media'));
          }
        });
      });
      dicer.on('error', fail);
      dicer.on('finish', () => {
        void (async () => {
          if (failed) return;
          if (partIndex < 2 || !media) return fail(badRequest('A multipart upload has exactly two parts: metadata, then media'));
          const blob = await media;
          if (failed) return;
          if (!metadata) return fail(badRequest('The multipart metadata part is missing'));
          resolve({ metadata, media: { blob, contentType: mediaType } });
        })().catch(fail);
      });
      request.on('aborted', () => fail(badRequest('The upload was interrupted')));
    });
  }

  /** Opens a resumable session; the caller answers with its URL in Location. */
  open(user: EmulatorUser, options: { fileId?: string; metadata: FileMetadataInput; query: Record<string, string>; ifMatch?: string; contentType?: string; totalSize?: number }): UploadSession {
    const session: UploadSession = {
      id: randomBytes(24).toString('base64url'),
      userId: user.id,
      metadata: options.metadata,
      query: options.query,
      contentType: options.contentType ?? options.metadata.mimeType ?? 'application/octet-stream',
      createdAt: this.now(),
    };
    if (options.fileId !== undefined) session.fileId = options.fileId;
    if (options.ifMatch !== undefined) session.ifMatch = options.ifMatch;
    if (options.totalSize !== undefined) session.totalSize = options.totalSize;
    this.forgetOldSessionsOf(user.id, MAX_UPLOAD_SESSIONS_PER_USER - 1);
    this.sessions.set(session.id, session);
    return session;
  }

  /** Forgets the user's expired sessions, then the oldest idle ones beyond `keep` (their chunks with them). */
  private forgetOldSessionsOf(userId: string, keep: number): void {
    const own = [...this.sessions.values()].filter((session) => session.userId === userId).sort((a, b) => a.createdAt - b.createdAt);
    let excess = own.length - keep;
    for (const session of own) {
      const expired = this.now() - session.createdAt > SESSION_LIFETIME_MS;
      if (!expired && excess <= 0) break;
      if (this.inFlight.has(session.id) || this.locks.has(session.id)) continue;
      this.sessions.delete(session.id);
      this.digests.delete(session.id);
      void this.blobs.removePart(session.id).catch(() => undefined);
      excess--;
    }
  }

  session(user: EmulatorUser, sessionId: string, fileId: string | undefined): UploadSession {
    const session = this.sessions.get(sessionId);
    if (!session || session.userId !== user.id || session.fileId !== fileId) throw notFound(`Upload session not found: ${sessionId}`);
    return session;
  }

  /**
   * One PUT on a session: a chunk (`Content-Range: bytes a-b/total`), a status query (`bytes *\/total`), or the
   * whole content (no Content-Range). Bytes already held are skipped if resent; an interrupted chunk keeps
   * what arrived.
   */
  async put(session: UploadSession, request: IncomingMessage): Promise<ChunkOutcome> {
    // A new request on a session supersedes one still in flight (its client has given up on it, maybe
    // without the connection closing): cut the old one off so the new one sees a stable byte count.
    this.inFlight.get(session.id)?.destroy();
    const previous = this.locks.get(session.id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      this.inFlight.set(session.id, request);
      try {
        return await this.putLocked(session, request);
      } finally {
        if (this.inFlight.get(session.id) === request) this.inFlight.delete(session.id);
      }
    });
    this.locks.set(session.id, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(session.id) === run) this.locks.delete(session.id);
    }
  }

  private async putLocked(session: UploadSession, request: IncomingMessage): Promise<ChunkOutcome> {
    if (session.completedFileId !== undefined) {
      request.resume();
      return { kind: 'alreadyComplete', session };
    }
    const range = parseContentRange(headerValue(request, 'content-range'), declaredLength(request), session.totalSize);
    try {
      refuseOverMaximum(range.total, 'Content-Range');
      refuseOverMaximum(range.last === undefined ? undefined : range.last + 1, 'Content-Range');
    } catch (error) {
      request.resume();
      throw error;
    }
    if (range.total !== undefined && session.totalSize !== undefined && range.total !== session.totalSize) {
      request.resume();
      throw invalid(`Content-Range total ${range.total} differs from X-Upload-Content-Length ${session.totalSize}`, 'Content-Range', 'header');
    }
    if (range.total !== undefined && session.totalSize === undefined) {
      session.totalSize = range.total;
      this.sessions.set(session.id, session);
    }
    let received = await this.blobs.partSize(session.id);
    if (range.first !== undefined && range.last !== undefined) {
      if (range.first > received) {
        request.resume();
        throw invalid(`Content-Range starts at ${range.first} but the server holds only ${received} bytes; ask with 'bytes */total'`, 'Content-Range', 'header');
      }
      const skip = received - range.first;
      const length = range.last - range.first + 1;
      if (skip >= length) {
        request.resume();
      } else {
        // md5 as the bytes pass, valid only while it has seen exactly the bytes on disk.
        let digest = this.digests.get(session.id);
        if (received === 0) {
          digest = { hash: createHash('md5'), bytes: 0 };
          this.digests.set(session.id, digest);
        }
        if (digest && digest.bytes !== received) {
          this.digests.delete(session.id);
          digest = undefined;
        }
        try {
          await this.blobs.appendPart(session.id, request, skip, length - skip, digest?.hash);
        } catch (error) {
          // Bytes that passed the hash may not have reached the disk: read back at the end instead.
          this.digests.delete(session.id);
          throw error;
        }
        if (digest) digest.bytes = await this.blobs.partSize(session.id);
      }
      received = await this.blobs.partSize(session.id);
    } else {
      request.resume();
    }
    const total = range.total ?? session.totalSize;
    if (total !== undefined && received > total) throw invalid(`Received ${received} bytes, more than the ${total} announced`, 'Content-Range', 'header');
    if (total !== undefined && received === total) {
      const digest = this.digests.get(session.id);
      this.digests.delete(session.id);
      const known = digest && digest.bytes === received ? { md5: digest.hash.digest('hex'), size: received } : undefined;
      const blob = await this.blobs.adopt(this.blobs.partPath(session.id), known);
      return { kind: 'complete', session, media: { blob, contentType: session.contentType } };
    }
    return { kind: 'incomplete', received };
  }

  /** Forgets sessions older than Google's one-week lifetime; returns the ids still open. */
  expire(maxAgeMs = SESSION_LIFETIME_MS): Set<string> {
    const live = new Set<string>();
    for (const session of [...this.sessions.values()]) {
      if (this.now() - session.createdAt > maxAgeMs) this.sessions.delete(session.id);
      else live.add(session.id);
    }
    return live;
  }

  complete(session: UploadSession, fileId: string): void {
    session.completedFileId = fileId;
    this.sessions.set(session.id, session);
  }

  /** A session whose final commit failed (e.g. 412): it cannot be finished, so forget it. */
  async abandon(session: UploadSession): Promise<void> {
    this.sessions.delete(session.id);
    this.digests.delete(session.id);
    await this.blobs.removePart(session.id);
  }
}

/** `bytes a-b/total`, `bytes a-b/*`, `bytes *\/total`, `bytes *\/*`; absent means "the whole content in this body". */
export function parseContentRange(header: string | undefined, bodyLength: number | undefined, sessionTotal: number | undefined): { first?: number; last?: number; total?: number } {
  if (header === undefined) {
    // One request with everything: the body length is the total.
    const total = bodyLength ?? sessionTotal;
    if (total === undefined) throw new ApiError(400, 'badRequest', 'A resumable upload request needs Content-Range or Content-Length');
    return total === 0 ? { total: 0 } : { first: 0, last: total - 1, total };
  }
  const found = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec(header.trim());
  if (!found) throw invalid(`Failed to parse Content-Range header: '${header}'`, 'Content-Range', 'header');
  const total = found[3] === '*' ? undefined : Number(found[3]);
  if (found[1] === undefined) return total === undefined ? {} : { total };
  const first = Number(found[1]);
  const last = Number(found[2]);
  if (last < first || (total !== undefined && last >= total)) throw invalid(`Content-Range '${header}' is not a valid range`, 'Content-Range', 'header');
  return total === undefined ? { first, last } : { first, last, total };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function declaredLength(request: IncomingMessage): number | undefined {
  const value = headerValue(request, 'content-length');
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** For tests and seeding: a readable from bytes. */
export function readableOf(bytes: Buffer): Readable {
  return Readable.from([bytes]);
}
