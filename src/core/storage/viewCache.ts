/**
 * What each view showed last, per account, as one small JSON file per view and account in the extension's global
 * storage (`view-cache/<account>/<view>.json`), so a view can show its first rows at once after a window reload
 * (marked as refreshing) while the network answers. Every account signed in has its own files: with two accounts,
 * each account's tree shows its own first rows; a file is shown only while its account is signed in.
 * No vscode: the feature's tree model reads and writes its slot (the feature's tree/snapshot.ts names it); the
 * extension starts the cache (`startViewCache`), which reads ahead and clears an account's files at its sign-out.
 * The accounts whose rows to show are those remembered at the last check (synchronous), so the rows are drawn before
 * the account check (the secret storage, slow while the window starts) answers; that answer confirms or drops them.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { updateDurably, type WritableMemento } from './durableMemento';
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
  /**
   * The signed-in accounts (none when signed out), the one the views show without account roots first: a file of an
   * account not signed in is never shown.
   */
  readonly accounts: () => Promise<readonly string[]>;
  /** The accounts the last check answered (kept across reloads, e.g. in a Memento), read synchronously. */
  readonly remembered?: () => readonly string[] | undefined;
  /** Keeps what a check answered, for the next start's `remembered`. */
  readonly remember?: (accounts: readonly string[]) => void;
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
  /** The snapshot of the slot's account, once the account check confirmed it. */
  read(): Promise<T | undefined>;
  /** The snapshot of the remembered account at once, confirmed later (without one: as `read`, already confirmed). */
  readEarly?(): Promise<EarlySnapshot<T> | undefined>;
  write(value: T): Promise<void>;
  /** The slot's name (the startup marks of the network benchmark). */
  readonly name?: string;
}

/** A view's slot: its name, and the check of what is read back (a file from an older Desk, a torn write). */
export interface ViewCacheSlot<T> {
  readonly name: string;
  readonly isValid: (data: unknown) => data is T;
}

/** A cache file as read from disk, before its account and shape are checked. */
type RawFile = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'file'; account: string; data: unknown; readMs: number };

/**
 * Whose files a slot reads and writes: one account (a tree under that account's root), or the first account signed in
 * (the tree a view shows alone, whose account changes with sign-in and sign-out).
 */
type Owner = { readonly account: string } | 'first';

export class ViewCache {
  private readonly maxBytes: number;
  /** Writes run one after another, and a clear waits for them (no file reappears after sign-out). */
  private pending: Promise<unknown> = Promise.resolve();
  /** Each remembered account's folder listed and its files read ahead at activation (warm), each for its slot's first read. */
  private readonly warmedListings = new Map<string, Promise<Map<string, Promise<RawFile>>>>();
  /** The account check in flight, shared by concurrent reads. */
  private accountCheck: Promise<readonly string[]> | undefined;

  constructor(private readonly options: ViewCacheOptions) {
    this.maxBytes = options.maxBytes ?? VIEW_CACHE_MAX_BYTES;
  }

  /**
   * The slot of one view: of `account` (a tree under that account's root), else of the first account signed in.
   * `isValid` checks the shape of what is read back.
   */
  view<T>(name: string, isValid: (data: unknown) => data is T, account?: string): ViewSnapshotStore<T> {
    const owner: Owner = account === undefined ? 'first' : { account };
    return { name, read: () => this.readOf(name, isValid, owner), readEarly: () => this.readEarlyOf(name, isValid, owner), write: (value) => this.writeOf(name, value, owner) };
  }

  /** `view` for a slot a feature names in its tree/snapshot.ts. */
  slot<T>(slot: ViewCacheSlot<T>, account?: string): ViewSnapshotStore<T> {
    return this.view(slot.name, slot.isValid, account);
  }

