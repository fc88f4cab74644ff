/**
 * Instances of recurring events: Google's instance ids (`<id>_<YYYYMMDDTHHMMSSZ>`, all-day `<id>_<YYYYMMDD>`), the
 * generated instances of a series within a window, and where exceptions (modified or cancelled instances) replace
 * them. Exceptions are stored events of their own; these functions only decide which instance is which.
 */
import { ApiError } from '../../core/errors';
import { SYNC_BUDGET, type WorkBudget } from './expansion';
import { basicDate, basicUtc, DAY_MS, wallToUtc } from '../time';
import { firstIndex } from '../../../shared/sorted';
import { CalendarEvents, DEFAULT_HORIZON_MS, EventView, StoredEvent, VirtualInstance } from './timeline';

/** The id of the instance of `seriesId` originally starting at `originalStart` (instant, or wall date if all-day). */
export function instanceId(seriesId: string, originalStart: number, allDay: boolean): string {
  return `${seriesId}_${allDay ? basicDate(originalStart) : basicUtc(originalStart)}`;
}

/** Splits an instance id into its series id and original start; undefined for an ordinary id. */
export function parseInstanceId(id: string): { seriesId: string; originalStart: number; allDay: boolean } | undefined {
  const match = /^(.+)_(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(id);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[2]), Number(match[3]) - 1, Number(match[4])];
  if (match.at(5) === undefined) return { seriesId: match[1], originalStart: Date.UTC(year, month, day), allDay: true };
  return { seriesId: match[1], originalStart: Date.UTC(year, month, day, Number(match[5]), Number(match[6]), Number(match[7])), allDay: false };
}

/** An event's real span as instants; all-day events span their dates in the calendar's zone. */
export function spanOf(startMs: number, endMs: number, allDay: boolean, calendarZone: string): { start: number; end: number } {
  if (!allDay) return { start: startMs, end: endMs };
  return { start: wallToUtc(calendarZone, startMs), end: wallToUtc(calendarZone, endMs) };
}

/**
 * A window that holds more of one series than the emulator expands (a series of every second over years, or a
 * rule that matches almost never, listed to year 9999). Refused rather than cut short: a listing never drops
 * instances silently. Google documents no such limit for events.list; the reason and wording are the ones Google
 * gives freebusy.query for a window it will not compute, `timeRangeTooLong`.
 */
export function recurrenceTooLarge(): ApiError {
  return new ApiError(400, 'timeRangeTooLong', 'The requested time range is too long for the recurring events in it. Narrow timeMin and timeMax.', { domain: 'calendar', location: 'timeMax', locationType: 'parameter' });
}

/** Where an instance listing of a series stops when nothing bounds it: an endless series at the horizon past now. */
export function listingHorizon(series: StoredEvent, calendarZone: string, query: Pick<InstanceQuery, 'toUtc' | 'now'>): number {
  const seriesStart = spanOf(series.timing.startMs, series.timing.endMs, series.timing.allDay, calendarZone).start;
  return query.toUtc ?? Math.max(query.now, seriesStart) + DEFAULT_HORIZON_MS;
}

export interface InstanceQuery {
  /** The expansion work this may still do (a request's budget, left over from its expansions ahead); a small one by default. */
  budget?: WorkBudget;
  fromUtc?: number;
  toUtc?: number;
  /** Where an endless series stops when `toUtc` is absent. */
  now: number;
}

/** The series' instance starting originally at `originalStart`, generated from the series; undefined if it has none. */
export function generatedInstance(events: CalendarEvents, series: StoredEvent, calendarZone: string, originalStart: number): VirtualInstance | undefined {
  const horizon = (series.timing.allDay ? wallToUtc(calendarZone, originalStart) : originalStart) + DAY_MS;
  const expansion = events.originalStarts(series, calendarZone, horizon);
  if (expansion.coveredUntilUtc < originalStart) throw recurrenceTooLarge();
  const index = firstIndex(expansion.count, (at) => expansion.startAt(at) < originalStart);
  if (index >= expansion.count || expansion.startAt(index) !== originalStart) return undefined;
  return virtual(series, originalStart);
}

/** A generated instance; its id is written when first read (a listing makes thousands and renders a page of them). */
class GeneratedInstance implements VirtualInstance {
  readonly startMs: number;
  readonly endMs: number;
  private writtenId: string | undefined;

  constructor(private readonly series: StoredEvent, readonly originalStart: number) {
    this.startMs = originalStart;
    this.endMs = originalStart + series.timing.endMs - series.timing.startMs;
  }

  get id(): string {
    this.writtenId ??= instanceId(this.series.id, this.originalStart, this.series.timing.allDay);
    return this.writtenId;
  }
}

