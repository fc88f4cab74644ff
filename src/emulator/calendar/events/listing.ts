/**
 * events.list and events.instances: time windows (from the start-sorted index), recurring series as one event or
 * expanded (singleEvents), the filters (q, iCalUID, updatedMin, eventTypes, extended properties, showDeleted), the two
 * orderings, paging, and incremental sync with Google's forbidden parameter combinations and its 410 for old tokens.
 */
import { createHash } from 'node:crypto';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, invalid } from '../../core/errors';
import type { StoredCalendar } from '../calendars/model';
import type { CalendarService } from '../service';
import { TimeSlices } from '../../core/slices';
import { decodePageToken, encodePageToken } from '../../core/paging';
import { firstIndex } from '../../../shared/sorted';
import { decodeSyncToken, encodeSyncToken, syncedPage } from '../sync';
import { REQUEST_BUDGET, type WorkBudget } from './expansion';
import { instancesOf, listingHorizon, recurrenceTooLarge, seriesBounds, seriesBoundsHorizon, spanOf } from './instances';
import { CalendarEvents, EventView, isRecurring, StoredEvent } from './timeline';
import { appendAll } from '../../../shared/arrays';

export interface EventListOptions {
  maxResults: number;
  pageToken?: string;
  syncToken?: string;
  timeMin?: number;
  timeMax?: number;
  updatedMin?: number;
  q?: string;
  iCalUID?: string;
  orderBy?: 'startTime' | 'updated';
  showDeleted: boolean;
  singleEvents: boolean;
  eventTypes: readonly string[];
  privateExtendedProperty: readonly string[];
  sharedExtendedProperty: readonly string[];
}

