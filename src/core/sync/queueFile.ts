/**
 * Where the offline write queue lives: a JSON file in the extension's global storage folder, beside the extension
 * host. VS Code's global state is not enough for it: in a browser workbench (code-server, vscode.dev-like setups)
 * that state lives in the browser's IndexedDB, written late, and a reload, a crash or another browser can lose it —
 * the changes the user made offline with it. The file is read once (a few KB) and written whole, through a temporary
 * file renamed over it, so a crash mid-write leaves the previous version. No vscode import: the folder is given.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WritableMemento } from '../durableMemento';

export const QUEUE_FILE_NAME = 'offline-queue.json';

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

  constructor(private readonly options: QueueFileOptions) {
    this.file = path.join(options.directory, QUEUE_FILE_NAME);
    this.values = this.read();
  }

  get<T>(key: string): T | undefined {
    return this.values[key] as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    const next = { ...this.values };
    if (value === undefined) delete next[key];
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
    const legacy = this.options.legacy?.get<Record<string, unknown[]>>(key);
    if (!legacy || Object.keys(legacy).length === 0) return;
    const mine = this.get<Record<string, unknown[]>>(key) ?? {};
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
  }
}