  /**
   * Starts reading every file of the remembered accounts and the account check now (at activation), so a view that
   * loads a moment later finds them done. Each warmed file serves the first read of its slot only.
   */
  warm(): void {
    for (const account of this.options.remembered?.() ?? []) {
      const folder = this.folderOf(account);
      const listing = fs.readdir(folder).catch(() => [] as string[]);
      // The slots are the files there (each feature names its own): listed, then read, all before the features ask.
      const files = listing.then((names) => new Map(names.filter((file) => file.endsWith('.json')).map((file) => [file.slice(0, -'.json'.length), this.readPath(path.join(folder, file))] as const)));
      this.warmedListings.set(account, files);
    }
    void this.checkAccounts();
  }

  /** The last snapshot of `name` of the first account signed in (after the check); a corrupted, foreign or unreadable file is removed. */
  read<T>(name: string, isValid: (data: unknown) => data is T, account?: string): Promise<T | undefined> {
    return this.readOf(name, isValid, account === undefined ? 'first' : { account });
  }

  /** The last snapshot of `name`, early when its account is remembered (see readEarlyOf). */
  readEarly<T>(name: string, isValid: (data: unknown) => data is T, account?: string): Promise<EarlySnapshot<T> | undefined> {
    return this.readEarlyOf(name, isValid, account === undefined ? 'first' : { account });
  }

  /** The first account the last check answered (this backend's), known at once: the one whose rows a start shows first. */
  rememberedAccount(): string | undefined {
    return this.options.remembered?.()?.[0];
  }

  /**
   * The signed-in accounts (concurrent asks share one check), remembered for the next start's first rows.
   * The extension's account watch calls it too, so sign-in and sign-out update what is remembered.
   */
  currentAccounts(): Promise<readonly string[]> {
    return this.checkAccounts();
  }

  /** Replaces the snapshot of `name` of the first account signed in (or of `account`). */
  write(name: string, data: unknown, account?: string): Promise<void> {
    return this.writeOf(name, data, account === undefined ? 'first' : { account });
  }

  /** Removes the files of `account` (its sign-out), or of every account. */
  clear(account?: string): Promise<void> {
    if (account === undefined) this.warmedListings.clear();
    else this.warmedListings.delete(account);
    const target = account === undefined ? this.options.directory : this.folderOf(account);
    const task = this.pending.then(() => fs.rm(target, { recursive: true, force: true }));
    this.pending = task.catch(() => undefined);
    return this.pending.then(() => undefined);
  }

  /**
   * Removes the files of every account not in `accounts` (signed out in another window, or a folder of an older Desk):
   * the first check of a window, with someone signed in.
   */
  prune(accounts: readonly string[]): Promise<void> {
    const kept = new Set(accounts.map((account) => this.keyOf(account)));
    const task = this.pending.then(async () => {
      const entries = await fs.readdir(this.options.directory).catch(() => [] as string[]);
      await Promise.all(entries.filter((entry) => !kept.has(entry)).map((entry) => fs.rm(path.join(this.options.directory, entry), { recursive: true, force: true })));
    });
    this.pending = task.catch(() => undefined);
    return this.pending.then(() => undefined);
  }

  private async readOf<T>(name: string, isValid: (data: unknown) => data is T, owner: Owner): Promise<T | undefined> {
    const early = await this.readEarlyOf(name, isValid, owner);
    return early && (await early.confirmed) ? early.data : undefined;
  }