export interface EventListResult {
  calendar: StoredCalendar;
  role: ReturnType<CalendarService['acl']['roleOf']>;
  views: EventView[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

function timeRangeEmpty(): ApiError {
  return new ApiError(400, 'timeRangeEmpty', 'The specified time range is empty.', { domain: 'calendar', location: 'timeMax', locationType: 'parameter' });
}

/** Where a listed event starts, as an instant (ordering key). */
function startOf(view: EventView, calendarZone: string): number {
  const timing = view.event.timing;
  const start = view.instance ? view.instance.startMs : timing.startMs;
  return timing.allDay ? spanOf(start, start, true, calendarZone).start : start;
}

function overlaps(event: StoredEvent, calendarZone: string, from: number | undefined, to: number | undefined): boolean {
  const span = spanOf(event.timing.startMs, event.timing.endMs, event.timing.allDay, calendarZone);
  if (to !== undefined && span.start >= to) return false;
  // timeMin bounds the end (exclusive); a zero-length event at timeMin still counts.
  return from === undefined || span.end > from || (span.start === span.end && span.start >= from);
}

function matchesText(event: StoredEvent, terms: readonly string[]): boolean {
  const body = event.body;
  const haystack = [
    body.summary, body.description, body.location, event.organizer.email, event.organizer.displayName,
    ...(body.attendees ?? []).flatMap((attendee) => [attendee.email, attendee.displayName]),
    body.workingLocationProperties?.customLocation?.label, body.workingLocationProperties?.officeLocation?.label,
    body.workingLocationProperties?.officeLocation?.buildingId, body.workingLocationProperties?.officeLocation?.deskId,
  ].filter((part): part is string => typeof part === 'string').join('\n').toLowerCase();
  return terms.every((term) => haystack.includes(term));
}

function matchesProperties(values: Record<string, string> | null | undefined, constraints: readonly string[]): boolean {
  return constraints.every((constraint) => {
    const separator = constraint.indexOf('=');
    if (separator <= 0) throw invalid(`Invalid extended property constraint: '${constraint}'. Use propertyName=value.`, 'privateExtendedProperty');
    return values?.[constraint.slice(0, separator)] === constraint.slice(separator + 1);
  });
}

/**
 * Expands, ahead of a listing, the recurring series of the calendar up to where the listing will read them, yielding
 * to other requests while it works; the listing then finds them expanded. Access is checked as the listing checks it.
 * A listing of instances reads them to its horizon; one of series (not `singleEvents`) only asks whether each series
 * reaches the window, which `seriesBounds` answers from the first day past now (or the series' end).
 */
export async function prepareListing(service: CalendarService, user: EmulatorUser, calendarId: string, window: { timeMin?: number; timeMax?: number; eventId?: string; singleEvents: boolean; syncToken?: string }): Promise<WorkBudget> {
  const { calendar, events } = service.events.open(user, calendarId, 'freeBusyReader');
  const now = service.now();
  const zone = calendar.timeZone;
  const horizon = (series: StoredEvent): number => (window.singleEvents
    ? listingHorizon(series, zone, { now, ...(window.timeMax !== undefined ? { toUtc: window.timeMax } : {}) })
    : seriesBoundsHorizon(series, zone, now));
  const ids = window.eventId !== undefined ? [window.eventId] : window.syncToken !== undefined ? changedSeries(service, calendar.id, events, window.syncToken) : events.series;
  return events.prepare(zone, horizon, ids, undefined, window.singleEvents ? window.timeMin : now);
}

/**
 * The series an incremental sync lists: those changed since the token (a sync after one change expands one series at
 * most, not every series of the calendar). A token the listing will refuse gives none: the refusal comes from there.
 */
function changedSeries(service: CalendarService, calendarId: string, events: CalendarEvents, syncToken: string): string[] {
  const scope = `events:${calendarId}`;
  let since: number;
  try {
    since = decodeSyncToken(syncToken, scope, service.syncFloor(scope), service.currentSeq());
  } catch {
    return [];
  }
  const ids: string[] = [];
  for (const id of events.log.changedSince(since)) if (events.series.has(id)) ids.push(id);
  return ids;
}

/**
 * events.list. A listing of many series pauses between them (core/slices.ts), so its sync token is the change
 * sequence at its start: a change made meanwhile is delivered again by the next sync rather than missed.
 */
export async function listEvents(service: CalendarService, user: EmulatorUser, calendarId: string, options: EventListOptions, budget?: WorkBudget): Promise<EventListResult> {
  if (options.syncToken !== undefined) {
    const conflicting = (['q', 'orderBy', 'timeMin', 'timeMax', 'updatedMin', 'iCalUID'] as const).find((name) => options[name] !== undefined)
      ?? (options.privateExtendedProperty.length > 0 ? 'privateExtendedProperty' : options.sharedExtendedProperty.length > 0 ? 'sharedExtendedProperty' : undefined);
    if (conflicting) throw invalid(`The syncToken parameter cannot be combined with ${conflicting}.`, conflicting);
  }
  if (options.orderBy === 'startTime' && !options.singleEvents) throw invalid('The requested ordering is not available for the particular query.', 'orderBy');
  if (options.timeMin !== undefined && options.timeMax !== undefined && options.timeMax <= options.timeMin) throw timeRangeEmpty();

  const { calendar, role, events } = service.events.open(user, calendarId, 'freeBusyReader');
  service.events.purgeTombstones(calendar.id);
  const zone = calendar.timeZone;
  const now = service.now();
  const scope = `events:${calendar.id}`;
  const seqAtStart = service.currentSeq();
  let views: EventView[];

  if (options.syncToken !== undefined) {
    const since = decodeSyncToken(options.syncToken, scope, service.syncFloor(scope), service.currentSeq());
    views = [];
    for (const id of events.log.changedSince(since)) {
      const event = events.byId.get(id);
      if (!event || !matchesType(event, options.eventTypes)) continue;
      if (options.singleEvents && isRecurring(event)) appendAll(views, instancesOf(events, event, zone, { now, showDeleted: true, withExceptions: false, ...(budget ? { budget } : {}) }));
      else views.push({ event });
    }
  } else {
    const pageScope = `${scope}|${filtersKey(options)}`;
    const resumed = options.pageToken !== undefined ? sliceCursor(options.pageToken, pageScope) : undefined;
    if (resumed) return { calendar, role, ...(await slicedPage(events, zone, now, options, budget, resumed, pageScope, scope)) };
    const key = `${user.id}|${calendar.id}|${filtersKey(options)}`;
    const kept = options.pageToken !== undefined ? keptViews(events, key, seqAtStart, now) : undefined;
    if (kept) views = kept;
    else {
      try {
        views = (await windowed(events, zone, now, options, budget)).filter((view) => passesFilters(view.event, options));
      } catch (error) {
        // A series with more instances in the window than one request expands: paged by time instead (below).
        const tooLarge = error instanceof ApiError && error.reason === 'timeRangeTooLong';
        if (!tooLarge || !options.singleEvents || options.orderBy === 'updated' || options.pageToken !== undefined) throw error;
        const first = { from: options.timeMin ?? Number.NEGATIVE_INFINITY, skip: 0, startedAt: seqAtStart, first: true };
        return { calendar, role, ...(await slicedPage(events, zone, now, options, budget, first, pageScope, scope)) };
      }
      views.sort(options.orderBy === 'updated'
        ? (a, b) => a.event.updated - b.event.updated || compareIds(a, b)
        : (a, b) => startOf(a, zone) - startOf(b, zone) || compareIds(a, b));
      if (views.length > options.maxResults) keepViews(events, { key, seq: seqAtStart, at: now, views });
    }
  }

  const page = syncedPage(views, {
    scope: `${scope}|${filtersKey(options)}`,
    maxResults: options.maxResults,
    currentSeq: seqAtStart,
    ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
  });
  return { calendar, role, views: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}), ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}) };
}

