/** A durable store in a data directory: an fdatasync'ed journal plus a streamed, line-per-document snapshot (see store.ts). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { stringifyJson } from '../core/json';
import { logLine } from '../core/log';
import { Collection, JournalEntry, MemoryCollection, Store } from '../store/store';

/** The snapshot: a header line, one JournalEntry line per document, an end line with the count. */
const SNAPSHOT = 'snapshot.jsonl';
/** The first format: one JSON object of every collection. Still read (migration); never written. */
const LEGACY_SNAPSHOT = 'snapshot.json';
const JOURNAL = 'journal.log';
/**
 * The journal a running compaction replaces: renamed aside when the compaction starts, so that writes go on into a
 * fresh journal.log while the snapshot is written, and removed once the snapshot is in place. Replayed before
 * journal.log at a start (entries are whole documents in order, so replaying it over a newer snapshot is harmless).
 */
const ROTATED_JOURNAL = 'journal.compacting.log';
const SNAPSHOT_FORMAT = 'desk-emulator-snapshot';
const SNAPSHOT_VERSION = 2;
/** Compact once the journal outgrows this, so startup replay stays quick. */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;
/**
 * The longest string the store builds at once. V8 refuses strings past about 512 MB (2^29 - 24 chars);
 * staying far below it keeps memory flat, and no total size depends on it: chunks are streamed.
 */
const MAX_STRING_CHARS = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface FileStoreOptions {
  /** Longest string built at once (journal batch, snapshot chunk); tests make it small to prove nothing depends on it. */
  maxStringChars?: number;
  /** Journal size that triggers a compaction (tests make it small). */
  compactAfterBytes?: number;
  /** Where store problems are reported (compaction failures, skipped journal lines); defaults to the emulator log. */
  log?: (message: string) => void;
  /** Awaited by a compaction once its snapshot is written, before it takes the old one's place (tests hold it there). */
  beforeSnapshotRename?: () => Promise<void>;
}

interface SnapshotHeader {
  format: string;
  version: number;
}

/** Thrown where V8 would refuse a string: never reached in practice, but it keeps the bound honest in tests. */
class StringTooLong extends Error {}

/** A durable store in a data directory (see store.ts for the guarantees). */
export class FileStore implements Store {
  private readonly collections = new Map<string, MemoryCollection<unknown>>();
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private journalBytes = 0;
  /** Journal size at which the next compaction is tried; pushed further out after a failure. */
  private compactAt: number;
  private journal: fs.promises.FileHandle | undefined;
  /** The compaction under way, which writes do not wait for. */
  private compacting: Promise<boolean> | undefined;
  private readonly maxStringChars: number;
  private readonly compactAfterBytes: number;
  private readonly log: (message: string) => void;
  private readonly beforeSnapshotRename: (() => Promise<void>) | undefined;

  private constructor(readonly dataDir: string, options: FileStoreOptions) {
    this.maxStringChars = options.maxStringChars ?? MAX_STRING_CHARS;
    this.compactAfterBytes = options.compactAfterBytes ?? COMPACT_AFTER_BYTES;
    this.compactAt = this.compactAfterBytes;
    this.log = options.log ?? ((message) => logLine(`[emulator] store: ${message}`));
    this.beforeSnapshotRename = options.beforeSnapshotRename;
  }

  static async open(dataDir: string, options: FileStoreOptions = {}): Promise<FileStore> {
    await fs.promises.mkdir(dataDir, { recursive: true });
    const store = new FileStore(dataDir, options);
    await store.load();
    store.journal = await fs.promises.open(path.join(dataDir, JOURNAL), 'a');
    return store;
  }

  collection<T>(name: string): Collection<T> {
    return this.collectionFor(name) as Collection<T>;
  }

  flush(): Promise<void> {
    // Each flush answers for itself: one failed append (a full disk for a moment) must not reject every later flush.
    const result = this.writing.catch(() => undefined).then(() => this.writePending());
    this.writing = result;
    return result;
  }

