/**
 * The sync engine: a client-side loop over an incremental feed (Drive's changes.list, Calendar's syncToken
 * listings). Pure logic (no vscode import): the clock, timers, the feed, the token store and the focus/sign-in
 * state are injected, so every schedule decision is unit-testable with a fake clock.
 *
 * Schedule: quick polls while the window is focused and the user was recently active; growing intervals
 * (up to `maxIdleMs`) while idle or unfocused; exponential backoff after failures; nothing while signed
 * out. When the server announces long polling (the emulator does, Google does not), a focused window holds
 * one request open instead of polling tightly. While push works (a notification channel delivers to a receiver, see
 * push.ts), each notification triggers a fetch at once and the schedule falls back to one safety-net poll every
 * `pushMs`; when push stops, the schedule returns to its normal pace after one catch-up poll.
 */
import { appendAll } from '../../shared/arrays';

/** One page of a feed: items, and either the next page's token or the token to resume from next time. */
export interface SyncPage<TItem> {
  readonly items: readonly TItem[];
  readonly nextPageToken?: string | undefined;
  /** On the last page: where the next poll starts (Drive's newStartPageToken, Calendar's nextSyncToken). */
  readonly resumeToken?: string | undefined;
  /** The server said it can hold a request open until a change arrives (emulator only). */
  readonly longPollAvailable?: boolean;
}

export interface SyncPageRequest {
  readonly pageToken: string;
  /** Ask the server to hold the request open this long when nothing changed (only when it announced support). */
  readonly waitSeconds?: number;
  readonly signal: AbortSignal;
}

/** What the engine needs from a service's client. */
export interface SyncSource<TItem> {
  /** A token meaning "now": the first poll of an account starts from it, with nothing new yet. */
  startToken(signal: AbortSignal): Promise<string>;
  listPage(request: SyncPageRequest): Promise<SyncPage<TItem>>;
}

/**
 * The source with every call run as `account` (runAs): another signed-in account's poller asks as that account
 * whoever calls it (a timer, a focus change, a test's poll-now).
 */
export function sourceAs<TItem>(source: SyncSource<TItem>, account: string, runAs: <T>(account: string, work: () => Promise<T>) => Promise<T>): SyncSource<TItem> {
  return {
    startToken: (signal) => runAs(account, () => source.startToken(signal)),
    listPage: (request) => runAs(account, () => source.listPage(request)),
  };
}

/** Where the start page token survives restarts (globalState in the extension). */
export interface TokenStore {
  get(key: string): string | undefined;
  set(key: string, value: string | undefined): Promise<void> | void;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => { clearTimeout(handle as ReturnType<typeof setTimeout>); },
};

export interface PollerSchedule {
  /** Interval while focused and recently active. */
  readonly activeMs: number;
  /** How long after the last activity the user still counts as active. */
  readonly activityWindowMs: number;
  /** First interval once idle or unfocused; doubles on every empty poll up to `maxIdleMs`. */
  readonly idleStartMs: number;
  readonly maxIdleMs: number;
  /** Backoff after failures: base doubles per consecutive failure, capped. */
  readonly failureBaseMs: number;
  readonly maxFailureMs: number;
  /** The long-poll hold requested from a server that supports it. */
  readonly longPollSeconds: number;
  /** Pages followed in one poll before yielding (a guard against a server that never ends). */
  readonly maxPagesPerPoll: number;
  /** The safety-net interval while push notifications work (they trigger the real fetches). */
  readonly pushMs: number;
}

export const DEFAULT_SCHEDULE: PollerSchedule = {
  activeMs: 3_000,
  activityWindowMs: 2 * 60_000,
  idleStartMs: 30_000,
  maxIdleMs: 5 * 60_000,
  failureBaseMs: 5_000,
  maxFailureMs: 5 * 60_000,
  longPollSeconds: 25,
  maxPagesPerPoll: 50,
  pushMs: 10 * 60_000,
};

export type SyncState = 'stopped' | 'signedOut' | 'idle' | 'polling';

export interface SyncOutcome<TItem> {
  /** Changes seen in this poll (all pages), oldest first. */
  readonly changes: readonly TItem[];
  /** The page token was rejected and replaced: everything may have changed. */
  readonly tokenReset: boolean;
}

export interface SyncPollerOptions<TItem> {
  readonly source: SyncSource<TItem>;
  readonly tokens: TokenStore;
  /** Identifies backend + account, so tokens of one never feed the other. */
  readonly tokenKey: string;
  readonly clock?: Clock;
  readonly schedule?: Partial<PollerSchedule>;
  readonly onChanges: (outcome: SyncOutcome<TItem>) => void;
  /** Failures are reported but never stop the loop. */
  readonly onError?: (error: unknown) => void;
  /** Classifies a failure: is it the server rejecting our token (Drive's 400/404, Calendar's 410)? */
  readonly isInvalidToken?: (error: unknown) => boolean;
  /** Classifies a failure: did our credentials go away (the poller pauses until signed in again)? */
  readonly isSignedOutError?: (error: unknown) => boolean;
}