/** A sorted listing kept for its next pages while nothing changed (the change sequence is the same) and not for long. */
interface KeptViews {
  readonly key: string;
  readonly seq: number;
  readonly at: number;
  readonly views: EventView[];
}

/** Listings kept per calendar (each holds a view per event or instance), and how long a listing's time may serve. */
const KEPT_LISTINGS = 4;
const KEPT_MS = 60_000;
const keptListings = new WeakMap<CalendarEvents, KeptViews[]>();

/**
 * The listing an earlier page computed, when it still holds: the later pages then cost their own size, not a
 * recomputation and sort of the whole listing each.
 */
function keptViews(events: CalendarEvents, key: string, seq: number, now: number): EventView[] | undefined {
  return keptListings.get(events)?.find((kept) => kept.key === key && kept.seq === seq && now - kept.at >= 0 && now - kept.at < KEPT_MS)?.views;
}

function keepViews(events: CalendarEvents, kept: KeptViews): void {
  const listings = (keptListings.get(events) ?? []).filter((other) => other.key !== kept.key && other.seq === kept.seq);
  listings.push(kept);
  if (listings.length > KEPT_LISTINGS) listings.shift();
  keptListings.set(events, listings);
}

/** Where a listing paged by time goes on: the start of its next item, how many items at that start were listed already. */
interface SliceAt {
  from: number;
  skip: number;
  /** The change sequence when the listing began (its sync token, on the last page). */
  startedAt: number;
  /** The listing's first page: events that began before timeMin and overlap it belong here. */
  first: boolean;
}

const SLICE = 'slice';

/** The cursor of a page token issued by `slicedPage`; undefined for the offset tokens of an ordinary listing. */
function sliceCursor(token: string, pageScope: string): SliceAt | undefined {
  const cursor = decodePageToken(token, pageScope);
  if (!Array.isArray(cursor) || cursor.length !== 4 || cursor[0] !== SLICE) return undefined;
  const [, from, skip, startedAt] = cursor;
  if (typeof from !== 'number' || typeof skip !== 'number' || typeof startedAt !== 'number' || !Number.isSafeInteger(skip) || skip < 0) return undefined;
  return { from, skip, startedAt, first: false };
}

