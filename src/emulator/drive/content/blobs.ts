/** File content on disk (or in memory): write-then-commit blobs, ranged reads, copies and the startup sweep of orphans. */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../core/errors';

export interface StoredBlob {
  blobId: string;
  size: number;
  md5: string;
}

/**
 * File contents as files on disk: `<dataDir>/blobs/<blobId>` for a durable emulator, a temporary folder in
 * memory mode (so a 100 MB upload never sits in the heap either way). A blob is written to a temporary name,
 * fsynced, then renamed into place, all before the metadata that names it is committed: an acknowledged file
 * always has its bytes. Blobs are immutable; new content gets a new blob id.
 */
export class BlobStore {
  private readonly uploadsDir: string;

  private constructor(readonly dir: string) {
    this.uploadsDir = path.join(dir, 'uploads');
    fs.mkdirSync(this.uploadsDir, { recursive: true });
  }

  static open(dataDir: string | undefined): BlobStore {
    if (dataDir) return new BlobStore(path.join(dataDir, 'blobs'));
    const temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-drive-blobs-'));
    registerForRemovalAtExit(temporary);
    return new BlobStore(temporary);
  }

  private blobPath(blobId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(blobId)) throw new Error(`bad blob id ${blobId}`);
    return path.join(this.dir, blobId);
  }

  /** Streams `source` into a new blob, computing size and md5 on the way; `maxBytes` bounds it. */
  async write(source: Readable, maxBytes = Number.MAX_SAFE_INTEGER): Promise<StoredBlob> {
    const blobId = newBlobId();
    const temporary = path.join(this.uploadsDir, `${blobId}.tmp`);
    const hash = createHash('md5');
    const meter = new MeterTransform(maxBytes, hash);
    try {
      await pipeline(source, meter, fs.createWriteStream(temporary));
      await fsyncFile(temporary);
      await fs.promises.rename(temporary, this.blobPath(blobId));
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    return { blobId, size: meter.bytes, md5: hash.digest('hex') };
  }

  writeBuffer(content: Buffer): Promise<StoredBlob> {
    return this.write(Readable.from([content]));
  }

  /** Moves a finished resumable upload's part file into place as a blob (md5 computed by reading it back). */
  /**
   * Moves a finished resumable upload's part file into place as a blob. `known` is the md5 computed while
   * the chunks arrived; without it (a chunk was cut off, or the emulator restarted mid-upload) the part
   * file is read back to compute it.
   */
  async adopt(partPath: string, known?: { md5: string; size: number }): Promise<StoredBlob> {
    const blobId = newBlobId();
    // An empty upload never wrote a part file.
    await fs.promises.appendFile(partPath, '');
    let md5: string;
    let size: number;
    if (known && (await fs.promises.stat(partPath)).size === known.size) {
      ({ md5, size } = known);
    } else {
      const hash = createHash('md5');
      size = 0;
      for await (const chunk of fs.createReadStream(partPath) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
      md5 = hash.digest('hex');
    }
    await fsyncFile(partPath);
    await fs.promises.rename(partPath, this.blobPath(blobId));
    return { blobId, size, md5 };
  }

  /** The bytes of a blob, optionally a byte range (inclusive end). */
  read(blobId: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.blobPath(blobId), range ? { start: range.start, end: range.end } : {});
  }

  async readAll(blobId: string, maxBytes: number): Promise<Buffer> {
    const handle = await fs.promises.open(this.blobPath(blobId), 'r');
    try {
      const { size } = await handle.stat();
      if (size > maxBytes) throw new ApiError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async copy(blobId: string): Promise<string> {
    const copyId = newBlobId();
    const temporary = path.join(this.uploadsDir, `${copyId}.tmp`);
    await fs.promises.copyFile(this.blobPath(blobId), temporary);
    await fsyncFile(temporary);
    await fs.promises.rename(temporary, this.blobPath(copyId));
    return copyId;
  }

  /** Removes a blob no file names any more; a crash before this only leaves an orphan on disk. */
  async remove(blobId: string): Promise<void> {
    await fs.promises.rm(this.blobPath(blobId), { force: true });
  }

  // ---- resumable upload part files ----

  partPath(sessionId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`bad session id ${sessionId}`);
    return path.join(this.uploadsDir, `${sessionId}.part`);
  }

  /** How many bytes a session's part file holds (what the server has persisted). */
  async partSize(sessionId: string): Promise<number> {
    try {
      return (await fs.promises.stat(this.partPath(sessionId))).size;
    } catch {
      return 0;
    }
  }

  /**
   * Appends a chunk from `source`, skipping its first `skip` bytes (a resent overlap) and accepting at most
   * `maxBytes`. If the connection drops mid-chunk, what arrived stays (fsynced): the client resumes from the
   * size this store then reports.
   */
  async appendPart(sessionId: string, source: Readable, skip: number, maxBytes: number, hash?: ReturnType<typeof createHash>): Promise<void> {
    const target = this.partPath(sessionId);
    const meter = new MeterTransform(maxBytes, hash, skip);
    try {
      await pipeline(source, meter, fs.createWriteStream(target, { flags: 'a' }));
    } finally {
      await fsyncFile(target).catch(() => undefined);
    }
  }

  /**
   * Startup hygiene: deletes blobs no file names (a crash between writing content and committing its
   * metadata leaves one), temporary files of interrupted writes, and part files of forgotten sessions.
   */
  sweep(referencedBlobs: ReadonlySet<string>, liveSessions: ReadonlySet<string>): number {
    // Synchronous on purpose: it runs at startup, before any request can write a blob it would not know.
    let removed = 0;
    for (const name of fs.readdirSync(this.dir)) {
      if (name === 'uploads' || referencedBlobs.has(name)) continue;
      fs.rmSync(path.join(this.dir, name), { force: true });
      removed++;
    }
    for (const name of fs.readdirSync(this.uploadsDir)) {
      const session = name.endsWith('.part') ? name.slice(0, -'.part'.length) : undefined;
      if (session !== undefined && liveSessions.has(session)) continue;
      fs.rmSync(path.join(this.uploadsDir, name), { force: true });
      removed++;
    }
    return removed;
  }

  async removePart(sessionId: string): Promise<void> {
    await fs.promises.rm(this.partPath(sessionId), { force: true });
  }
}

const temporaryDirs = new Set<string>();

/** Memory mode promises nothing survives the process: its blob folders go when it exits (one listener for all). */
function registerForRemovalAtExit(dir: string): void {
  if (temporaryDirs.size === 0) {
    process.once('exit', () => {
      for (const temporary of temporaryDirs) {
        try {
          fs.rmSync(temporary, { recursive: true, force: true });
        } catch {
          // best effort
        }
      }
    });
  }
  temporaryDirs.add(dir);
}

export function newBlobId(): string {
  return randomBytes(18).toString('base64url');
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Counts bytes (optionally hashing them), drops a leading `skip`, and fails past `maxBytes`. */
class MeterTransform extends Transform {
  bytes = 0;
  private toSkip: number;

  constructor(private readonly maxBytes: number, private readonly hash: ReturnType<typeof createHash> | undefined, skip = 0) {
    super();
    this.toSkip = skip;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let data = chunk;
    if (this.toSkip > 0) {
      const dropped = Math.min(this.toSkip, data.length);
      this.toSkip -= dropped;
      data = data.subarray(dropped);
      if (data.length === 0) { callback(); return; }
    }
    if (this.bytes + data.length > this.maxBytes) {
      callback(new ApiError(400, 'badRequest', `The request body is larger than the ${this.maxBytes} bytes announced`)); return;
    }
    this.bytes += data.length;
    this.hash?.update(data);
    callback(null, data);
  }
}
