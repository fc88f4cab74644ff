/**
 * freebusy.query: for each calendar asked about, the merged busy intervals of its opaque, non-cancelled events
 * (recurring ones expanded, declined invitations skipped), clipped to the window. A calendar the caller cannot see
 * gets `errors: [{domain: 'global', reason: 'notFound'}]` instead of failing the whole query; groups expand to their
 * members' primary calendars. Limits: calendarExpansionMax ≤ 50, groupExpansionMax ≤ 100, a window of at most 90 days.
 */
import { FREEBUSY_LIMITS, FreeBusyRequestInput } from '../../../shared/schemas/calendar';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, invalid, required } from '../../core/errors';
import { atLeast } from '../access';
import { DEMO_GROUPS } from '../acl/model';
import { TimeSlices } from '../../core/slices';
import { REQUEST_BUDGET, WorkBudget } from '../events/expansion';
import { generatedSpans, spanOf } from '../events/instances';
import type { CalendarService } from '../service';
import { DAY_MS, formatDateTime, isValidTimeZone, parseDateTime } from '../time';
import { appendAll } from '../../../shared/arrays';

interface FreeBusyError {
  domain: string;
  reason: string;
}

export interface FreeBusyResult {
  kind: 'calendar#freeBusy';
  timeMin: string;
  timeMax: string;
  calendars: Record<string, { busy: { start: string; end: string }[]; errors?: FreeBusyError[] }>;
  groups?: Record<string, { calendars?: string[]; errors?: FreeBusyError[] }>;
}

/** Sorted, merged intervals: overlapping or touching ones become one. */
export function mergeIntervals(intervals: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...intervals].filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function timestamp(name: 'timeMin' | 'timeMax', value: string | null | undefined): number {
  if (!value) throw required(name, 'body');
  const parsed = /([Zz]|[+-]\d{2}:?\d{2})$/.test(value) ? parseDateTime(value, undefined) : undefined;
  if (parsed === undefined) throw invalid(`Invalid value for ${name}: '${value}' is not an RFC 3339 timestamp with a time zone offset`, name, 'body');
  return parsed;
}

export class FreeBusyModel {
  constructor(private readonly service: CalendarService) {}

