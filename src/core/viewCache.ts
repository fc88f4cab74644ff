/**
 * What each view showed last, per account, as one small JSON file per view in the extension's global storage, so a
 * view can show its first rows at once after a window reload (marked as refreshing) while the network answers.
 * No vscode: the feature's tree model reads and writes it; the extension clears it at sign-out and account change.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { markStartup } from './startupMarks';

/** A view's file is never larger than this; a bigger snapshot is not written (the view just starts empty). */
export const VIEW_CACHE_MAX_BYTES = 256 * 1024;
const FORMAT = 1;

interface CacheFile {
  readonly format: number;
  readonly account: string;
  readonly data: unknown;
}

export interface ViewCacheOptions {
  /** The folder of the cache files, e.g. `<globalStorage>/view-cache`. */
  readonly directory: string;
  /** The signed-in account (undefined when signed out): a file of another account is never shown. */
  readonly account: () => Promise<string | undefined>;
  readonly maxBytes?: number;
  readonly log?: (message: string) => void;
}

/** One view's slot in the cache, as its tree model sees it. */
export interface ViewSnapshotStore<T> {
  read(): Promise<T | undefined>;
  write(value: T): Promise<void>;
  /** The slot's name (the startup marks of the network benchmark). */
  readonly name?: string;
}

export class ViewCache {
  private readonly maxBytes: number;
  /** Writes per view run one after another, and a clear waits for them (no file reappears after sign-out). */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ViewCacheOptions) {
    this.maxBytes = options.maxBytes ?? VIEW_CACHE_MAX_BYTES;
  }

  /** The slot of one view; `isValid` checks the shape of what is read back (a file from an older Desk, a torn write). */
  view<T>(name: string, isValid: (data: unknown) => data is T): ViewSnapshotStore<T> {
    return { name, read: () => this.read(name, isValid), write: (value) => this.write(name, value) };
  }

  /** The last snapshot of `name` for the signed-in account; a corrupted, foreign or unreadable file is removed. */
  async read<T>(name: string, isValid: (data: unknown) => data is T): Promise<T | undefined> {
    const started = Date.now();
    const account = await this.options.account();
    const accountMs = Date.now() - started;
    if (account === undefined) return undefined;
    const file = this.fileOf(name);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    let parsed: Partial<CacheFile> | undefined;
    try {
      parsed = text.length <= this.maxBytes ? (JSON.parse(text) as Partial<CacheFile>) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed?.format === FORMAT && parsed.account === account && isValid(parsed.data)) {
      // Wall-clock times: with "Desk activated" they tell where a reload's time goes before the first rows.
      this.options.log?.(`View cache ${name}: read at ${new Date().toISOString()} in ${Date.now() - started} ms (the account: ${accountMs} ms)`);
      return parsed.data;
    }
    this.options.log?.(`View cache ${name}: ignored and removed (${parsed?.account !== undefined && parsed.account !== account ? 'another account' : 'unreadable'})`);
    await fs.rm(file, { force: true }).catch(() => undefined);
    return undefined;
  }

  /** Replaces the snapshot of `name` (skipped when signed out or larger than the bound). */
  write(name: string, data: unknown): Promise<void> {
    const task = this.pending.then(async () => {
      const account = await this.options.account();
      if (account === undefined) return;
      const text = JSON.stringify({ format: FORMAT, account, data } satisfies CacheFile);
      const file = this.fileOf(name);
      if (Buffer.byteLength(text) > this.maxBytes) {
        await fs.rm(file, { force: true });
        return;
      }
      await fs.mkdir(this.options.directory, { recursive: true });
      // Write then rename: a reload in the middle leaves the old file or the new one, never half of one.
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, text);
      await fs.rename(temporary, file);
    });
    this.pending = task.catch((error: unknown) => this.options.log?.(`View cache ${name}: not written (${String(error)})`));
    return this.pending.then(() => undefined);
  }

  /** Removes every view's file (sign-out, another account). */
  clear(): Promise<void> {
    const task = this.pending.then(() => fs.rm(this.options.directory, { recursive: true, force: true }));
    this.pending = task.catch(() => undefined);
    return this.pending.then(() => undefined);
  }

  private fileOf(name: string): string {
    return path.join(this.options.directory, `${name.replace(/[^\w.-]/g, '_')}.json`);
  }
}

/**
 * Empties the cache when the account changes or the user signs out: call `check` after every change of sessions.
 * The first check only learns the account (a reload keeps the cache of the account still signed in).
 */
export function clearOnAccountChange(cache: ViewCache, account: () => Promise<string | undefined>): { check(): Promise<void> } {
  let known = false;
  let last: string | undefined;
  return {
    async check() {
      const current = await account();
      if (known && current !== last) await cache.clear();
      known = true;
      last = current;
    },
  };
}

export interface FirstRowsOptions<T> {
  /**
   * Whether a snapshot gives the view any top-level row (default: always). One that gives none is not shown: an
   * empty tree is drawn as the view's welcome content, which a user reloading a signed-in window must not see.
   */
  readonly showsRows?: (snapshot: T) => boolean;
}

/**
 * A tree model's use of its cache slot: at its first start the cached snapshot stands in while the fresh data loads
 * (`refreshing` meanwhile), then `onRefreshed` asks the view to redraw with the fresh rows (same ids). The one
 * implementation for every view (Tasks, My Drive, the Agenda, Bookshelves), so they behave alike after a reload.
 */
export class FirstRowsFromCache<T> {
  private consulted = false;
  private cached: T | undefined;

  constructor(
    private readonly store: ViewSnapshotStore<T> | undefined,
    private readonly onRefreshed: () => void,
    private readonly options: FirstRowsOptions<T> = {},
  ) {}

  /** The rows shown are the cached ones of the last session, waiting for the first answer. */
  get refreshing(): boolean {
    return this.cached !== undefined;
  }

  /** The snapshot while refreshing, else undefined. */
  get snapshot(): T | undefined {
    return this.cached;
  }

  /** Once, at the first start: the cached snapshot (or undefined), and `fresh` starts loading behind it. */
  async firstStart(fresh: () => Promise<unknown>): Promise<T | undefined> {
    if (this.consulted || !this.store) return undefined;
    this.consulted = true;
    const snapshot = await this.store.read().catch(() => undefined);
    if (snapshot === undefined || this.options.showsRows?.(snapshot) === false) return undefined;
    this.cached = snapshot;
    const done = (): void => {
      if (this.cached !== snapshot) return;
      this.cached = undefined;
      this.onRefreshed();
    };
    fresh().then(done, done);
    markStartup(`rows:${this.store.name ?? 'view'}`);
    return snapshot;
  }

  /** Keeps what the view shows now for the next start. */
  save(value: T): void {
    void this.store?.write(value);
  }

  /**
   * Sign-in, sign-out, backend change, Refresh: no more cached rows in this session, even if the view was never
   * shown yet. Those ask for the account's current rows; a snapshot read after them could be the previous
   * account's (its file is removed asynchronously) or exactly what Refresh was meant to replace.
   */
  reset(): void {
    this.consulted = true;
    this.cached = undefined;
  }
}
