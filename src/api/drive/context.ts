/** What every Drive resource module works with: the request pipeline and what the client learned from the server. */
import { CancelledError } from '../errors';
import type { HttpClient } from '../http';

export interface DriveContext {
  readonly http: HttpClient;
  /** Whether changes.list honours `X-Desk-Wait` (long poll): learned from about and changes answers, undefined until then. */
  longPoll: boolean | undefined;
  /** File ids reserved with generateIds, for inserts, copies and uploads that must be safe to repeat. */
  readonly ids: IdPool;
}

/**
 * Desk handles items of shared drives everywhere, so every call that takes it says `supportsAllDrives` (without it,
 * Drive answers as if those items did not exist).
 */
export const ALL_DRIVES = { supportsAllDrives: true } as const;

export function ifMatchHeader(etag: string | undefined): Record<string, string> {
  return etag ? { 'If-Match': etag } : {};
}

/** How many ids one generateIds call reserves: one request per this many creations. */
export const ID_BATCH = 20;

/**
 * Ids from generateIds, fetched in batches and handed out one at a time. A create that carries one of these can be
 * repeated safely: the server answers a repeat of one that landed with 409, never with a second file.
 */
export class IdPool {
  private readonly ready: string[] = [];
  private pending: Promise<void> | undefined;

  constructor(private readonly fetchIds: (count: number) => Promise<string[]>, private readonly batch = ID_BATCH) {}

  async take(signal?: AbortSignal): Promise<string> {
    for (;;) {
      if (signal?.aborted) throw new CancelledError();
      const id = this.ready.shift();
      if (id !== undefined) return id;
      // Concurrent callers share one request for the next batch.
      // Not cancelled with the first caller's signal: the batch serves the others too.
      this.pending ??= this.fetchIds(this.batch).then(
        (ids) => {
          this.ready.push(...ids);
          this.pending = undefined;
          if (ids.length === 0) throw new Error('generateIds answered no ids');
        },
        (error: unknown) => {
          this.pending = undefined;
          throw error;
        },
      );
      await this.pending;
    }
  }
}
