import * as fs from 'node:fs';
import * as path from 'node:path';
import { Collection, JournalEntry, MemoryCollection, Store } from './store';

const SNAPSHOT = 'snapshot.json';
const JOURNAL = 'journal.log';
/** Compact once the journal outgrows this, so startup replay stays quick. */
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

type Snapshot = Record<string, Record<string, unknown>>;

/** A durable store in a data directory (see store.ts for the guarantees). */
export class FileStore implements Store {
  private readonly collections = new Map<string, MemoryCollection<unknown>>();
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private journalBytes = 0;
  private journal: fs.promises.FileHandle | undefined;

  private constructor(readonly dataDir: string) {}

  static async open(dataDir: string): Promise<FileStore> {
    await fs.promises.mkdir(dataDir, { recursive: true });
    const store = new FileStore(dataDir);
    await store.load();
    store.journal = await fs.promises.open(path.join(dataDir, JOURNAL), 'a');
    return store;
  }

  collection<T>(name: string): Collection<T> {
    return this.collectionFor(name) as Collection<T>;
  }

  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writePending());
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.compact();
    await this.journal?.close();
    this.journal = undefined;
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
    this.pending.push(JSON.stringify(entry));
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0 || !this.journal) return;
    const text = this.pending.join('\n') + '\n';
    this.pending = [];
    await this.journal.appendFile(text, 'utf8');
    await this.journal.datasync();
    this.journalBytes += Buffer.byteLength(text);
    if (this.journalBytes > COMPACT_AFTER_BYTES) await this.compact();
  }

  private async load(): Promise<void> {
    const snapshotPath = path.join(this.dataDir, SNAPSHOT);
    if (fs.existsSync(snapshotPath)) {
      const snapshot = JSON.parse(await fs.promises.readFile(snapshotPath, 'utf8')) as Snapshot;
      for (const [name, documents] of Object.entries(snapshot)) {
        const collection = this.collectionFor(name);
        for (const [key, value] of Object.entries(documents)) collection.restore(key, value);
      }
    }
    const journalPath = path.join(this.dataDir, JOURNAL);
    if (!fs.existsSync(journalPath)) return;
    const text = await fs.promises.readFile(journalPath, 'utf8');
    this.journalBytes = Buffer.byteLength(text);
    for (const line of text.split('\n')) {
      if (!line) continue;
      let entry: JournalEntry;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch {
        // A torn write at the tail from a crash: it was never acknowledged.
        continue;
      }
      this.collectionFor(entry.c).restore(entry.k, 'd' in entry ? undefined : entry.v);
    }
  }

  /** Writes every collection to a fresh snapshot atomically, then empties the journal. */
  private async compact(): Promise<void> {
    const snapshot: Snapshot = {};
    for (const [name, collection] of this.collections) {
      const documents: Record<string, unknown> = {};
      for (const [key, value] of collection.entries()) documents[key] = value;
      snapshot[name] = documents;
    }
    const snapshotPath = path.join(this.dataDir, SNAPSHOT);
    const temporary = `${snapshotPath}.tmp`;
    const handle = await fs.promises.open(temporary, 'w');
    try {
      await handle.writeFile(JSON.stringify(snapshot), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, snapshotPath);
    // Replaying the old journal over the new snapshot is harmless (entries are idempotent),
    // so a crash between the rename and the truncation loses nothing.
    if (this.journal) await this.journal.truncate(0);
    else await fs.promises.writeFile(path.join(this.dataDir, JOURNAL), '');
    this.journalBytes = 0;
  }
}
