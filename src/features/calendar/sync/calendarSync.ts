/**
 * One sync-engine poller (core/sync/poller.ts) per calendar the Agenda follows, over the EventStore's sources: the
 * engine decides when to poll (focus, activity, backoff), the store applies what changed. Calendar has no long poll,
 * so the quiet schedule is slower than Drive's: Google counts every listing against the quota.
 */
import { GoogleApiError } from '../../../api/errors';
import { Clock, PollerSchedule, SyncPoller } from '../../../core/sync/poller';
import type { CalendarEvent } from '../../../shared/schemas/calendar';
import { EventStore, isExpiredSyncToken } from './eventStore';

export const CALENDAR_SCHEDULE: Partial<PollerSchedule> = { activeMs: 30_000, idleStartMs: 60_000, maxIdleMs: 5 * 60_000 };

export interface CalendarSyncOptions {
  readonly store: EventStore;
  readonly focused: () => boolean;
  readonly onError: (calendarId: string, error: unknown) => void;
  readonly onSignedOut: () => void;
  readonly clock?: Clock;
  readonly schedule?: Partial<PollerSchedule>;
}

export class CalendarSync {
  private readonly pollers = new Map<string, SyncPoller<CalendarEvent>>();

  constructor(private readonly options: CalendarSyncOptions) {}

  get calendars(): string[] {
    return [...this.pollers.keys()];
  }

  /** Polls exactly these calendars: new ones start, ones no longer followed stop. */
  follow(calendarIds: readonly string[]): void {
    const wanted = new Set(calendarIds);
    for (const [id, poller] of this.pollers) {
      if (!wanted.has(id)) {
        poller.stop();
        this.pollers.delete(id);
      }
    }
    for (const id of wanted) {
      if (this.pollers.has(id)) continue;
      const poller = new SyncPoller<CalendarEvent>({
        source: this.options.store.source(id),
        tokens: this.options.store,
        tokenKey: id,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
        schedule: { ...CALENDAR_SCHEDULE, ...this.options.schedule },
        // A reset already reloaded the calendar in full (startToken is the full load).
        onChanges: (outcome) => {
          if (!outcome.tokenReset) this.options.store.apply(id, outcome.changes);
        },
        onError: (error) => { this.options.onError(id, error); },
        isInvalidToken: isExpiredSyncToken,
        isSignedOutError: (error) => {
          const signedOut = error instanceof GoogleApiError && error.status === 401;
          if (signedOut) this.options.onSignedOut();
          return signedOut;
        },
      });
      this.pollers.set(id, poller);
      poller.setFocused(this.options.focused());
      poller.setSignedIn(true);
      // A calendar just read in full (the Agenda's load) has a fresh token: its first sync waits one interval from
      // that read instead of asking again at once.
      const sinceLoad = this.options.store.msSinceFullLoad(id);
      poller.start(sinceLoad === undefined ? 0 : Math.max(0, poller.nextDelay(false, false) - sinceLoad));
    }
  }

  stopAll(): void {
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
  }

  setFocused(focused: boolean): void {
    for (const poller of this.pollers.values()) poller.setFocused(focused);
  }

  noteActivity(): void {
    for (const poller of this.pollers.values()) poller.noteActivity();
  }

  pollNow(): void {
    for (const poller of this.pollers.values()) poller.pollNow();
  }

  state(): Record<string, string> {
    return Object.fromEntries([...this.pollers].map(([id, poller]) => [id, poller.state]));
  }
}
