/**
 * What each view showed last, per account, as one small JSON file per view in the extension's global storage, so a
 * view can show its first rows at once after a window reload (marked as refreshing) while the network answers.
 * No vscode: the feature's tree model reads and writes it; the extension clears it at sign-out and account change.
 * The account whose rows to show is the one remembered at the last check (synchronous), so the rows are drawn before
 * the account check (the secret storage, slow while the window starts) answers; that answer confirms or drops them.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { markStartup } from '../startup/startupMarks';

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
  /** The account the last check answered (kept across reloads, e.g. in a Memento), read synchronously. */
  readonly remembered?: () => string | undefined;
  /** Keeps what a check answered, for the next start's `remembered`. */
  readonly remember?: (account: string | undefined) => void;
  readonly maxBytes?: number;
  readonly log?: (message: string) => void;
}

/** A snapshot shown before the account check answered: `confirmed` says whether it is still the signed-in account's. */
export interface EarlySnapshot<T> {
  readonly data: T;
  readonly confirmed: Promise<boolean>;
}

/** One view's slot in the cache, as its tree model sees it. */
export interface ViewSnapshotStore<T> {
  /** The snapshot of the signed-in account, once the account check confirmed it. */
  read(): Promise<T | undefined>;
  /** The snapshot of the remembered account at once, confirmed later (without one: as `read`, already confirmed). */
  readEarly?(): Promise<EarlySnapshot<T> | undefined>;
  write(value: T): Promise<void>;
  /** The slot's name (the startup marks of the network benchmark). */
  readonly name?: string;
}

/** A cache file as read from disk, before its account and shape are checked. */
type RawFile = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'file'; account: string; data: unknown; readMs: number };

export class ViewCache {
  private readonly maxBytes: number;
  /** Writes per view run one after another, and a clear waits for them (no file reappears after sign-out). */
  private pending: Promise<unknown> = Promise.resolve();
  /** Files read ahead at activation (warm), each for its slot's first read. */
  private readonly warmed = new Map<string, Promise<RawFile>>();
  /** The account check in flight, shared by concurrent reads. */
  private accountCheck: Promise<string | undefined> | undefined;

  constructor(private readonly options: ViewCacheOptions) {
    this.maxBytes = options.maxBytes ?? VIEW_CACHE_MAX_BYTES;
  }

  /** The slot of one view; `isValid` checks the shape of what is read back (a file from an older Desk, a torn write). */
  view<T>(name: string, isValid: (data: unknown) => data is T): ViewSnapshotStore<T> {
    return { name, read: () => this.read(name, isValid), readEarly: () => this.readEarly(name, isValid), write: (value) => this.write(name, value) };
  }

  /**
   * Starts reading the files of `names` and the account check now (at activation), so a view that loads a moment
   * later finds them done. Each warmed file serves the first read of its slot only.
   */
  warm(names: readonly string[]): void {
    for (const name of names) if (!this.warmed.has(name)) this.warmed.set(name, this.readFile(name));
    void this.checkAccount();
  }

  /** The last snapshot of `name` for the signed-in account; a corrupted, foreign or unreadable file is removed. */
  async read<T>(name: string, isValid: (data: unknown) => data is T): Promise<T | undefined> {
    const early = await this.readEarly(name, isValid);
    return early && (await early.confirmed) ? early.data : undefined;
  }

  /**
   * The last snapshot of `name`: at once when it is the remembered account's, then confirmed (or not) by the account
   * check; without a remembered account, after the check. A corrupted or unreadable file, or one of an account
   * other than the signed-in one, is removed.
   */
  async readEarly<T>(name: string, isValid: (data: unknown) => data is T): Promise<EarlySnapshot<T> | undefined> {
    const started = Date.now();
    const check = this.checkAccount();
    const remembered = this.options.remembered?.();
    const raw = await (this.warmed.get(name) ?? this.readFile(name));
    this.warmed.delete(name);
    if (raw.kind === 'missing') return undefined;
    if (raw.kind === 'unreadable' || !isValid(raw.data)) return this.drop(name, 'unreadable');
    const data = raw.data;
    const confirmed = check.then(async (account) => {
      if (account === raw.account) return true;
      // Signed out: the rows are not shown, and the sign-out's clear removes the file.
      if (account !== undefined) await this.drop(name, 'another account');
      return false;
    });
    if (remembered !== undefined && remembered === raw.account) {
      this.options.log?.(`View cache ${name}: read at ${new Date().toISOString()} in ${Date.now() - started} ms (file ${raw.readMs} ms; the account remembered, confirmed later)`);
      return { data, confirmed };
    }
    if (!(await confirmed)) return undefined;
    // Wall-clock times: with "Desk activated" they tell where a reload's time goes before the first rows.
    this.options.log?.(`View cache ${name}: read at ${new Date().toISOString()} in ${Date.now() - started} ms (waited for the account check)`);
    return { data, confirmed: Promise.resolve(true) };
  }

  /** The account the last check answered (this backend's), known at once: the one whose rows a start shows first. */
  rememberedAccount(): string | undefined {
    return this.options.remembered?.();
  }

