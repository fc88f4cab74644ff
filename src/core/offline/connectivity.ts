/**
 * Desk's one notion of being offline. The HTTP clients report every answer and every "cannot reach the service"
 * (api/http.ts's Reachability); this keeps whether Desk is offline and since when, probes cheaply with a growing
 * backoff while it is (and at once when the window gets focus), and tells listeners when the service is back, so
 * views refresh and queued writes replay without a click. No vscode here: the probe, clock and timers are injected.
 */
import type { Reachability } from '../../api/http';
import type { DisposableLike } from '../disposable';
import type { Timers } from '../timers';

export interface ConnectivityOptions {
  /** One cheap request: true when the service answered (any answer of its own), false when it could not be reached. */
  readonly probe: () => Promise<boolean>;
  readonly timers: Timers;
  readonly now: () => number;
  /** The first probe after going offline, doubling per failed probe up to `maxProbeMs`. */
  readonly firstProbeMs?: number;
  readonly maxProbeMs?: number;
  readonly log?: (message: string) => void;
}

export type ConnectivityEvent = { readonly online: true; readonly offlineSince: number } | { readonly online: false; readonly since: number };

export const FIRST_PROBE_MS = 1_000;
export const MAX_PROBE_MS = 30_000;

export class Connectivity implements Reachability, DisposableLike {
  private since: number | undefined;
  private probeDelayMs: number;
  private timer: unknown;
  private probing = false;
  private disposed = false;
  private readonly listeners = new Set<(event: ConnectivityEvent) => void>();

  constructor(private readonly options: ConnectivityOptions) {
    this.probeDelayMs = options.firstProbeMs ?? FIRST_PROBE_MS;
  }

  get online(): boolean {
    return this.since === undefined;
  }

  /** When Desk last found the service unreachable (undefined while online). */
  get offlineSince(): number | undefined {
    return this.since;
  }

  isOffline(): boolean {
    return !this.online;
  }

  /** Any answer of the service: back online if Desk was offline. */
  reachable(): void {
    if (this.since === undefined) return;
    const offlineSince = this.since;
    this.since = undefined;
    this.cancelProbe();
    this.probeDelayMs = this.options.firstProbeMs ?? FIRST_PROBE_MS;
    this.options.log?.(`Connectivity: back online (offline since ${new Date(offlineSince).toISOString()})`);
    this.fire({ online: true, offlineSince });
  }

  /** A request could not reach the service: offline from now, probing until it answers. */
  unreachable(): void {
    if (this.disposed || this.since !== undefined) return;
    this.since = this.options.now();
    this.options.log?.('Connectivity: offline (the service cannot be reached)');
    this.fire({ online: false, since: this.since });
    this.scheduleProbe();
  }

  /** Probe now when offline (the window got focus, or the user asked to retry); nothing when online. */
  probeNow(): Promise<void> {
    if (this.online || this.disposed) return Promise.resolve();
    this.cancelProbe();
    return this.runProbe();
  }

  onDidChange(listener: (event: ConnectivityEvent) => void): DisposableLike {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  dispose(): void {
    this.disposed = true;
    this.cancelProbe();
    this.listeners.clear();
  }

  private scheduleProbe(): void {
    if (this.disposed || this.online || this.timer !== undefined) return;
    this.timer = this.options.timers.set(() => {
      this.timer = undefined;
      void this.runProbe();
    }, this.probeDelayMs);
  }

  private async runProbe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    let answered = false;
    try {
      answered = await this.options.probe();
    } catch {
      answered = false;
    } finally {
      this.probing = false;
    }
    if (this.disposed) return;
    if (answered) {
      this.reachable();
      return;
    }
    this.probeDelayMs = Math.min(this.probeDelayMs * 2, this.options.maxProbeMs ?? MAX_PROBE_MS);
    this.scheduleProbe();
  }

  private cancelProbe(): void {
    if (this.timer === undefined) return;
    this.options.timers.clear(this.timer);
    this.timer = undefined;
  }

  private fire(event: ConnectivityEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.log?.(`Connectivity: a listener failed: ${String(error)}`);
      }
    }
  }
}