export class SyncPoller<TItem> {
  private readonly clock: Clock;
  private readonly schedule: PollerSchedule;
  private signedIn = false;
  private focused = true;
  private lastActivity: number;
  private running = false;
  private timer: unknown;
  private inFlight: AbortController | undefined;
  private consecutiveFailures = 0;
  private consecutiveEmptyIdlePolls = 0;
  private longPollAvailable = false;
  private pollsStarted = 0;
  private nextPollAt: number | undefined;
  private pushActive = false;
  /** A notification (or a push state change) came while a poll was in flight: poll again right after it. */
  private pollAgain = false;
  private inFlightIsLong = false;
  /** Polls started because a notification said something changed. */
  pushPolls = 0;

  constructor(private readonly options: SyncPollerOptions<TItem>) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.schedule = { ...DEFAULT_SCHEDULE, ...options.schedule };
    this.lastActivity = this.clock.now();
  }

  /** Requests made so far (one per page or start-token fetch): what the benchmark counts. */
  requestCount = 0;

  get state(): SyncState {
    if (!this.running) return 'stopped';
    if (!this.signedIn) return 'signedOut';
    return this.inFlight ? 'polling' : 'idle';
  }

  /** When the next poll is due (for tests and the benchmark); undefined while none is scheduled. */
  get nextPollTime(): number | undefined {
    return this.nextPollAt;
  }

  get polls(): number {
    return this.pollsStarted;
  }

  get usesLongPoll(): boolean {
    return this.longPollAvailable;
  }

  /** Push notifications work: polls are triggered by them, the timer only keeps a slow safety net. */
  get pushed(): boolean {
    return this.pushActive;
  }

  /** A request is being held open by the server (long poll). */
  get holdingLongPoll(): boolean {
    return this.inFlight !== undefined && this.inFlightIsLong;
  }

  /**
   * Push started or stopped working. Either way one poll runs now: going live, it covers the moments before the
   * channel's first message; going dark, whatever the lost channel did not report. A held long poll ends (push
   * replaces it).
   */
  setPushActive(active: boolean): void {
    if (this.pushActive === active) return;
    this.pushActive = active;
    this.consecutiveEmptyIdlePolls = 0;
    this.pollSoon();
  }

  /** A notification says the feed changed: fetch now (right after the current poll, if one is in flight). */
  pushNotified(): void {
    this.pollSoon(true);
  }

  /** `firstPollInMs`: when the token is fresh (the source was just read in full), the first poll waits. */
  start(firstPollInMs = 0): void {
    if (this.running) return;
    this.running = true;
    this.scheduleNext(firstPollInMs);
  }

  stop(): void {
    this.running = false;
    this.cancelTimer();
    this.inFlight?.abort();
    this.inFlight = undefined;
  }

  setSignedIn(signedIn: boolean): void {
    if (this.signedIn === signedIn) return;
    this.signedIn = signedIn;
    this.consecutiveFailures = 0;
    if (!signedIn) {
      this.cancelTimer();
      this.inFlight?.abort();
      this.inFlight = undefined;
      return;
    }
    this.scheduleNext(0);
  }

  setFocused(focused: boolean): void {
    const wasActive = this.isActive();
    this.focused = focused;
    if (focused) this.noteActivity();
    else if (wasActive && this.inFlight && this.longPollAvailable) {
      // A held long poll would keep an unfocused window on the fast path: end it and go to the idle schedule.
      this.inFlight.abort();
    }
  }

  /** The user did something in the window (typing, switching editors): poll quickly again. */
  noteActivity(): void {
    const wasActive = this.isActive();
    this.lastActivity = this.clock.now();
    this.consecutiveEmptyIdlePolls = 0;
    // With push working, coming back from idle needs no check: a change would have been pushed.
    if (!wasActive && !this.pushActive && this.running && this.signedIn && !this.inFlight && this.consecutiveFailures === 0) {
      // Coming back from idle: check now rather than at the end of a long idle interval.
      this.scheduleNext(0);
    }
  }

  /** Polls now (e.g. after the user made a change, or the refresh command). */
  pollNow(): void {
    if (!this.running || !this.signedIn || this.inFlight) return;
    this.scheduleNext(0);
  }

  private pollSoon(notified = false): void {
    if (!this.running || !this.signedIn) return;
    if (notified) this.pushPolls++;
    if (this.inFlight) {
      this.pollAgain = true;
      if (this.inFlightIsLong && this.pushActive) this.inFlight.abort();
      return;
    }
    this.scheduleNext(0);
  }

  /** The token that the next poll starts from (undefined before the first start token was fetched). */
  get pageToken(): string | undefined {
    return this.options.tokens.get(this.options.tokenKey);
  }

  private isActive(): boolean {
    return this.focused && this.clock.now() - this.lastActivity < this.schedule.activityWindowMs;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.nextPollAt = undefined;
  }

  private scheduleNext(delayMs: number): void {
    this.cancelTimer();
    if (!this.running || !this.signedIn) return;
    this.nextPollAt = this.clock.now() + delayMs;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.nextPollAt = undefined;
      void this.pollOnce();
    }, delayMs);
  }

  /** The delay before the next poll, from the state after a poll. */
  nextDelay(lastPollHadChanges: boolean, lastPollWasLong: boolean): number {
    const s = this.schedule;
    if (this.consecutiveFailures > 0) {
      return Math.min(s.maxFailureMs, s.failureBaseMs * 2 ** (this.consecutiveFailures - 1));
    }
    if (this.pushActive) return s.pushMs;
    if (this.isActive()) {
      this.consecutiveEmptyIdlePolls = 0;
      // After a held request the server already waited for us: go straight back.
      if (this.longPollAvailable && lastPollWasLong) return 0;
      return s.activeMs;
    }
    if (lastPollHadChanges) this.consecutiveEmptyIdlePolls = 0;
    else this.consecutiveEmptyIdlePolls++;
    return Math.min(s.maxIdleMs, s.idleStartMs * 2 ** Math.max(0, this.consecutiveEmptyIdlePolls - 1));
  }

  private async pollOnce(): Promise<void> {
    if (!this.running || !this.signedIn || this.inFlight) return;
    const controller = new AbortController();
    this.inFlight = controller;
    this.inFlightIsLong = false;
    // This poll covers every notification so far.
    this.pollAgain = false;
    this.pollsStarted++;
    const startedAt = this.clock.now();
    let outcome: SyncOutcome<TItem> | undefined;
    let wasLong = false;
    try {
      const result = await this.fetchAll(controller.signal);
      outcome = result.outcome;
      wasLong = result.wasLong;
      this.consecutiveFailures = 0;
    } catch (error) {
      if (controller.signal.aborted) {
        // Stopped, signed out or unfocused mid-request: not a failure.
      } else if (this.options.isSignedOutError?.(error)) {
        this.inFlight = undefined;
        this.options.onError?.(error);
        this.setSignedIn(false);
        return;
      } else {
        this.consecutiveFailures++;
        this.options.onError?.(error);
      }
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
    if (outcome && (outcome.changes.length > 0 || outcome.tokenReset)) {
      try {
        this.options.onChanges(outcome);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    // A "long" poll that came back at once did not wait: do not spin on it.
    const heldLongEnough = wasLong && this.clock.now() - startedAt >= 1_000;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by pollNow() while the poll awaited
    if (this.pollAgain) {
      this.pollAgain = false;
      this.scheduleNext(0);
      return;
    }
    this.scheduleNext(this.nextDelay((outcome?.changes.length ?? 0) > 0, heldLongEnough || (wasLong && (outcome?.changes.length ?? 0) > 0)));
  }

  private async fetchAll(signal: AbortSignal): Promise<{ outcome: SyncOutcome<TItem>; wasLong: boolean }> {
    const { source, tokens, tokenKey } = this.options;
    let token = tokens.get(tokenKey);
    if (!token) {
      // First run for this account: start from now; there is nothing "new" yet.
      this.requestCount++;
      token = await source.startToken(signal);
      await tokens.set(tokenKey, token);
      return { outcome: { changes: [], tokenReset: false }, wasLong: false };
    }
    const changes: TItem[] = [];
    let pageToken = token;
    let wasLong = false;
    for (let pages = 0; pages < this.schedule.maxPagesPerPoll; pages++) {
      const waitSeconds = pages === 0 && this.longPollAvailable && !this.pushActive && this.isActive() ? this.schedule.longPollSeconds : undefined;
      if (waitSeconds !== undefined) wasLong = true;
      this.inFlightIsLong = waitSeconds !== undefined;
      let page: SyncPage<TItem>;
      try {
        this.requestCount++;
        page = await source.listPage(waitSeconds === undefined ? { pageToken, signal } : { pageToken, waitSeconds, signal });
      } catch (error) {
        if (!signal.aborted && this.options.isInvalidToken?.(error)) {
          this.requestCount++;
          const fresh = await source.startToken(signal);
          await tokens.set(tokenKey, fresh);
          return { outcome: { changes, tokenReset: true }, wasLong: false };
        }
        throw error;
      }
      if (page.longPollAvailable !== undefined) this.longPollAvailable = page.longPollAvailable;
      appendAll(changes, page.items);
      if (page.nextPageToken) {
        pageToken = page.nextPageToken;
        continue;
      }
      // Persist only at the end, so a crash mid-way re-reads the pages rather than skipping them.
      await tokens.set(tokenKey, page.resumeToken ?? pageToken);
      return { outcome: { changes, tokenReset: false }, wasLong };
    }
    // Too many pages for one poll: keep our place and continue on the next tick.
    await tokens.set(tokenKey, pageToken);
    return { outcome: { changes, tokenReset: false }, wasLong };
  }
}
