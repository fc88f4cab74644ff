/**
 * The emulator's storage: named collections of JSON documents kept in memory, made durable by an
 * append-only journal. A write is recorded by `set`/`delete`; the server awaits `flush()` before it
 * acknowledges a mutating request, so an acknowledged write survives `kill -9` (the journal is
 * fdatasync'ed). Startup loads the last snapshot and replays the journal; a torn last line from a
 * crash mid-append is ignored and cut off before the next append. Compaction streams the snapshot, one
 * document a line, and replaces it atomically (write, fsync, rename); a failed compaction is logged and
 * retried later while the journal keeps every write, so no size below the disk's stops the store.
 */
export interface Collection<T> {
  get(key: string): T | undefined;
  has(key: string): boolean;
  /** Stores (or re-stores after an in-place change) a document; the journal records it as it is now. */
  set(key: string, value: T): void;
  delete(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[string, T]>;
  readonly size: number;
}

export interface Store {
  collection<T>(name: string): Collection<T>;
  /** Resolves once every write made so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
  /** The folder of a durable store (for blobs and the like); undefined in memory mode. */
  readonly dataDir: string | undefined;
}

/** A journal entry: a document set, or deleted. */
export type JournalEntry = { c: string; k: string; v: unknown } | { c: string; k: string; d: 1 };

export class MemoryCollection<T> implements Collection<T> {
  protected readonly documents = new Map<string, T>();

  constructor(private readonly onWrite: (entry: JournalEntry) => void = () => undefined, private readonly name = '') {}

  get(key: string): T | undefined {
    return this.documents.get(key);
  }
  has(key: string): boolean {
    return this.documents.has(key);
  }
  set(key: string, value: T): void {
    this.documents.set(key, value);
    this.onWrite({ c: this.name, k: key, v: value });
  }
  delete(key: string): boolean {
    const existed = this.documents.delete(key);
    if (existed) this.onWrite({ c: this.name, k: key, d: 1 });
    return existed;
  }
  keys(): IterableIterator<string> {
    return this.documents.keys();
  }
  values(): IterableIterator<T> {
    return this.documents.values();
  }
  entries(): IterableIterator<[string, T]> {
    return this.documents.entries();
  }
  get size(): number {
    return this.documents.size;
  }
  /** Loads a document without journaling it (startup replay). */
  restore(key: string, value: T | undefined): void {
    if (value === undefined) this.documents.delete(key);
    else this.documents.set(key, value);
  }
}

export class MemoryStore implements Store {
  private readonly collections = new Map<string, MemoryCollection<unknown>>();
  readonly dataDir = undefined;

  collection<T>(name: string): Collection<T> {
    let found = this.collections.get(name);
    if (!found) {
      found = new MemoryCollection<unknown>(undefined, name);
      this.collections.set(name, found);
    }
    return found as Collection<T>;
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}