function virtual(series: StoredEvent, originalStart: number): VirtualInstance {
  return new GeneratedInstance(series, originalStart);
}

/**
 * The generated instances of a series overlapping [fromUtc, toUtc) that no exception replaces, as original starts and
 * real spans, in order: what a listing makes views of, and all free/busy needs (no ids or objects per instance).
 */
export function generatedSpans(events: CalendarEvents, series: StoredEvent, calendarZone: string, query: InstanceQuery): { spans: { original: number; start: number; end: number }[]; until: number } {
  const horizon = listingHorizon(series, calendarZone, query);
  const from = query.fromUtc ?? Number.NEGATIVE_INFINITY;
  let expansion = events.originalStarts(series, calendarZone, horizon, query.budget);
  // A series that ends is listed to its end; only an endless one stops at the horizon.
  const until = query.toUtc ?? (expansion.bounded ? Number.POSITIVE_INFINITY : horizon);
  if (until > expansion.coveredUntilUtc) {
    // Far from its start, a sub-daily series is expanded afresh from the window: the work follows the window's size.
    const ahead = Number.isFinite(until) ? events.startsFrom(series, calendarZone, from, until, query.budget ?? { candidates: SYNC_BUDGET }) : undefined;
    if (!ahead || until > ahead.coveredUntilUtc) throw recurrenceTooLarge();
    expansion = ahead;
  }
  const duration = series.timing.endMs - series.timing.startMs;
  const exceptions = events.exceptions.get(series.id);
  const spans: { original: number; start: number; end: number }[] = [];
  // Skip ahead to the first that can still overlap the window.
  const slack = series.timing.allDay ? 2 * DAY_MS : 0;
  for (let index = firstIndex(expansion.count, (at) => expansion.startAt(at) + duration + slack <= from); index < expansion.count; index++) {
    const original = expansion.startAt(index);
    const span = spanOf(original, original + duration, series.timing.allDay, calendarZone);
    if (span.start >= until) break;
    if (span.end <= from && !(span.start === span.end && span.start >= from)) continue;
    if (exceptions?.has(original)) continue;
    spans.push({ original, ...span });
  }
  return { spans, until };
}

/**
 * The instances of a series overlapping [fromUtc, toUtc): generated ones, and its exceptions (which keep their own,
 * possibly moved, times). Cancelled exceptions only with `showDeleted`. In start order.
 */
export function instancesOf(events: CalendarEvents, series: StoredEvent, calendarZone: string, query: InstanceQuery & { showDeleted: boolean; withExceptions: boolean }): EventView[] {
  const { spans, until } = generatedSpans(events, series, calendarZone, query);
  const views: { at: number; view: EventView }[] = spans.map((span) => ({ at: span.start, view: { event: series, instance: virtual(series, span.original) } }));
  const exceptions = events.exceptions.get(series.id);
  if (query.withExceptions && exceptions) {
    const from = query.fromUtc ?? Number.NEGATIVE_INFINITY;
    for (const exceptionId of exceptions.values()) {
      const exception = events.byId.get(exceptionId);
      if (!exception || (exception.status === 'cancelled' && !query.showDeleted)) continue;
      const span = spanOf(exception.timing.startMs, exception.timing.endMs, exception.timing.allDay, calendarZone);
      if (span.start < until && (span.end > from || (span.start === span.end && span.start >= from))) views.push({ at: span.start, view: { event: exception } });
    }
  }
  return views.sort((a, b) => a.at - b.at).map((entry) => entry.view);
}

/** How far `seriesBounds` expands a series: a day past now (or past its start), enough to know whether it ends. */
export function seriesBoundsHorizon(series: StoredEvent, calendarZone: string, now: number): number {
  return Math.max(now, spanOf(series.timing.startMs, series.timing.endMs, series.timing.allDay, calendarZone).start) + DAY_MS;
}

/** The first and last instant any instance of a series covers (Infinity for an endless series). */
export function seriesBounds(events: CalendarEvents, series: StoredEvent, calendarZone: string, now: number, budget?: WorkBudget): { start: number; end: number } {
  const first = spanOf(series.timing.startMs, series.timing.endMs, series.timing.allDay, calendarZone);
  const expansion = events.originalStarts(series, calendarZone, seriesBoundsHorizon(series, calendarZone, now), budget);
  if (!expansion.complete) return { start: first.start, end: Number.POSITIVE_INFINITY };
  const last = expansion.count > 0 ? expansion.startAt(expansion.count - 1) : series.timing.startMs;
  const duration = series.timing.endMs - series.timing.startMs;
  return { start: first.start, end: spanOf(last, last + duration, series.timing.allDay, calendarZone).end };
}