  /**
   * The last snapshot of `name` of the owner: at once when the owner's account is remembered (the first remembered,
   * for 'first'), then confirmed (or not) by the account check; else after the check. A corrupted or unreadable file,
   * or one of an account no longer signed in, is removed.
   */
  private async readEarlyOf<T>(name: string, isValid: (data: unknown) => data is T, owner: Owner): Promise<EarlySnapshot<T> | undefined> {
    const started = Date.now();
    const check = this.checkAccounts();
    const remembered = this.options.remembered?.() ?? [];
    const assumed = owner === 'first' ? remembered.at(0) : owner.account;
    const ownerNow = (accounts: readonly string[]): string | undefined => (owner === 'first' ? accounts.at(0) : accounts.includes(owner.account) ? owner.account : undefined);
    if (assumed !== undefined && remembered.includes(assumed)) {
      const early = await this.snapshotOf(name, isValid, assumed);
      if (early) {
        const confirmed = check.then(async (accounts) => {
          if (ownerNow(accounts) === assumed) return true;
          // Signed out of that account (another signed in): its file goes. Signed out of all: the sign-out's clear.
          if (accounts.length > 0 && !accounts.includes(assumed)) await this.drop(name, assumed, 'account not signed in');
          return false;
        });
        this.options.log?.(`View cache ${name}: read at ${new Date().toISOString()} in ${Date.now() - started} ms (file ${early.readMs} ms; the account remembered, confirmed later)`);
        return { data: early.data, confirmed };
      }
    }
    // The remembered account has nothing cached for this view: its rows come from the network, without waiting here.
    if (assumed !== undefined && remembered.includes(assumed)) return undefined;
    const account = ownerNow(await check);
    if (account === undefined) return undefined;
    const snapshot = await this.snapshotOf(name, isValid, account);
    if (!snapshot) return undefined;
    // Wall-clock times: with "Desk activated" they tell where a reload's time goes before the first rows.
    this.options.log?.(`View cache ${name}: read at ${new Date().toISOString()} in ${Date.now() - started} ms (waited for the account check)`);
    return { data: snapshot.data, confirmed: Promise.resolve(true) };
  }

  /** The file of `name` of `account` if it is that account's and of the right shape; else removed (unless missing). */
  private async snapshotOf<T>(name: string, isValid: (data: unknown) => data is T, account: string): Promise<{ data: T; readMs: number } | undefined> {
    const raw = await this.rawFile(name, account);
    if (raw.kind === 'missing') return undefined;
    if (raw.kind === 'unreadable' || raw.account !== account || !isValid(raw.data)) return this.drop(name, account, 'unreadable');
    return { data: raw.data, readMs: raw.readMs };
  }

  /** The file as warmed at activation (once), else read now. */
  private async rawFile(name: string, account: string): Promise<RawFile> {
    const listing = this.warmedListings.get(account);
    if (listing) {
      const files = await listing;
      const warmed = files.get(name);
      files.delete(name);
      if (warmed) return warmed;
    }
    return this.readPath(this.fileOf(name, account));
  }

  private writeOf(name: string, data: unknown, owner: Owner): Promise<void> {
    const task = this.pending.then(async () => {
      const accounts = await this.checkAccounts();
      const account = owner === 'first' ? accounts[0] : accounts.includes(owner.account) ? owner.account : undefined;
      if (account === undefined) return;
      const text = JSON.stringify({ format: FORMAT, account, data } satisfies CacheFile);
      const file = this.fileOf(name, account);
      if (Buffer.byteLength(text) > this.maxBytes) {
        await fs.rm(file, { force: true });
        return;
      }
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a reload in the middle leaves the old file or the new one, never half of one.
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, text);
      await fs.rename(temporary, file);
    });
    this.pending = task.catch((error: unknown) => this.options.log?.(`View cache ${name}: not written (${String(error)})`));
    return this.pending.then(() => undefined);
  }

  private checkAccounts(): Promise<readonly string[]> {
    this.accountCheck ??= this.options.accounts().catch(() => [] as readonly string[]).then((accounts) => {
      this.accountCheck = undefined;
      const remembered = this.options.remembered?.() ?? [];
      if (remembered.length !== accounts.length || remembered.some((account, index) => account !== accounts[index])) this.options.remember?.(accounts);
      return accounts;
    });
    return this.accountCheck;
  }

  private async readPath(file: string): Promise<RawFile> {
    const started = Date.now();
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
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

  private async drop(name: string, account: string, why: string): Promise<undefined> {
    this.options.log?.(`View cache ${name}: ignored and removed (${why})`);
    await fs.rm(this.fileOf(name, account), { force: true }).catch(() => undefined);
    return undefined;
  }

  /** An account's folder name: its address, escaped (injective, so two accounts never share a folder). */
  private keyOf(account: string): string {
    return encodeURIComponent(account);
  }

  private folderOf(account: string): string {
    return path.join(this.options.directory, this.keyOf(account));
  }

  private fileOf(name: string, account: string): string {
    return path.join(this.folderOf(account), `${name.replace(/[^\w.-]/g, '_')}.json`);
  }
}