  /** freebusy.query, computed in one go (the model's callers and tests). */
  query(user: EmulatorUser, request: FreeBusyRequestInput): FreeBusyResult {
    const steps = this.steps(user, request);
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
    }
  }

  /**
   * freebusy.query as the server answers it: the recurring events expanded ahead while yielding, then one calendar
   * at a time with other requests let in between (50 calendars of series over 89 days took seconds in one go).
   */
  async answer(user: EmulatorUser, request: FreeBusyRequestInput): Promise<FreeBusyResult> {
    const budget = await this.prepare(user, request);
    const steps = this.steps(user, request, budget);
    const slices = new TimeSlices();
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      await slices.pause();
    }
  }

  /** The query's work, pausing (yield) after each calendar. */
  private *steps(user: EmulatorUser, request: FreeBusyRequestInput, budget?: WorkBudget): Generator<void, FreeBusyResult> {
    const from = timestamp('timeMin', request.timeMin);
    const to = timestamp('timeMax', request.timeMax);
    if (to <= from) throw new ApiError(400, 'timeRangeEmpty', 'The specified time range is empty.', { domain: 'calendar', location: 'timeMax', locationType: 'body' });
    if (to - from > FREEBUSY_LIMITS.maxRangeDays * DAY_MS) {
      throw new ApiError(400, 'timeRangeTooLong', 'The requested time range is too long.', { domain: 'calendar', location: 'timeMax', locationType: 'body' });
    }
    const zone = request.timeZone ?? 'UTC';
    if (!isValidTimeZone(zone)) throw invalid(`Invalid time zone: ${zone}`, 'timeZone', 'body');
    const calendarMax = request.calendarExpansionMax ?? FREEBUSY_LIMITS.calendarExpansionMax;
    const groupMax = request.groupExpansionMax ?? FREEBUSY_LIMITS.groupExpansionMax;

    const result: FreeBusyResult = { kind: 'calendar#freeBusy', timeMin: formatDateTime(from, zone), timeMax: formatDateTime(to, zone), calendars: {} };
    const wanted: string[] = [];
    for (const [index, item] of (request.items ?? []).entries()) {
      if (!item.id) throw required(`items[${index}].id`, 'body');
      const members = DEMO_GROUPS[item.id.toLowerCase()];
      if (!members) {
        wanted.push(item.id);
        continue;
      }
      result.groups ??= {};
      if (members.length > groupMax) result.groups[item.id] = { errors: [{ domain: 'global', reason: 'groupTooBig' }] };
      else {
        result.groups[item.id] = { calendars: [...members] };
        appendAll(wanted, members);
      }
    }
    let answered = 0;
    for (const id of wanted) {
      if (result.calendars[id]) continue;
      if (answered >= calendarMax) {
        result.calendars[id] = { busy: [], errors: [{ domain: 'global', reason: 'tooManyCalendarsRequested' }] };
        continue;
      }
      answered++;
      const busy = this.busyOf(user, id, from, to, budget);
      result.calendars[id] = busy === undefined || busy === 'internalError'
        ? { busy: [], errors: [{ domain: 'global', reason: busy ?? 'notFound' }] }
        : { busy: busy.map(([start, end]) => ({ start: formatDateTime(start, zone), end: formatDateTime(end, zone) })) };
      yield;
    }
    return result;
  }

  /**
   * Expands, ahead of `query`, the recurring events of every calendar it will read, yielding to other requests while
   * it works (50 calendars of series over 90 days must not hold the server). A request `query` will refuse is left
   * for it to refuse.
   */
  private async prepare(user: EmulatorUser, request: FreeBusyRequestInput): Promise<WorkBudget> {
    const budget = { candidates: REQUEST_BUDGET };
    let from: number;
    let to: number;
    try {
      from = timestamp('timeMin', request.timeMin);
      to = timestamp('timeMax', request.timeMax);
    } catch {
      return budget;
    }
    const ids = new Set<string>();
    for (const item of request.items ?? []) {
      if (!item.id) continue;
      for (const id of DEMO_GROUPS[item.id.toLowerCase()] ?? [item.id]) ids.add(id);
    }
    for (const id of [...ids].slice(0, FREEBUSY_LIMITS.calendarExpansionMax + FREEBUSY_LIMITS.groupExpansionMax)) {
      const calendar = this.visibleCalendar(user, id);
      if (calendar) await this.service.events.of(calendar.id).prepare(calendar.timeZone, () => to, undefined, budget, from);
    }
    return budget;
  }

  private visibleCalendar(user: EmulatorUser, calendarId: string): ReturnType<CalendarService['calendars']['find']> {
    this.service.calendars.ensurePrimary(user);
    const calendar = this.service.calendars.find(this.service.calendars.resolveId(user, calendarId));
    return calendar && atLeast(this.service.acl.roleOf(user, calendar), 'freeBusyReader') ? calendar : undefined;
  }

  /** Merged busy intervals of one calendar within [from, to), or undefined when the caller may not see it. */
  busyOf(user: EmulatorUser, calendarId: string, from: number, to: number, budget?: WorkBudget): [number, number][] | 'internalError' | undefined {
    const calendar = this.visibleCalendar(user, calendarId);
    if (!calendar) return undefined;
    const events = this.service.events.of(calendar.id);
    const zone = calendar.timeZone;
    const intervals: [number, number][] = [];
    const blocks = (event: { status: string; body: { transparency?: string | null; attendees?: { email?: string | null; responseStatus?: string | null }[] | null } }): boolean =>
      event.status !== 'cancelled' && event.body.transparency !== 'transparent' &&
      !(event.body.attendees ?? []).some((attendee) => attendee.email === calendar.id && attendee.responseStatus === 'declined');
    for (const event of events.candidates(from, to)) {
      if (!blocks(event)) continue;
      const span = spanOf(event.timing.startMs, event.timing.endMs, event.timing.allDay, zone);
      if (span.start < to && span.end > from) intervals.push([Math.max(span.start, from), Math.min(span.end, to)]);
    }
    for (const id of events.series) {
      const series = events.byId.get(id);
      if (!series || !blocks(series)) continue;
      let spans: ReturnType<typeof generatedSpans>['spans'];
      try {
        spans = generatedSpans(events, series, zone, { now: this.service.now(), fromUtc: from, toUtc: to, ...(budget ? { budget } : {}) }).spans;
      } catch (error) {
        // More instances in the window than the emulator expands: this calendar answers Google's per-calendar error.
        if (error instanceof ApiError && error.reason === 'timeRangeTooLong') return 'internalError';
        throw error;
      }
      for (const span of spans) intervals.push([Math.max(span.start, from), Math.min(span.end, to)]);
    }
    return mergeIntervals(intervals);
  }
}
