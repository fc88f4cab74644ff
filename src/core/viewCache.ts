/**
 * What each view showed last, per account, as one small JSON file per view in the extension's global storage, so a
 * view can show its first rows at once after a window reload (marked as refreshing) while the network answers.
 * No vscode: the feature's tree model reads and writes it; the extension clears it at sign-out and account change.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

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
    return { read: () => this.read(name, isValid), write: (value) => this.write(name, value) };
  }

  /** The last snapshot of `name` for the signed-in account; a corrupted, foreign or unreadable file is removed. */
  async read<T>(name: string, isValid: (data: unknown) => data is T): Promise<T | undefined> {
    const account = await this.options.account();
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
    if (parsed?.format === FORMAT && parsed.account === account && isValid(parsed.data)) return parsed.data;
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
