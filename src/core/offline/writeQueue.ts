/**
 * Writes kept while Desk is offline, durably and per account (a file in the extension's global storage, queueFile.ts,
 * so a window reload or a restart keeps them), and replayed in order, once, when the service is back. A change keeps the user's intent (what
 * changed, e.g. "complete task X"), not a request body: its feature's replayer re-reads what it needs and applies it.
 * A change that may have been sent before the connection broke is marked `attempted` before it is sent, so its
 * replayer checks before repeating it. No vscode here: the memento, clock and ids are injected.
 */
import type { DisposableLike } from '../disposable';
import { updateDurably, type WritableMemento } from '../storage/durableMemento';

export interface QueuedChange {
  readonly id: string;
  /** Which replayer applies it: `<feature>.<verb>`, e.g. `tasks.setStatus`. */
  readonly kind: string;
  /** What and where, for the list of waiting changes: "Complete “Buy milk” in My Tasks". */
  readonly summary: string;
  readonly queuedAt: number;
  /** The intent, as the feature's replayer reads it (plain JSON). */
  readonly intent: Readonly<Record<string, unknown>>;
  /** Sent at least once without an answer: the replayer checks whether it landed before repeating it. */
  readonly attempted?: boolean;
}

/** What a replayer made of a change: applied (or found applied), or it waits for the next replay (still offline). */
export type ReplayOutcome = 'applied' | 'waiting';

export type Replayer = (change: QueuedChange) => Promise<ReplayOutcome>;

export interface WriteQueueOptions {
  readonly memento: WritableMemento;
  /** The signed-in account the queue belongs to now (undefined while signed out: nothing is replayed). */
  readonly account: () => string | undefined;
  /** Resolves once `account` answers for the current sign-in (it is looked up without network, but asynchronously). */
  readonly accountReady?: () => Promise<void>;
  readonly now: () => number;
  readonly newId?: () => string;
  readonly log?: (message: string) => void;
  /** A replay failed for a reason other than being offline: say so, keeping the change (the user can retry or discard). */
  readonly onFailed?: (change: QueuedChange, error: unknown) => void;
  /** An error that means "still offline" (the change waits, and the replay stops to keep the order). */
  readonly isOffline: (error: unknown) => boolean;
  /** Runs a replay alone among the hosts sharing the queue (another window, a reloaded window's old host). */
  readonly exclusive?: (work: () => Promise<void>) => Promise<void>;
}

export const WRITE_QUEUE_KEY = 'desk.offline.queue';

type Stored = Record<string, QueuedChange[]>;

export class WriteQueue implements DisposableLike {
  private readonly replayers = new Map<string, Replayer>();
  private readonly listeners = new Set<() => void>();
  private replaying: Promise<void> | undefined;
  private replayAgain = false;
  /** Serializes writes to the memento: each update starts from the last one's result. */
  private writes: Promise<void> = Promise.resolve();
  private counter = 0;

  constructor(private readonly options: WriteQueueOptions) {}

  /** The changes waiting for the current account, oldest first. */
  list(): readonly QueuedChange[] {
    const account = this.options.account();
    return account === undefined ? [] : (this.stored()[account] ?? []);
  }

  get size(): number {
    return this.list().length;
  }

  /** Keeps a change for the current account (durably: resolved once written). */
  async add(change: Omit<QueuedChange, 'id' | 'queuedAt'>): Promise<QueuedChange> {
    await this.options.accountReady?.();
    const account = this.options.account();
    if (account === undefined) throw new Error('Not signed in: nothing can be kept for later');
    const full: QueuedChange = { ...change, id: this.options.newId?.() ?? `${this.options.now().toString(36)}-${(this.counter++).toString(36)}`, queuedAt: this.options.now() };
    await this.mutate(account, (changes) => [...changes, full]);
    this.options.log?.(`Offline queue: kept ${full.kind} (${full.summary})`);
    return full;
  }

  /** Forgets a change (replayed, or discarded by the user). */
  async remove(id: string): Promise<void> {
    const account = this.options.account();
    if (account === undefined) return;
    await this.mutate(account, (changes) => changes.filter((change) => change.id !== id));
  }