/**
 * One page of a singleEvents listing whose window holds more instances of some series than a request expands (a
 * FREQ=MINUTELY series over months): the page covers the time from `at.from` up to the start of the page's worth
 * of each such series' instances (each read from there on, not from the series' start: timeline.ts `startsFrom`),
 * in start order; its token names where the next page starts. The work per page follows maxResults, not the window.
 */
async function slicedPage(events: CalendarEvents, zone: string, now: number, options: EventListOptions, budget: WorkBudget | undefined, at: SliceAt, pageScope: string, syncScope: string): Promise<{ views: EventView[]; nextPageToken?: string; nextSyncToken?: string }> {
  const end = options.timeMax ?? Number.POSITIVE_INFINITY;
  const wanted = at.skip + options.maxResults + 1;
  const work = budget ?? { candidates: REQUEST_BUDGET };
  const showCancelled = options.showDeleted || options.updatedMin !== undefined;
  let sliceEnd = end;
  for (const id of [...events.series]) {
    const series = events.byId.get(id);
    if (!series || !isRecurring(series) || (series.status === 'cancelled' && !showCancelled)) continue;
    sliceEnd = Math.min(sliceEnd, sliceEndFor(events, series, zone, now, options.timeMax, at.from, wanted, work));
  }
  const timeMin = options.timeMin === undefined || at.from > options.timeMin ? at.from : options.timeMin;
  const window: EventListOptions = { ...options };
  if (Number.isFinite(timeMin)) window.timeMin = timeMin;
  if (Number.isFinite(sliceEnd)) window.timeMax = sliceEnd;
  const views = (await windowed(events, zone, now, window, work)).filter((view) => passesFilters(view.event, options));
  views.sort((a, b) => startOf(a, zone) - startOf(b, zone) || compareIds(a, b));
  const paged = timePage(views, zone, at, options.maxResults, sliceEnd < end ? sliceEnd : undefined, pageScope);
  return paged.nextPageToken !== undefined ? paged : { views: paged.views, nextSyncToken: encodeSyncToken(syncScope, at.startedAt) };
}

/**
 * Where a time-paged page must end for `series`: Infinity when its instances up to the window's end are known (it
 * is listed whole), else the start of its (wanted + 1)-th instance from `from` on, read from there (timeline.ts
 * `startsFrom`), so that the page holds at most `wanted` of them.
 */
function sliceEndFor(events: CalendarEvents, series: StoredEvent, zone: string, now: number, timeMax: number | undefined, from: number, wanted: number, work: WorkBudget): number {
  const horizon = listingHorizon(series, zone, { now, ...(timeMax !== undefined ? { toUtc: timeMax } : {}) });
  const known = events.originalStarts(series, zone, horizon, work);
  const until = timeMax ?? (known.bounded ? Number.POSITIVE_INFINITY : horizon);
  // Known to its end (or past it already): listed whole, no reason to end the page early.
  if (until <= known.coveredUntilUtc || from >= until) return Number.POSITIVE_INFINITY;
  const source = events.startsFrom(series, zone, from, until, work, wanted + 1) ?? known;
  const first = firstIndex(source.count, (index) => source.startAt(index) < from);
  const cut = first + wanted < source.count ? source.startAt(first + wanted) : source.coveredUntilUtc;
  if (!(cut > from)) throw recurrenceTooLarge();
  return cut >= until ? Number.POSITIVE_INFINITY : cut;
}

/**
 * A page of time-sorted views from `at`: items that began before it were listed on an earlier page (or, before
 * timeMin, on the first), and `at.skip` items at its very start too. Its token starts the next page at its first
 * item, or at `sliceEnd`; none on the last page.
 */
function timePage(sorted: EventView[], zone: string, at: SliceAt, maxResults: number, sliceEnd: number | undefined, pageScope: string): { views: EventView[]; nextPageToken?: string } {
  const views = (at.first ? sorted : sorted.filter((view) => startOf(view, zone) >= at.from)).slice(at.skip);
  const page = views.slice(0, maxResults);
  const next = views[maxResults];
  const nextFrom = next ? startOf(next, zone) : sliceEnd;
  if (nextFrom === undefined) return { views: page };
  const skip = page.filter((view) => startOf(view, zone) === nextFrom).length + (nextFrom === at.from ? at.skip : 0);
  return { views: page, nextPageToken: encodePageToken(pageScope, [SLICE, nextFrom, skip, at.startedAt]) };
}

