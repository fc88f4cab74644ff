/**
 * Where the offline write queue lives: a JSON file in the extension's global storage folder, beside the extension
 * host. VS Code's global state is not enough for it: in a browser workbench (code-server, vscode.dev-like setups)
 * that state lives in the browser's IndexedDB, written late, and a reload, a crash or another browser can lose it —
 * the changes the user made offline with it. The file is read once (a few KB) and written whole, through a temporary
 * file renamed over it, so a crash mid-write leaves the previous version. Two extension hosts share the folder (two
 * windows, or a reloaded window whose old host has not ended yet): each read looks at the file again when it changed,
 * and a replay holds a lock file, so one host sends the waiting changes and the other finds them gone. No vscode import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WritableMemento } from '../storage/durableMemento';

export const QUEUE_FILE_NAME = 'offline-queue.json';

/** A replay lock older than this, or held by a process that has ended, is taken over (its holder crashed). */
const STALE_LOCK_MS = 2 * 60_000;
/** How often a host waiting for another's replay looks at the lock again. */
const LOCK_POLL_MS = 250;

export interface QueueFileOptions {
  /** The extension's global storage folder (made when missing). */
  readonly directory: string;
  /** Where the queue was kept before (VS Code's global state): its changes move into the file once. */
  readonly legacy?: WritableMemento;
  readonly log?: (message: string) => void;
}

/** A memento of the keys the queue writes, kept in one file. */
export class QueueFile implements WritableMemento {
  private readonly file: string;
  private values: Record<string, unknown>;
  /** Serializes writes: each starts after the last one ended, so an older copy never lands over a newer one. */
  private writes: Promise<void> = Promise.resolve();
  private counter = 0;
  /** The file as last read or written (modified time and size): a change means another host wrote it. */
  private seen = '';

  constructor(private readonly options: QueueFileOptions) {
    this.file = path.join(options.directory, QUEUE_FILE_NAME);
    this.values = this.read();
  }

  get(key: string): unknown {
    this.rereadIfChanged();
    return this.values[key];
  }

  /**
   * Runs `work` holding the replay lock (a file made exclusively, naming this process); waits while another live host
   * holds it, and takes over one whose holder ended or that is stale. The queue is read afresh inside.
   */
  async exclusive<T>(work: () => Promise<T>, sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))): Promise<T> {
    const lock = `${this.file}.lock`;
    await fs.promises.mkdir(this.options.directory, { recursive: true });
    for (;;) {
      try {
        await fs.promises.writeFile(lock, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (this.lockIsStale(lock)) {
          await fs.promises.rm(lock, { force: true });
          continue;
        }
        await sleep(LOCK_POLL_MS);
      }
    }
    try {
      this.rereadIfChanged();
      return await work();
    } finally {
      await fs.promises.rm(lock, { force: true });
    }
  }

  private lockIsStale(lock: string): boolean {
    try {
      const holder = JSON.parse(fs.readFileSync(lock, 'utf8')) as { pid?: number; at?: number };
      if (typeof holder.at === 'number' && Date.now() - holder.at > STALE_LOCK_MS) return true;
      if (typeof holder.pid !== 'number') return true;
      process.kill(holder.pid, 0);
      return false;
    } catch (error) {
      // ESRCH: the holder has ended; a half-written lock (its holder is writing it) is not stale yet.
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  private stamp(): string {
    try {
      const stat = fs.statSync(this.file);
      return `${stat.mtimeMs} ${stat.size} ${stat.ino}`;
    } catch {
      return '';
    }
  }

  private rereadIfChanged(): void {
    const now = this.stamp();
    if (now === this.seen) return;
    this.values = this.read();
  }

  update(key: string, value: unknown): Promise<void> {
    const next = { ...this.values };
    if (value === undefined) Reflect.deleteProperty(next, key);
    else next[key] = value;
    this.values = next;
    const text = JSON.stringify(next);
    const write = this.writes.then(() => this.writeFile(text));
    this.writes = write.catch(() => undefined);
    return write;
  }

  /**
   * Moves what the global state held under `key` into the file (merged per account, the file's changes first), and
   * clears it there. Done once the file has the changes, so a failure loses nothing.
   */
  async adopt(key: string): Promise<void> {
    const legacy = this.options.legacy?.get(key) as Record<string, unknown[]> | undefined;
    if (!legacy || Object.keys(legacy).length === 0) return;
    const mine = (this.get(key) as Record<string, unknown[]> | undefined) ?? {};
    const merged: Record<string, unknown[]> = { ...mine };
    for (const [account, changes] of Object.entries(legacy)) {
      const known = new Set((merged[account] ?? []).map((change) => (change as { id?: string }).id));
      merged[account] = [...(merged[account] ?? []), ...changes.filter((change) => !known.has((change as { id?: string }).id))];
    }
    await this.update(key, merged);
    await this.options.legacy?.update(key, undefined);
    this.options.log?.(`Offline queue: moved the waiting changes from the global state into ${QUEUE_FILE_NAME}`);
  }

  private read(): Record<string, unknown> {
    this.seen = this.stamp();
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch (error) {
      // Missing is the first use; anything else is said, and the broken file is kept aside rather than overwritten.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.options.log?.(`Offline queue: ${QUEUE_FILE_NAME} could not be read (${String(error)}); kept as ${QUEUE_FILE_NAME}.broken`);
        try {
          fs.renameSync(this.file, `${this.file}.broken`);
        } catch {
          // nothing more to save
        }
      }
      return {};
    }
  }

  private async writeFile(text: string): Promise<void> {
    await fs.promises.mkdir(this.options.directory, { recursive: true });
    const temporary = `${this.file}.${process.pid}.${this.counter++}.tmp`;
    await fs.promises.writeFile(temporary, text, 'utf8');
    await fs.promises.rename(temporary, this.file);
    // Only when no other host wrote meanwhile would this be our own copy; an older stamp makes the next read look again.
    if (JSON.stringify(this.values) === text) this.seen = this.stamp();
  }
}