  /**
   * The signed-in account (concurrent asks share one check), remembered for the next start's first rows.
   * The extension's account watch calls it too, so sign-out and account change update what is remembered.
   */
  currentAccount(): Promise<string | undefined> {
    return this.checkAccount();
  }

  /** Replaces the snapshot of `name` (skipped when signed out or larger than the bound). */
  write(name: string, data: unknown): Promise<void> {
    const task = this.pending.then(async () => {
      const account = await this.checkAccount();
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
    this.warmed.clear();
    const task = this.pending.then(() => fs.rm(this.options.directory, { recursive: true, force: true }));
    this.pending = task.catch(() => undefined);
    return this.pending.then(() => undefined);
  }

  private checkAccount(): Promise<string | undefined> {
    this.accountCheck ??= this.options.account().catch(() => undefined).then((account) => {
      this.accountCheck = undefined;
      if (this.options.remembered?.() !== account) this.options.remember?.(account);
      return account;
    });
    return this.accountCheck;
  }

  private async readFile(name: string): Promise<RawFile> {
    const started = Date.now();
    let text: string;
    try {
      text = await fs.readFile(this.fileOf(name), 'utf8');
    } catch {
      return { kind: 'missing' };
    }
    try {
      const parsed = text.length <= this.maxBytes ? (JSON.parse(text) as Partial<CacheFile>) : undefined;
      if (parsed?.format === FORMAT && typeof parsed.account === 'string') return { kind: 'file', account: parsed.account, data: parsed.data, readMs: Date.now() - started };
    } catch {
      // a torn or hand-edited file: unreadable
    }
    return { kind: 'unreadable' };
  }

  private async drop(name: string, why: string): Promise<undefined> {
    this.options.log?.(`View cache ${name}: ignored and removed (${why})`);
    await fs.rm(this.fileOf(name), { force: true }).catch(() => undefined);
    return undefined;
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
  /**
   * The snapshot shown was not the signed-in account's after all (another account, or none): the whole view is drawn
   * again (signed out: its welcome content). Default: `onRefreshed`, for views whose redraw is the whole tree.
   */
  readonly onDropped?: () => void;
}

/**
 * A tree model's use of its cache slot: at its first start the cached snapshot stands in while the fresh data loads
 * (`refreshing` meanwhile), then `onRefreshed` asks the view to redraw with the fresh rows (same ids). The one
 * implementation for every view (Tasks, My Drive, the Agenda, Bookshelves), so they behave alike after a reload.
 */
export class FirstRowsFromCache<T> {
  private consulted = false;
  private cached: T | undefined;
  /** The one read of the slot, shared by `startsFromCache` and `firstStart`. */
  private reading: Promise<EarlySnapshot<T> | undefined> | undefined;

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

  /**
   * Whether the first start will show cached rows (or shows them now). A view asks this before its signed-in check:
   * the remembered account's rows need no look at the secret storage, which is slow while the window starts.
   */
  async startsFromCache(): Promise<boolean> {
    if (this.consulted) return this.cached !== undefined;
    const early = await this.read();
    return this.consulted ? this.cached !== undefined : early !== undefined;
  }

  /**
   * Once, at the first start: the cached snapshot (or undefined), and `fresh` starts loading behind it. The rows
   * go (a redraw) when the fresh ones are in, or as soon as the account check says they are not this account's.
   */
  async firstStart(fresh: () => Promise<unknown>): Promise<T | undefined> {
    if (this.consulted || !this.store) return undefined;
    const early = await this.read();
    if (this.consulted) return undefined;
    this.consulted = true;
    if (early === undefined) return undefined;
    const snapshot = early.data;
    this.cached = snapshot;
    const done = (): void => {
      if (this.cached !== snapshot) return;
      this.cached = undefined;
      this.onRefreshed();
    };
    fresh().then(done, done);
    const dropped = (): void => {
      if (this.cached !== snapshot) return;
      this.cached = undefined;
      (this.options.onDropped ?? this.onRefreshed)();
    };
    early.confirmed.then((confirmed) => (confirmed ? undefined : dropped()), dropped);
    markStartup(`rows:${this.store.name ?? 'view'}`);
    return snapshot;
  }

  /**
   * Reads (and checks) the slot now, when the feature loads: VS Code asks a view for its rows a window round trip
   * after registering it, and the answer then finds the snapshot ready (read once; shown only at the first start).
   */
  prefetch(): void {
    if (!this.consulted) void this.read();
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

  /** The slot's snapshot if it has rows to show (read once). */
  private read(): Promise<EarlySnapshot<T> | undefined> {
    const store = this.store;
    if (!store) return Promise.resolve(undefined);
    this.reading ??= (async () => {
      const early = store.readEarly ? await store.readEarly() : await store.read().then((data) => (data === undefined ? undefined : { data, confirmed: Promise.resolve(true) }));
      return early === undefined || this.options.showsRows?.(early.data) === false ? undefined : early;
    })().catch(() => undefined);
    return this.reading;
  }
}