/** A short digest of a listing's filters: page tokens are bound to them without carrying them. */
function filtersKey(options: { maxResults: number; pageToken?: string }): string {
  return createHash('sha256').update(JSON.stringify({ ...options, maxResults: undefined, pageToken: undefined })).digest('base64url').slice(0, 16);
}

function compareIds(a: EventView, b: EventView): number {
  const left = a.instance?.id ?? a.event.id;
  const right = b.instance?.id ?? b.event.id;
  return left < right ? -1 : left > right ? 1 : 0;
}

function matchesType(event: StoredEvent, eventTypes: readonly string[]): boolean {
  return eventTypes.length === 0 || eventTypes.includes(event.eventType);
}

function passesFilters(event: StoredEvent, options: EventListOptions): boolean {
  if (!matchesType(event, options.eventTypes)) return false;
  if (options.iCalUID !== undefined && event.iCalUID !== options.iCalUID) return false;
  if (options.updatedMin !== undefined && event.updated < options.updatedMin) return false;
  if (options.q !== undefined && options.q.trim() !== '' && !matchesText(event, options.q.toLowerCase().split(/\s+/).filter(Boolean))) return false;
  if (!matchesProperties(event.body.extendedProperties?.private, options.privateExtendedProperty)) return false;
  return matchesProperties(event.body.extendedProperties?.shared, options.sharedExtendedProperty);
}

/** The events (or instances) a full listing shows, before the text and property filters. */
async function windowed(events: CalendarEvents, zone: string, now: number, options: EventListOptions, budget: WorkBudget | undefined): Promise<EventView[]> {
  const { timeMin, timeMax } = options;
  const windowGiven = timeMin !== undefined || timeMax !== undefined;
  // updatedMin shows deleted events whatever showDeleted says (Google's rule for catching up on changes).
  const showCancelled = options.showDeleted || options.updatedMin !== undefined;
  const singles = windowGiven ? events.candidates(timeMin ?? Number.MIN_SAFE_INTEGER / 2, timeMax ?? Number.MAX_SAFE_INTEGER / 2) : events.singles();
  const views: EventView[] = [];
  for (const event of singles) {
    if (windowGiven && !overlaps(event, zone, timeMin, timeMax)) continue;
    if (event.status === 'cancelled' && !showCancelled) {
      // Without singleEvents, cancelled instances of a live series are listed so clients can hide them.
      const series = event.recurringEventId !== undefined ? events.byId.get(event.recurringEventId) : undefined;
      if (options.singleEvents || !series || series.status === 'cancelled') continue;
    }
    views.push({ event });
  }
  // Each series may give thousands of instances: other requests get in between series.
  const slices = new TimeSlices();
  for (const id of [...events.series]) {
    await slices.pause();
    const series = events.byId.get(id);
    if (!series || !isRecurring(series) || (series.status === 'cancelled' && !showCancelled)) continue;
    if (options.singleEvents) {
      for (const view of instancesOf(events, series, zone, { now, showDeleted: showCancelled, withExceptions: false, ...(budget ? { budget } : {}), ...(timeMin !== undefined ? { fromUtc: timeMin } : {}), ...(timeMax !== undefined ? { toUtc: timeMax } : {}) })) views.push(view);
    } else if (!windowGiven || seriesOverlaps(events, series, zone, now, timeMin, timeMax, budget)) {
      views.push({ event: series });
    }
  }
  return views;
}

function seriesOverlaps(events: CalendarEvents, series: StoredEvent, zone: string, now: number, from: number | undefined, to: number | undefined, budget: WorkBudget | undefined): boolean {
  const bounds = seriesBounds(events, series, zone, now, budget);
  return (to === undefined || bounds.start < to) && (from === undefined || bounds.end > from);
}

