/**
 * In-memory indexes of one calendar's events, rebuilt from the store on first use: single events and exceptions
 * sorted by start (a one-week window on 10,000 events is two binary searches), recurring series apart with their
 * expanded occurrences cached per version, exceptions by series and original start, and the change log for sync.
 */
import type { EventType } from '../../../shared/schemas/calendar';
import { ChangeLog } from '../sync';
import { DAY_MS, HOUR_MS, utcToWall, wallToUtc } from '../time';
import { TimeSlices } from '../../core/slices';
import { recurrenceFrom, REQUEST_BUDGET, SeriesExpansion, SYNC_BUDGET, WorkBudget } from './expansion';
import { SeriesStart, storedRecurrence } from './recurrence';
import type { EventBody, EventTiming } from './rules';
import { lowerBound } from '../../../shared/sorted';
import { addTo, removeFrom } from '../../core/multimap';

export type EventStatus = 'confirmed' | 'tentative' | 'cancelled';

export interface StoredEvent {
  calendarId: string;
  id: string;
  seq: number;
  etag: string;
  created: number;
  updated: number;
  status: EventStatus;
  iCalUID: string;
  sequence: number;
  eventType: EventType;
  organizer: { email: string; displayName?: string };
  creator: { email: string; displayName?: string };
  body: EventBody;
  timing: EventTiming;
  hangoutLink?: string;
  /** For an exception: the series it belongs to, and the original start it replaces (instant, or wall date if all-day). */
  recurringEventId?: string;
  originalStart?: number;
}

/** An instance of a series that has no exception of its own. */
export interface VirtualInstance {
  id: string;
  originalStart: number;
  /** Instants (all-day: wall midnights, like the series' timing). */
  startMs: number;
  endMs: number;
}

/** What a listing shows: a stored event, or a generated instance of a stored series. */
export interface EventView {
  event: StoredEvent;
  instance?: VirtualInstance;
}

/** Longest a zone's offset can be: widens wall/instant comparisons so no all-day event is missed. */
const ZONE_SLACK_MS = 14 * HOUR_MS;
/** How far an endless series is expanded when nothing bounds the request. */
export const DEFAULT_HORIZON_MS = 5 * 365 * DAY_MS;
/** The instants a zone's clock can be read at (Date's range less a day either side). */
const MIN_INSTANT = -8.64e15 + DAY_MS;
const MAX_INSTANT = 8.64e15 - DAY_MS;
/** An endless series is expanded this far beyond what was asked, so requests that creep forward hit the cache. */
const EXPANSION_HEADROOM_MS = 31 * DAY_MS;

export function isRecurring(event: StoredEvent): boolean {
  return (event.body.recurrence?.length ?? 0) > 0 && event.recurringEventId === undefined;
}

/** What a listing may rely on of a series' instances. */
export interface Expansion {
  /** How many original starts are known. */
  readonly count: number;
  /**
   * The original start at `index`, in order: an instant for a timed series, a wall midnight for an all-day one.
   * Converted when asked (a zone's offset may cost an Intl lookup): a series known to the year 9999 must not be
   * converted whole, holding the server, for a listing that reads a few of its instances or refuses the window.
   */
  startAt(index: number): number;
  /** Every original start before this instant is in `starts` (Infinity when the series is fully known). */
  coveredUntilUtc: number;
  complete: boolean;
  /** Whether the series ends (COUNT or UNTIL on every rule): such a series is listed to its end. */
  bounded: boolean;
}

interface CachedExpansion {
  etag: string;
  zone: string;
  series: SeriesStart;
  growing: SeriesExpansion;
  bounded: boolean;
  result?: Expansion;
  resultCovered?: number;
}

interface TimelineEntry {
  key: number;
  id: string;
}