/**
 * Removes an account's files when it signs out (all files when no one is signed in): call `check` after every change
 * of sessions. The first check keeps the files of the accounts still signed in (a reload) and removes any other's.
 */
export function clearOnAccountChange(cache: ViewCache, accounts: () => Promise<readonly string[]>): { check(): Promise<void> } {
  let last: readonly string[] | undefined;
  return {
    async check() {
      const current = await accounts();
      if (last === undefined && current.length > 0) await cache.prune(current);
      if (last !== undefined) {
        if (current.length === 0 && last.length > 0) await cache.clear();
        else for (const gone of last.filter((account) => !current.includes(account))) await cache.clear(gone);
      }
      last = current;
    },
  };
}

/** The view cache's account list as the last check answered it (global state): whose cached rows a reload shows at once. */
export const REMEMBERED_ACCOUNTS_KEY = 'desk.viewCache.accounts';
export interface RememberedAccounts {
  /** The backend the accounts are of: after a switch of backend, nothing shows before the check. */
  readonly backend: string;
  readonly accounts: readonly string[];
}

export interface DeskViewCacheOptions {
  readonly directory: string;
  /** Where the accounts are remembered between windows (the extension's global state). */
  readonly memento: WritableMemento;
  /** The backend the session is of now (its key). */
  readonly backend: () => string;
  /** The signed-in accounts, from the stored sessions (no network). */
  readonly accounts: () => Promise<readonly string[]>;
  readonly log?: (message: string) => void;
}

/** Desk's view cache: the accounts remembered per backend in the global state. */
export function createDeskViewCache(options: DeskViewCacheOptions): ViewCache {
  return new ViewCache({
    directory: options.directory,
    accounts: options.accounts,
    remembered: () => {
      const saved = options.memento.get(REMEMBERED_ACCOUNTS_KEY) as RememberedAccounts | undefined;
      return saved?.backend === options.backend() && Array.isArray(saved.accounts) ? saved.accounts : undefined;
    },
    // Called only when the check answers other than `remembered` (so never with what is already kept).
    // Durably: a write lost to the global state's echo would leave the next start waiting for the check again.
    remember: (accounts) => void updateDurably(options.memento, REMEMBERED_ACCOUNTS_KEY, accounts.length === 0 ? undefined : { backend: options.backend(), accounts }),
    ...(options.log ? { log: options.log } : {}),
  });
}

/**
 * Starts the cache at activation: reads the remembered accounts' files ahead (the features load a moment later) and
 * removes an account's files at its sign-out. `onDidChangeSessions` is the auth provider's event.
 */
export function startViewCache(cache: ViewCache, onDidChangeSessions: (listener: () => void) => { dispose(): unknown }): { dispose(): unknown } {
  const watch = clearOnAccountChange(cache, () => cache.currentAccounts());
  void Promise.resolve().then(() => {
    cache.warm();
    return watch.check();
  });
  return onDidChangeSessions(() => void watch.check());
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
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- firstStart may have run during the await
    return this.consulted ? this.cached !== undefined : early !== undefined;
  }

  /**
   * Once, at the first start: the cached snapshot (or undefined), and `fresh` starts loading behind it. The rows
   * go (a redraw) when the fresh ones are in, or as soon as the account check says they are not this account's.
   */
  async firstStart(fresh: () => Promise<unknown>): Promise<T | undefined> {
    if (this.consulted || !this.store) return undefined;
    const early = await this.read();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- another firstStart may have run during the await
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
    early.confirmed.then((confirmed) => { if (!confirmed) dropped(); }, dropped);
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