  /** Flushes, compacts (unless `compact: false`, which leaves the files as a crash right after a flush would) and closes. */
  async close(options: { compact?: boolean } = {}): Promise<void> {
    await this.flush();
    await this.compacting;
    // Everything is in the journal by now: a compaction that fails here only costs replay time at the next start.
    if (options.compact !== false) await this.compactNow();
    await this.journal?.close();
    this.journal = undefined;
  }

  /** Rewrites the snapshot now (tests, tools); like the automatic one, a failure is logged and leaves the journal in charge. */
  async compactNow(): Promise<boolean> {
    await this.compacting;
    const started = this.writing.catch(() => undefined).then(() => this.startCompaction());
    this.writing = started.then(() => undefined, () => undefined);
    return (await started).done;
  }

  private collectionFor(name: string): MemoryCollection<unknown> {
    let found = this.collections.get(name);
    if (!found) {
      found = new MemoryCollection<unknown>((entry) => this.record(entry), name);
      this.collections.set(name, found);
    }
    return found;
  }

  private record(entry: JournalEntry): void {
    this.pending.push(stringifyJson(entry));
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0 || !this.journal) return;
    const lines = this.pending;
    this.pending = [];
    const startBytes = this.journalBytes;
    try {
      // Several appends of bounded chunks instead of one joined string: a huge batch cannot hit V8's string limit.
      for (const chunk of chunkLines(lines, this.maxStringChars)) {
        await this.journal.appendFile(chunk, 'utf8');
        this.journalBytes += Buffer.byteLength(chunk);
      }
      await this.journal.datasync();
    } catch (error) {
      // Cut back what this batch may have half-written (a later append must not continue a torn line) and keep
      // its lines for the next flush, so the journal still ends on a complete record and nothing is dropped.
      await this.journal.truncate(startBytes).catch(() => undefined);
      this.journalBytes = startBytes;
      this.pending = [...lines, ...this.pending];
      throw error;
    }
    // Only the journal's rotation happens here, between appends; the snapshot is written beside the next writes.
    if (this.journalBytes > this.compactAt && !this.compacting) await this.startCompaction();
  }

  /**
   * Sets the journal aside (on the write chain, between appends) and starts the snapshot, which writes do not wait
   * for; `done` is its outcome.
   */
  private async startCompaction(): Promise<{ done: Promise<boolean> }> {
    if (this.compacting) return { done: this.compacting };
    try {
      await this.rotateJournal();
    } catch (error) {
      return { done: this.compactionFailed(error) };
    }
    const compaction = this.compactSafely().finally(() => {
      if (this.compacting === compaction) this.compacting = undefined;
    });
    this.compacting = compaction;
    return { done: compaction };
  }

  /**
   * Renames journal.log aside and opens a fresh one. When an earlier compaction failed after its rotation, the
   * set-aside journal is still needed and stays: journal.log then keeps everything since, and is not rotated.
   */
  private async rotateJournal(): Promise<void> {
    const rotatedPath = path.join(this.dataDir, ROTATED_JOURNAL);
    if (fs.existsSync(rotatedPath) || !this.journal) return;
    await this.journal.close();
    this.journal = undefined;
    try {
      await fs.promises.rename(path.join(this.dataDir, JOURNAL), rotatedPath);
      await syncDirectory(this.dataDir);
    } finally {
      this.journal = await fs.promises.open(path.join(this.dataDir, JOURNAL), 'a');
    }
    this.journalBytes = 0;
  }

  /** Compacts, and never lets a failure reach the write path: the journals still hold every write. */
  private async compactSafely(): Promise<boolean> {
    try {
      await this.compact();
      this.compactAt = this.compactAfterBytes;
      return true;
    } catch (error) {
      return this.compactionFailed(error);
    }
  }

  private async compactionFailed(error: unknown): Promise<boolean> {
    // Try again only after the journal has grown by another threshold, so a persistent failure (full disk,
    // unwritable folder) does not turn every write into a doomed full snapshot.
    this.compactAt = this.journalBytes + this.compactAfterBytes;
    this.log(`compaction failed; writes continue in the journal and compaction is retried later: ${describe(error)}`);
    await fs.promises.rm(path.join(this.dataDir, `${SNAPSHOT}.tmp`), { force: true }).catch(() => undefined);
    return false;
  }

  private async load(): Promise<void> {
    const snapshotPath = path.join(this.dataDir, SNAPSHOT);
    const legacyPath = path.join(this.dataDir, LEGACY_SNAPSHOT);
    // The line format wins when both exist: it is only ever written after the legacy file's content was loaded.
    if (fs.existsSync(snapshotPath)) await this.loadSnapshot(snapshotPath);
    else if (fs.existsSync(legacyPath)) await this.loadLegacySnapshot(legacyPath);
    // A compaction that did not finish left its set-aside journal: it holds writes older than journal.log's.
    const rotatedPath = path.join(this.dataDir, ROTATED_JOURNAL);
    if (fs.existsSync(rotatedPath)) await this.replayJournal(rotatedPath);
    const rotatedBytes = this.journalBytes;
    await this.replayJournal(path.join(this.dataDir, JOURNAL));
    this.journalBytes += rotatedBytes;
  }

  private async loadSnapshot(snapshotPath: string): Promise<void> {
    const lines = createInterface({ input: fs.createReadStream(snapshotPath, { encoding: 'utf8' }), crlfDelay: Infinity });
    let header: SnapshotHeader | undefined;
    let count = 0;
    let ended = false;
    for await (const line of lines) {
      if (!line) continue;
      const parsed = JSON.parse(line) as Partial<SnapshotHeader> & Partial<{ end: number }> & Partial<JournalEntry>;
      if (!header) {
        if (parsed.format !== SNAPSHOT_FORMAT || parsed.version !== SNAPSHOT_VERSION) throw new Error(`${snapshotPath} is not a Desk emulator snapshot (version ${SNAPSHOT_VERSION})`);
        header = { format: parsed.format, version: parsed.version };
        continue;
      }
      if (typeof parsed.end === 'number') {
        if (parsed.end !== count) throw new Error(`${snapshotPath} is damaged: ${count} documents, expected ${parsed.end}`);
        ended = true;
        continue;
      }
      const entry = parsed as JournalEntry;
      this.collectionFor(entry.c).restore(entry.k, 'd' in entry ? undefined : entry.v);
      count++;
    }
    // The snapshot is renamed into place only once complete, so a missing end line means damage, not a crash.
    if (!ended) throw new Error(`${snapshotPath} is damaged: it has no end line`);
  }

  /** The pre-stream format: a single JSON object. It was written as one string, so it fits in one. */
  private async loadLegacySnapshot(legacyPath: string): Promise<void> {
    const snapshot = JSON.parse(await fs.promises.readFile(legacyPath, 'utf8')) as Record<string, Record<string, unknown>>;
    for (const [name, documents] of Object.entries(snapshot)) {
      const collection = this.collectionFor(name);
      for (const [key, value] of Object.entries(documents)) collection.restore(key, value);
    }
  }

  /**
   * Replays the journal line by line (it may be larger than any string) and cuts off a torn tail: an
   * unterminated last line was never acknowledged, and the next append must start on a fresh line, or the
   * next acknowledged write would be glued to the torn one and lost at the following start.
   */
  private async replayJournal(journalPath: string): Promise<void> {
    if (!fs.existsSync(journalPath)) return;
    let complete = 0; // bytes up to and including the last newline
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let skipped = 0;
    const apply = (bytes: Buffer): void => {
      if (bytes.length === 0) return;
      let entry: JournalEntry;
      try {
        entry = JSON.parse(bytes.toString('utf8')) as JournalEntry;
      } catch {
        skipped++;
        return;
      }
      this.collectionFor(entry.c).restore(entry.k, 'd' in entry ? undefined : entry.v);
    };
    for await (const chunk of fs.createReadStream(journalPath) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, index);
        apply(carryBytes > 0 ? Buffer.concat([...carry, piece]) : piece);
        complete += carryBytes + piece.length + 1;
        carry = [];
        carryBytes = 0;
        start = index + 1;
      }
      if (start < chunk.length) {
        carry.push(chunk.subarray(start));
        carryBytes += chunk.length - start;
      }
    }
    if (skipped > 0) this.log(`skipped ${skipped} unreadable journal line(s) in ${journalPath}`);
    this.journalBytes = complete;
    if (carryBytes > 0) {
      // Truncate and fsync before anything is appended, so the cut itself is durable.
      const handle = await fs.promises.open(journalPath, 'r+');
      try {
        await handle.truncate(complete);
        await handle.sync();
      } finally {
        await handle.close();
      }
      this.log(`cut a torn journal tail of ${carryBytes} byte(s) (an unacknowledged write from a crash)`);
    }
  }

  /** Streams every collection to a fresh snapshot (write, fsync, rename), then empties the journal. */
  private async compact(): Promise<void> {
    const snapshotPath = path.join(this.dataDir, SNAPSHOT);
    const temporary = `${snapshotPath}.tmp`;
    // A stream of its own (not FileHandle.createWriteStream, whose handle then never closes once the stream
    // ended with autoClose off); fsync through a fresh descriptor afterwards, which syncs the same file.
    const stream = fs.createWriteStream(temporary, { flags: 'w', encoding: 'utf8' });
    try {
      await writeSnapshot(stream, this.collections, this.maxStringChars);
      stream.end();
      await finished(stream);
    } catch (error) {
      stream.destroy();
      throw error;
    }
    const handle = await fs.promises.open(temporary, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.beforeSnapshotRename?.();
    await fs.promises.rename(temporary, snapshotPath);
    await syncDirectory(this.dataDir);
    // The legacy file is superseded only now that the new snapshot is durably in place.
    await fs.promises.rm(path.join(this.dataDir, LEGACY_SNAPSHOT), { force: true });
    // Replaying the set-aside journal over the new snapshot is harmless (entries are whole documents, replayed in
    // order), so a crash between the rename and the removal loses nothing. journal.log holds every write since the
    // rotation (or, when this compaction could not rotate, since the last one) and stays.
    await fs.promises.rm(path.join(this.dataDir, ROTATED_JOURNAL), { force: true });
    await syncDirectory(this.dataDir);
  }
}