export interface InstancesOptions {
  maxResults: number;
  pageToken?: string;
  timeMin?: number;
  timeMax?: number;
  showDeleted: boolean;
  originalStart?: string;
}

/** events.instances: the instances of one series, exceptions in their place, paged. */
export function listInstances(service: CalendarService, user: EmulatorUser, calendarId: string, eventId: string, options: InstancesOptions, budget?: WorkBudget): EventListResult {
  if (options.timeMin !== undefined && options.timeMax !== undefined && options.timeMax <= options.timeMin) throw timeRangeEmpty();
  const { calendar, role, events } = service.events.open(user, calendarId, 'freeBusyReader');
  const view = service.events.resolve(events, calendar, eventId);
  const series = view.event;
  if (series.status === 'cancelled' && !options.showDeleted) throw new ApiError(410, 'deleted', 'Resource has been deleted');
  const zone = calendar.timeZone;
  const pageScope = `instances:${calendar.id}:${eventId}|${filtersKey(options)}`;
  const instancesIn = (from: number | undefined, to: number | undefined): EventView[] => instancesOf(events, series, zone, {
    now: service.now(),
    ...(budget ? { budget } : {}),
    showDeleted: options.showDeleted,
    withExceptions: true,
    ...(from !== undefined && Number.isFinite(from) ? { fromUtc: from } : {}),
    ...(to !== undefined && Number.isFinite(to) ? { toUtc: to } : {}),
  });
  const resumed = options.pageToken !== undefined ? sliceCursor(options.pageToken, pageScope) : undefined;
  const timePaged = (at: SliceAt): EventListResult => {
    // As slicedPage: a series with more instances than one request expands is paged by time.
    const wanted = at.skip + options.maxResults + 1;
    const sliceEnd = sliceEndFor(events, series, zone, service.now(), options.timeMax, at.from, wanted, budget ?? { candidates: REQUEST_BUDGET });
    const from = options.timeMin === undefined || at.from > options.timeMin ? at.from : options.timeMin;
    const sorted = instancesIn(from, Math.min(sliceEnd, options.timeMax ?? Number.POSITIVE_INFINITY)).sort((a, b) => startOf(a, zone) - startOf(b, zone) || compareIds(a, b));
    const end = options.timeMax ?? Number.POSITIVE_INFINITY;
    return { calendar, role, ...timePage(sorted, zone, at, options.maxResults, sliceEnd < end ? sliceEnd : undefined, pageScope) };
  };
  if (resumed && isRecurring(series) && !view.instance) return timePaged(resumed);
  let views: EventView[] = [];
  if (isRecurring(series) && !view.instance) {
    try {
      views = instancesIn(options.timeMin, options.timeMax);
    } catch (error) {
      const tooLarge = error instanceof ApiError && error.reason === 'timeRangeTooLong';
      if (!tooLarge || options.originalStart !== undefined || options.pageToken !== undefined) throw error;
      return timePaged({ from: options.timeMin ?? Number.NEGATIVE_INFINITY, skip: 0, startedAt: service.currentSeq(), first: true });
    }
  }
  if (options.originalStart !== undefined) {
    const wanted = options.originalStart;
    views = views.filter((candidate) => {
      const original = candidate.instance?.originalStart ?? candidate.event.originalStart;
      return original !== undefined && originalMatches(original, series.timing.allDay, wanted);
    });
  }
  const page = syncedPage(views, {
    scope: pageScope,
    maxResults: options.maxResults,
    currentSeq: service.currentSeq(),
    ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
  });
  return { calendar, role, views: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
}

function originalMatches(original: number, allDay: boolean, wanted: string): boolean {
  if (allDay) return new Date(original).toISOString().slice(0, 10) === wanted.slice(0, 10);
  const parsed = Date.parse(wanted);
  return !Number.isNaN(parsed) && parsed === original;
}
