/**
 * The shape every feature's offline writes share: a table of the feature's kinds of change, each with its intent type
 * and how it is replayed. A feature keeps changes and registers replayers through its table only, so no replayer reads
 * an untyped intent. Its own module, with only a type import of the queue: each feature bundle carries this small
 * class and does not load the offline bundle (dist/offline.js) when it loads.
 */
import type { DisposableLike } from '../disposable';
import type { QueuedChange, ReplayOutcome, WriteQueue } from '../offline/writeQueue';

/**
 * One feature's kinds of change: for each kind (the key, e.g. `setStatus`, queued as `<feature>.setStatus`), how its
 * intent is replayed. The intent is handed over typed as the feature wrote it (`I` maps each kind to its intent), so
 * no replayer casts; `register` and `keep` of a ReplayTable are the only ways a feature adds or replays its kinds.
 */
export type ReplayHandlers<I extends { [K in keyof I]: object }> = { readonly [K in keyof I]: (intent: I[K], change: QueuedChange) => Promise<ReplayOutcome> };

/** A feature's kinds of change, registered with the queue in one place and kept with typed intents. */
export class ReplayTable<I extends { [K in keyof I]: object }> {
  constructor(
    /** The window's queue, looked up on use (it is built on first use). */
    private readonly queue: () => WriteQueue,
    private readonly feature: string,
    private readonly handlers: ReplayHandlers<I>,
  ) {}

  /** The queued kind of `kind`: `<feature>.<kind>`. */
  kindOf(kind: keyof I & string): string {
    return `${this.feature}.${kind}`;
  }

  /** Every kind's replayer, registered with the queue. */
  register(): DisposableLike[] {
    return (Object.keys(this.handlers) as (keyof I & string)[]).map((kind) =>
      this.queue().registerReplayer(this.kindOf(kind), (change) => this.handlers[kind](change.intent as unknown as I[typeof kind], change)),
    );
  }

  /** Keeps a change of `kind` with its intent (plain JSON). */
  keep<K extends keyof I & string>(kind: K, summary: string, intent: I[K], options: { attempted?: boolean } = {}): Promise<QueuedChange> {
    return this.queue().add({ kind: this.kindOf(kind), summary, intent: { ...(intent as unknown as Readonly<Record<string, unknown>>) }, ...(options.attempted ? { attempted: true } : {}) });
  }
}
