import type { Clock, SyncPageRequest, TokenStore } from '../../../src/core/sync/poller';
import type { ChangePage, ChangeSource, PolledChange } from '../../../src/features/drive/changes/poller';

/** A clock whose time only moves when the test says so; timers fire in order as it moves. */
export class FakeClock implements Clock {
  private time = Date.parse('2026-11-22T10:00:00Z');
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers (and letting the promises they start settle) one by one. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].callback();
    }
    this.time = target;
    await settle();
  }
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class MemoryTokens implements TokenStore {
  readonly values = new Map<string, string>();
  get(key: string): string | undefined {
    return this.values.get(key);
  }
  set(key: string, value: string | undefined): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

/**
 * A change feed: changes are numbered; a page token is "the number of the next change". Pages hold at most
 * `pageSize` changes. Tokens below `oldestValid` are rejected like an expired token on Google.
 */
export class FakeChangeFeed implements ChangeSource {
  readonly changes: PolledChange[] = [];
  readonly requests: SyncPageRequest[] = [];
  startTokenRequests = 0;
  pageSize = 2;
  oldestValid = 1;
  longPoll = false;
  /** Errors thrown by the next listPage calls, in order. */
  readonly failures: Error[] = [];
  /** A long poll with nothing new stays open until `release()` or abort. */
  private waiting: { resolve: () => void } | undefined;

  add(fileId: string, title = fileId, extra: Partial<PolledChange> = {}): void {
    const id = String(this.changes.length + 1);
    this.changes.push({ id, fileId, file: { id: fileId, title, modifiedDate: '2026-11-22T10:00:00Z', createdDate: '2026-11-01T10:00:00Z' }, ...extra });
    this.waiting?.resolve();
  }

  async startToken(): Promise<string> {
    this.startTokenRequests++;
    return String(this.changes.length + 1);
  }

  async listPage(request: SyncPageRequest): Promise<ChangePage> {
    this.requests.push(request);
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    const from = Number(request.pageToken);
    if (!Number.isInteger(from) || from < this.oldestValid) throw new InvalidToken();
    if (request.waitSeconds !== undefined && this.longPoll && from > this.changes.length) {
      await new Promise<void>((resolve, reject) => {
        this.waiting = { resolve };
        request.signal.addEventListener('abort', () => { reject(new Error('aborted')); }, { once: true });
      });
      this.waiting = undefined;
    }
    const items = this.changes.slice(from - 1, from - 1 + this.pageSize);
    const next = from + items.length;
    const last = next > this.changes.length;
    return last
      ? { items, resumeToken: String(next), longPollAvailable: this.longPoll }
      : { items, nextPageToken: String(next), longPollAvailable: this.longPoll };
  }
}

export class InvalidToken extends Error {
  readonly status = 404;
}

export class NetworkDown extends Error {}