function compareEntries(a: TimelineEntry, b: TimelineEntry): number {
  return a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class CalendarEvents {
  readonly byId = new Map<string, StoredEvent>();
  readonly series = new Set<string>();
  /** Series id → original start → exception id. */
  readonly exceptions = new Map<string, Map<number, string>>();
  readonly log = new ChangeLog();
  lastPurgeCheck = 0;
  /** iCalUID → ids of the events that carry it (a series and its exceptions share one), in insertion order. */
  private readonly byICalUID = new Map<string, Set<string>>();
  private timeline: TimelineEntry[] = [];
  private readonly keys = new Map<string, number>();
  private readonly expansions = new Map<string, CachedExpansion>();
  private maxSpanMs = DAY_MS;

  /** Files an event under its current times (call `remove` first when an indexed event changes). */
  add(event: StoredEvent): void {
    this.byId.set(event.id, event);
    addTo(this.byICalUID, event.iCalUID, event.id);
    if (event.recurringEventId !== undefined && event.originalStart !== undefined) {
      let byStart = this.exceptions.get(event.recurringEventId);
      if (!byStart) {
        byStart = new Map();
        this.exceptions.set(event.recurringEventId, byStart);
      }
      byStart.set(event.originalStart, event.id);
    }
    if (isRecurring(event)) {
      this.series.add(event.id);
      return;
    }
    const entry = { key: event.timing.startMs, id: event.id };
    this.timeline.splice(lowerBound(this.timeline, (item) => compareEntries(item, entry) < 0), 0, entry);
    this.keys.set(event.id, entry.key);
    this.maxSpanMs = Math.max(this.maxSpanMs, event.timing.endMs - event.timing.startMs);
  }

  remove(event: StoredEvent): void {
    this.series.delete(event.id);
    this.expansions.delete(event.id);
    const key = this.keys.get(event.id);
    if (key !== undefined) {
      const index = lowerBound(this.timeline, (item) => compareEntries(item, { key, id: event.id }) < 0);
      if (this.timeline[index]?.id === event.id) this.timeline.splice(index, 1);
      this.keys.delete(event.id);
    }
  }

  forget(event: StoredEvent): void {
    this.remove(event);
    this.byId.delete(event.id);
    removeFrom(this.byICalUID, event.iCalUID, event.id);
    this.log.forget(event.id);
    if (event.recurringEventId !== undefined && event.originalStart !== undefined) this.exceptions.get(event.recurringEventId)?.delete(event.originalStart);
  }

  /** The events carrying an iCalUID, as stored (an index: events.insert and import no longer scan the calendar). */
  withICalUID(iCalUID: string): StoredEvent[] {
    const found: StoredEvent[] = [];
    for (const id of this.byICalUID.get(iCalUID) ?? []) {
      const event = this.byId.get(id);
      if (event) found.push(event);
    }
    return found;
  }

  /** Single events and exceptions that may overlap [fromUtc, toUtc); the caller checks precisely. */
  candidates(fromUtc: number, toUtc: number): StoredEvent[] {
    const low = fromUtc - this.maxSpanMs - ZONE_SLACK_MS;
    const high = toUtc + ZONE_SLACK_MS;
    const found: StoredEvent[] = [];
    for (let index = lowerBound(this.timeline, (item) => item.key < low); index < this.timeline.length; index++) {
      const entry = this.timeline[index];
      if (entry.key >= high) break;
      found.push(this.byId.get(entry.id) as StoredEvent);
    }
    return found;
  }

  /** Every single event and exception in start order. */
  singles(): StoredEvent[] {
    return this.timeline.map((entry) => this.byId.get(entry.id) as StoredEvent);
  }

  dropExpansions(): void {
    this.expansions.clear();
  }

  /**
   * Original starts of a series up to `untilUtc` (at least; a series that ends, to its end), cached per etag and grown
   * on demand. Work is bounded (see expansion.ts): what could not be expanded shows in `coveredUntilUtc`.
   */
  originalStarts(master: StoredEvent, calendarZone: string, untilUtc: number, budget?: WorkBudget): Expansion {
    const cached = this.cachedExpansion(master, calendarZone);
    const target = this.targetWall(cached, untilUtc);
    const state = cached.growing.current.covered > target ? cached.growing.current : cached.growing.extendSync(target, budget ?? { candidates: SYNC_BUDGET });
    return this.resultOf(cached, state);
  }

  /**
   * Original starts of a series from `fromUtc` on, expanded afresh from there rather than from the series' start
   * (expansion.ts `recurrenceFrom`: a sub-daily series far from its start, which a listing could otherwise not
   * reach), until `untilUtc` is covered, `enough` starts at or after `fromUtc` are known, or the budget runs out.
   * Undefined when the series cannot be expanded that way. Not cached: each page of a listing asks for its own part.
   */
  startsFrom(master: StoredEvent, calendarZone: string, fromUtc: number, untilUtc: number, budget: WorkBudget, enough = Number.POSITIVE_INFINITY): Expansion | undefined {
    const cached = this.cachedExpansion(master, calendarZone);
    if (!Number.isFinite(fromUtc)) return undefined;
    const exactWall = utcToWall(cached.zone, Math.min(Math.max(fromUtc, MIN_INSTANT), MAX_INSTANT));
    // A wall time is within a day of its instant: a day earlier misses nothing.
    const fromWall = exactWall - DAY_MS;
    if (fromWall <= cached.series.startWall) return undefined;
    const parsed = recurrenceFrom(storedRecurrence(master.body.recurrence ?? [], cached.series), fromWall);
    if (!parsed) return undefined;
    const fresh: CachedExpansion = { etag: cached.etag, zone: cached.zone, series: cached.series, bounded: cached.bounded, growing: new SeriesExpansion(parsed, cached.series) };
    const target = Number.isFinite(untilUtc) ? utcToWall(cached.zone, Math.min(untilUtc, MAX_INSTANT)) + DAY_MS : Number.MAX_SAFE_INTEGER;
    let reach = fromWall + 2 * DAY_MS;
    for (;;) {
      const state = fresh.growing.extendSync(Math.min(reach, target), budget);
      const known = state.walls.length - lowerBound(state.walls, (wall) => wall < exactWall);
      if (state.covered > target || known >= enough || state.capped || budget.candidates <= 0 || reach >= target) return this.resultOf(fresh, state);
      reach = fromWall + (reach - fromWall) * 4;
    }
  }

  /**
   * Grows the expansions of the given series (every series by default) to cover `untilUtc` ahead of a listing,
   * yielding to other requests while it works; the listing then finds them expanded. One budget for them all: what is
   * left of it is returned, for the listing to spend (so a request's expansion work is bounded however many series).
   */
  async prepare(calendarZone: string, untilUtc: (series: StoredEvent) => number, ids: Iterable<string> = this.series, budget: WorkBudget = { candidates: REQUEST_BUDGET }, fromUtc = Number.NEGATIVE_INFINITY): Promise<WorkBudget> {
    const slices = new TimeSlices();
    for (const id of [...ids]) {
      const master = this.byId.get(id);
      if (!master || !isRecurring(master)) continue;
      const cached = this.cachedExpansion(master, calendarZone);
      const until = untilUtc(master);
      const target = this.targetWall(cached, until);
      const state = cached.growing.current.covered <= target ? await cached.growing.extend(target, budget, slices) : cached.growing.current;
      if (!cached.series.allDay && state.covered > target) await this.measureOffsets(cached, state.walls, fromUtc, until, slices);
      await slices.pause();
    }
    return budget;
  }

  /**
   * Converts, yielding every few milliseconds, the series' walls a listing of [fromUtc, untilUtc] will convert to
   * instants: each new week of a zone costs an Intl lookup (a few microseconds), and 20,000 instances in a window
   * would otherwise hold the server while the listing converts them. The zone's offsets stay cached (time.ts).
   */
  private async measureOffsets(cached: CachedExpansion, walls: readonly number[], fromUtc: number, untilUtc: number, slices: TimeSlices): Promise<void> {
    const fromWall = Number.isFinite(fromUtc) ? utcToWall(cached.zone, Math.max(fromUtc, MIN_INSTANT)) - DAY_MS : Number.NEGATIVE_INFINITY;
    const untilWall = Number.isFinite(untilUtc) ? utcToWall(cached.zone, Math.min(untilUtc, MAX_INSTANT)) + DAY_MS : Number.POSITIVE_INFINITY;
    for (let index = lowerBound(walls, (wall) => wall < fromWall); index < walls.length && (walls[index]) <= untilWall; index++) {
      wallToUtc(cached.zone, walls[index]);
      if ((index & 0x3f) === 0) await slices.pause();
    }
  }

  private cachedExpansion(master: StoredEvent, calendarZone: string): CachedExpansion {
    const zone = master.timing.zone ?? calendarZone;
    const cached = this.expansions.get(master.id);
    if (cached && cached.etag === master.etag && cached.zone === zone) return cached;
    const series: SeriesStart = {
      allDay: master.timing.allDay,
      zone,
      startWall: master.timing.allDay ? master.timing.startMs : utcToWall(zone, master.timing.startMs),
    };
    const parsed = storedRecurrence(master.body.recurrence ?? [], series);
    const fresh: CachedExpansion = { etag: master.etag, zone, series, growing: new SeriesExpansion(parsed, series), bounded: parsed.bounded };
    this.expansions.set(master.id, fresh);
    return fresh;
  }

  /** How far to expand for `untilUtc`: a bounded series to its end, an endless one a little beyond what was asked. */
  private targetWall(cached: CachedExpansion, untilUtc: number): number {
    if (cached.bounded) return Number.MAX_SAFE_INTEGER;
    return Math.max(utcToWall(cached.zone, Math.min(untilUtc, 253402300799000)) + DAY_MS, cached.series.startWall) + EXPANSION_HEADROOM_MS;
  }

  private resultOf(cached: CachedExpansion, state: { walls: number[]; covered: number; complete: boolean }): Expansion {
    if (cached.result && cached.resultCovered === state.covered) return cached.result;
    const { zone, series } = cached;
    const walls = state.walls;
    const startAt = series.allDay ? (index: number): number => walls[index] : (index: number): number => wallToUtc(zone, walls[index]);
    // A wall time is within a day of its instant, whatever the zone: a day less is a safe bound.
    const coveredUntilUtc = Number.isFinite(state.covered) ? state.covered - DAY_MS : Number.POSITIVE_INFINITY;
    cached.result = { count: walls.length, startAt, coveredUntilUtc, complete: state.complete, bounded: cached.bounded };
    cached.resultCovered = state.covered;
    return cached.result;
  }
}