  /** Rewrites the waiting changes (a replayed create names its new id in the changes after it). */
  async rewrite(change: (queued: QueuedChange) => QueuedChange): Promise<void> {
    const account = this.options.account();
    if (account === undefined) return;
    await this.mutate(account, (changes) => changes.map(change));
  }

  /** Forgets every change of the current account (sign-out chose to discard them). */
  async clear(): Promise<void> {
    const account = this.options.account();
    if (account === undefined) return;
    await this.mutate(account, () => []);
  }

  /** A feature applies its kinds of change; a replay waiting for it starts again. */
  registerReplayer(kind: string, replayer: Replayer): DisposableLike {
    this.replayers.set(kind, replayer);
    if (this.size > 0) void this.replay();
    return { dispose: () => { if (this.replayers.get(kind) === replayer) this.replayers.delete(kind); } };
  }

  onDidChange(listener: () => void): DisposableLike {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /**
   * Applies the waiting changes in order, one at a time. Stops at the first that still cannot reach the service (it
   * and those after it wait) or whose replayer is not loaded yet. A change failing for another reason is reported and
   * kept, and the ones after it go on (they may not depend on it; the user decides about the failed one).
   */
  replay(): Promise<void> {
    if (this.replaying) {
      this.replayAgain = true;
      return this.replaying;
    }
    const exclusive = this.options.exclusive;
    this.replaying = (exclusive ? exclusive(() => this.replayOnce()) : this.replayOnce()).finally(() => {
      this.replaying = undefined;
      if (this.replayAgain) {
        this.replayAgain = false;
        void this.replay();
      }
    });
    return this.replaying;
  }

  /** Resolves when no replay runs (tests, and sign-out's question). */
  async settled(): Promise<void> {
    while (this.replaying) await this.replaying;
  }

  /** The account changed (sign-in, sign-out, another backend): its own changes show, and replay when online. */
  accountChanged(): void {
    this.fire();
  }

  dispose(): void {
    this.listeners.clear();
    this.replayers.clear();
  }

  private async replayOnce(): Promise<void> {
    await this.options.accountReady?.();
    const failed = new Set<string>();
    for (;;) {
      const next = this.list().find((change) => !failed.has(change.id));
      if (!next) return;
      const replayer = this.replayers.get(next.kind);
      if (!replayer) return;
      if (!next.attempted) await this.markAttempted(next.id);
      let outcome: ReplayOutcome;
      try {
        outcome = await replayer({ ...next, attempted: next.attempted === true });
      } catch (error) {
        if (this.options.isOffline(error)) return;
        this.options.log?.(`Offline queue: ${next.kind} (${next.summary}) failed: ${String(error)}`);
        failed.add(next.id);
        this.options.onFailed?.(next, error);
        continue;
      }
      if (outcome === 'waiting') return;
      await this.remove(next.id);
      this.options.log?.(`Offline queue: applied ${next.kind} (${next.summary})`);
    }
  }

  private async markAttempted(id: string): Promise<void> {
    const account = this.options.account();
    if (account === undefined) return;
    await this.mutate(account, (changes) => changes.map((change) => (change.id === id ? { ...change, attempted: true } : change)));
  }

  private stored(): Stored {
    return (this.options.memento.get(WRITE_QUEUE_KEY) as Stored | undefined) ?? {};
  }

  private mutate(account: string, change: (changes: QueuedChange[]) => QueuedChange[]): Promise<void> {
    const write = this.writes.then(async () => {
      const all = { ...this.stored() };
      const next = change([...(all[account] ?? [])]);
      if (next.length === 0) Reflect.deleteProperty(all, account);
      else all[account] = next;
      // Durably: a change lost to the global state's echo would be a write the user made and never sent.
      await updateDurably(this.options.memento, WRITE_QUEUE_KEY, all);
    });
    this.writes = write.catch(() => undefined);
    return write.then(() => { this.fire(); });
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the news from the others.
      }
    }
  }
}