/**
 * Writes the snapshot lines with backpressure. Documents written later may change while this awaits: that
 * is safe because every such change is also in `pending`, which reaches the journal after the truncation.
 */
async function writeSnapshot(stream: fs.WriteStream, collections: Map<string, MemoryCollection<unknown>>, maxChars: number): Promise<void> {
  const failed = new Promise<never>((_resolve, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  let buffered: string[] = [];
  let bufferedChars = 0;
  const drainBuffer = async (): Promise<void> => {
    if (buffered.length === 0) return;
    const text = buffered.join('');
    buffered = [];
    bufferedChars = 0;
    if (!stream.write(text)) await Promise.race([new Promise<void>((resolve) => stream.once('drain', () => resolve())), failed]);
  };
  const push = async (line: string): Promise<void> => {
    const withNewline = `${line}\n`;
    if (withNewline.length > maxChars) throw new StringTooLong(`one document is longer than ${maxChars} characters`);
    if (bufferedChars + withNewline.length > maxChars) await drainBuffer();
    buffered.push(withNewline);
    bufferedChars += withNewline.length;
  };
  await push(JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION }));
  let count = 0;
  for (const [name, collection] of collections) {
    for (const [key, value] of collection.entries()) {
      await push(stringifyJson({ c: name, k: key, v: value }));
      count++;
    }
  }
  await push(JSON.stringify({ end: count }));
  await drainBuffer();
}

/** Journal lines joined into strings of at most `maxChars` (a single longer line stands alone). */
function* chunkLines(lines: string[], maxChars: number): Generator<string> {
  let chunk: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (chars > 0 && chars + line.length + 1 > maxChars) {
      yield chunk.join('');
      chunk = [];
      chars = 0;
    }
    chunk.push(`${line}\n`);
    chars += line.length + 1;
  }
  if (chunk.length > 0) yield chunk.join('');
}

/** Makes a rename durable (POSIX); some platforms cannot open a directory, and there is nothing to do then. */
async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(directory, 'r');
    await handle.sync();
  } catch {
    // Windows: directories cannot be fsync'ed; the rename is as durable as the platform makes it.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
