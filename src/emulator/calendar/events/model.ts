/**
 * Calendar events without HTTP: insert / get / update / patch / delete / import / move / quickAdd, instances of
 * recurring events and their exceptions (a changed or cancelled instance becomes a stored event that persists),
 * iCalUIDs, tombstones for incremental sync, and the access each operation needs. Listing is in ./listing.ts.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_ID_PATTERN, EventInput } from '../../../shared/schemas/calendar';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, badRequest, invalid, notFound, required } from '../../core/errors';
import { checkIfMatch, newEtag } from '../../core/etag';
import type { Collection } from '../../store/store';
import { atLeast, requireRole } from '../access';
import type { StoredCalendar } from '../calendars/model';
import type { CalendarService } from '../service';
import { DAY_MS, formatDate, formatDateTime } from '../time';
import { generatedInstance, instanceId, parseInstanceId } from './instances';
import { parseQuickAdd } from './quickAdd';
import { applyConference, bodyOf, checkBody, checkEventType, EventBody, eventTypeOf, hangoutLinkOf, mergePatch, timingOf, typeDefaults } from './rules';
import { CalendarEvents, EventStatus, EventView, isRecurring, StoredEvent } from './timeline';

export interface WriteOptions {
  conferenceDataVersion: number;
}

/** Deleted events stay this long for incremental syncs; tokens older than a purge are 410. */
export const TOMBSTONE_RETENTION_MS = 28 * DAY_MS;

const keyOf = (calendarId: string, eventId: string): string => `${calendarId}\n${eventId}`;

function deleted(): ApiError {
  return new ApiError(410, 'deleted', 'Resource has been deleted');
}

function duplicate(): ApiError {
  return new ApiError(409, 'duplicate', 'The requested identifier already exists.');
}

/** A server-chosen id: 26 base32hex characters, like Google's. */
function newEventId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

export class EventsModel {
  private readonly events: Collection<StoredEvent>;
  private loaded?: Map<string, CalendarEvents>;

  constructor(private readonly service: CalendarService) {
    this.events = service.store.collection<StoredEvent>('calendar.events');
  }

  /** The indexes of one calendar (built from the store the first time any calendar is touched). */
  of(calendarId: string): CalendarEvents {
    if (!this.loaded) {
      this.loaded = new Map();
      const all = [...this.events.values()].sort((a, b) => a.seq - b.seq);
      for (const event of all) {
        this.of(event.calendarId).add(event);
        this.of(event.calendarId).log.record(event.id, event.seq);
      }
    }
    let events = this.loaded.get(calendarId);
    if (!events) {
      events = new CalendarEvents();
      this.loaded.set(calendarId, events);
    }
    return events;
  }

  /** The calendar, the caller's role, and its events; `minimum` is the role the operation needs. */
  open(user: EmulatorUser, calendarId: string, minimum: 'freeBusyReader' | 'writer'): { calendar: StoredCalendar; role: ReturnType<CalendarService['acl']['roleOf']>; events: CalendarEvents } {
    const { calendar, role } = this.service.calendars.access(user, calendarId);
    requireRole(role, minimum);
    return { calendar, role, events: this.of(calendar.id) };
  }

  /** events.get: any event, cancelled ones included (as Google does); instance ids resolve to their instance. */
  get(user: EmulatorUser, calendarId: string, eventId: string): { view: EventView; calendar: StoredCalendar; role: ReturnType<CalendarService['acl']['roleOf']> } {
    const { calendar, role, events } = this.open(user, calendarId, 'freeBusyReader');
    return { view: this.resolve(events, calendar, eventId), calendar, role };
  }

  insert(user: EmulatorUser, calendarId: string, input: EventInput, options: WriteOptions): StoredEvent {
    const { calendar, events } = this.open(user, calendarId, 'writer');
    const id = this.chooseId(events, input.id);
    const type = eventTypeOf(input.eventType);
    const iCalUID = input.iCalUID ?? `${id}@google.com`;
    if (this.byICalUID(events, iCalUID)) throw duplicate();
    if (input.status === 'cancelled') throw invalid('A new event cannot be cancelled', 'status', 'body');
    const body = applyConference(typeDefaults(type, bodyOf(input)), undefined, options.conferenceDataVersion);
    return this.create(events, calendar, user, { id, iCalUID, type, body, status: input.status ?? 'confirmed', sequence: input.sequence ?? 0 });
  }

  /** Adds a private copy of an event from elsewhere; an event with the same iCalUID is updated in place. */
  import(user: EmulatorUser, calendarId: string, input: EventInput, options: WriteOptions): StoredEvent {
    const { calendar, events } = this.open(user, calendarId, 'writer');
    if (!input.iCalUID) throw required('iCalUID', 'body');
    if (eventTypeOf(input.eventType) !== 'default') throw invalid('Only events of type default can be imported.', 'eventType', 'body');
    const body = applyConference(bodyOf(input), undefined, options.conferenceDataVersion);
    const organizer = input.organizer?.email ? { email: input.organizer.email, ...(input.organizer.displayName ? { displayName: input.organizer.displayName } : {}) } : undefined;
    const existing = this.byICalUID(events, input.iCalUID, true);
    if (existing) {
      if (input.sequence !== undefined && input.sequence !== null && input.sequence < existing.sequence) {
        throw invalid('Invalid sequence value. The specified sequence number is below the current sequence number of the resource.', 'sequence', 'body');
      }
      return this.save(events, calendar, existing, () => {
        existing.body = body;
        existing.status = input.status ?? 'confirmed';
        existing.sequence = input.sequence ?? existing.sequence;
        if (organizer) existing.organizer = organizer;
      });
    }
    const id = this.chooseId(events, input.id);
    return this.create(events, calendar, user, { id, iCalUID: input.iCalUID, type: 'default', body, status: input.status ?? 'confirmed', sequence: input.sequence ?? 0, ...(organizer ? { organizer } : {}) });
  }

  /** `update` replaces the whole event, `patch` merges; on an instance id the change creates (or edits) an exception. */
  update(user: EmulatorUser, calendarId: string, eventId: string, input: EventInput, mode: 'update' | 'patch', options: WriteOptions & { ifMatch?: string }): StoredEvent {
    const { calendar, events } = this.open(user, calendarId, 'writer');
    const view = this.resolve(events, calendar, eventId);
    // An unchanged instance is listed with its series' etag: that is what If-Match names. Nothing is stored before
    // every check has passed, so a refused change leaves no exception behind.
    checkIfMatch(view.event.etag, options.ifMatch, 'the event');
    const event = view.instance ? this.instanceException(calendar, view) : view.event;
    const type = eventTypeOf(input.eventType ?? event.eventType);
    if (type !== event.eventType) throw invalid('The event type cannot be changed.', 'eventType', 'body');
    if (input.iCalUID && input.iCalUID !== event.iCalUID) throw invalid('The iCalUID of an event cannot be changed.', 'iCalUID', 'body');
    let body: EventBody = mode === 'update'
      ? typeDefaults(type, bodyOf(input))
      : (mergePatch(event.body as Record<string, unknown>, withNulls(input as Record<string, unknown>)) as EventBody);
    if (event.recurringEventId !== undefined && (body.recurrence?.length ?? 0) > 0) throw invalid('An instance of a recurring event cannot have a recurrence of its own.', 'recurrence', 'body');
    body = applyConference(body, event.body, options.conferenceDataVersion);
    return this.save(events, calendar, event, () => {
      const timeChanged = JSON.stringify([body.start, body.end, body.recurrence]) !== JSON.stringify([event.body.start, event.body.end, event.body.recurrence]);
      event.body = body;
      // A full update without a status restores a cancelled event, as Google's undelete does; a patch keeps it.
      event.status = input.status ?? (mode === 'update' ? 'confirmed' : event.status);
      if (input.sequence !== undefined && input.sequence !== null) event.sequence = input.sequence;
      else if (timeChanged) event.sequence += 1;
    });
  }

  /** Cancels an event (a series takes its exceptions along); on an instance id, cancels just that instance. */
  delete(user: EmulatorUser, calendarId: string, eventId: string, ifMatch?: string): void {
    const { calendar, events } = this.open(user, calendarId, 'writer');
    const view = this.resolve(events, calendar, eventId);
    checkIfMatch(view.event.etag, ifMatch, 'the event');
    if (view.event.status === 'cancelled' && !view.instance) throw deleted();
    const event = view.instance ? this.instanceException(calendar, view) : view.event;
    this.cancel(events, calendar, event);
    if (isRecurring(event)) {
      for (const exceptionId of events.exceptions.get(event.id)?.values() ?? []) {
        const exception = events.byId.get(exceptionId);
        if (exception && exception.status !== 'cancelled') this.cancel(events, calendar, exception);
      }
    }
  }

  /** Moves an event (with its exceptions) to another calendar, whose owner becomes the organizer; a tombstone stays behind. */
  move(user: EmulatorUser, calendarId: string, eventId: string, destinationId: string | undefined): StoredEvent {
    if (!destinationId) throw required('destination');
    const source = this.open(user, calendarId, 'writer');
    const target = this.open(user, destinationId, 'writer');
    if (parseInstanceId(eventId) && !source.events.byId.has(eventId)) throw badRequest('An instance of a recurring event cannot be moved; move the whole series.');
    const event = source.events.byId.get(eventId);
    if (!event || event.status === 'cancelled') throw notFound('Not Found');
    if (event.recurringEventId !== undefined) throw badRequest('An instance of a recurring event cannot be moved; move the whole series.');
    if (event.eventType !== 'default') throw invalid(`Events of type ${event.eventType} cannot be moved; only default events can.`, 'eventType');
    if (source.calendar.id === target.calendar.id) return event;
    const family = [event, ...[...(source.events.exceptions.get(event.id)?.values() ?? [])].map((id) => source.events.byId.get(id) as StoredEvent)];
    for (const member of family) if (target.events.byId.has(member.id)) throw duplicate();
    let moved: StoredEvent | undefined;
    for (const member of family) {
      const copy: StoredEvent = { ...member, calendarId: target.calendar.id, organizer: organizerOf(target.calendar), etag: newEtag() };
      this.store(target.events, target.calendar, copy);
      if (member === event) moved = copy;
      this.cancel(source.events, source.calendar, member);
    }
    return moved as StoredEvent;
  }

  /** Creates an event from a sentence ("Lunch with Ann tomorrow 12:30-13:15 at Cafe Luna") in the user's time zone. */
  quickAdd(user: EmulatorUser, calendarId: string, text: string | undefined): StoredEvent {
    if (!text || text.trim() === '') throw required('text');
    const { calendar, events } = this.open(user, calendarId, 'writer');
    const zone = this.service.settings.timeZoneOf(user.id);
    const length = Number(this.service.settings.get(user.id, 'defaultEventLength').value);
    const parsed = parseQuickAdd(text, zone, this.service.now(), length);
    const start = parsed.allDay ? { date: formatDate(parsed.startMs) } : { dateTime: formatDateTime(parsed.startMs, zone), timeZone: zone };
    const end = parsed.allDay ? { date: formatDate(parsed.endMs) } : { dateTime: formatDateTime(parsed.endMs, zone), timeZone: zone };
    const body: EventBody = { summary: parsed.summary, start, end, ...(parsed.location ? { location: parsed.location } : {}) };
    const id = newEventId();
    return this.create(events, calendar, user, { id, iCalUID: `${id}@google.com`, type: 'default', body, status: 'confirmed', sequence: 0 });
  }

  /** calendars.clear: every event of the calendar becomes a tombstone. */
  clearCalendar(calendarId: string): void {
    const events = this.of(calendarId);
    const calendar = this.service.calendars.find(calendarId);
    if (!calendar) return;
    for (const event of [...events.byId.values()]) if (event.status !== 'cancelled') this.cancel(events, calendar, event);
  }

  /** A deleted calendar takes its events, tombstones included. */
  dropCalendar(calendarId: string): void {
    const events = this.of(calendarId);
    for (const event of events.byId.values()) this.events.delete(keyOf(calendarId, event.id));
    this.loaded?.delete(calendarId);
  }

  /** The calendar's zone changed: all-day spans and zone-less series move with it. */
  reindexCalendar(calendarId: string): void {
    this.of(calendarId).dropExpansions();
  }

  /** Drops tombstones older than the retention (not cancelled instances of live series: they shape the series). */
  purgeTombstones(calendarId: string): void {
    const events = this.of(calendarId);
    const now = this.service.now();
    if (now - events.lastPurgeCheck < 60 * 60 * 1000) return;
    events.lastPurgeCheck = now;
    let highest = 0;
    for (const event of [...events.byId.values()]) {
      if (event.status !== 'cancelled' || now - event.updated < TOMBSTONE_RETENTION_MS) continue;
      const series = event.recurringEventId !== undefined ? events.byId.get(event.recurringEventId) : undefined;
      if (series && series.status !== 'cancelled') continue;
      highest = Math.max(highest, event.seq);
      events.forget(event);
      this.events.delete(keyOf(calendarId, event.id));
    }
    if (highest > 0) this.service.raiseSyncFloor(`events:${calendarId}`, highest);
  }

  /** A stored event, or the generated instance an instance id names; 404 otherwise. */
  resolve(events: CalendarEvents, calendar: StoredCalendar, eventId: string): EventView {
    const stored = events.byId.get(eventId);
    if (stored) return { event: stored };
    const parsed = parseInstanceId(eventId);
    const series = parsed && events.byId.get(parsed.seriesId);
    if (parsed && series && isRecurring(series) && series.timing.allDay === parsed.allDay) {
      const instance = generatedInstance(events, series, calendar.timeZone, parsed.originalStart);
      if (instance) return { event: series, instance };
    }
    throw notFound('Not Found');
  }

  /** Whether `user` may see the details of an event of a calendar on which they have `role`. */
  seesDetails(role: ReturnType<CalendarService['acl']['roleOf']>, event: StoredEvent): boolean {
    if (!atLeast(role, 'reader')) return false;
    const isPrivate = event.body.visibility === 'private' || event.body.visibility === 'confidential';
    return !isPrivate || role === 'writer' || role === 'owner';
  }

  private chooseId(events: CalendarEvents, requested: string | null | undefined): string {
    if (requested === undefined || requested === null) return newEventId();
    if (!EVENT_ID_PATTERN.test(requested)) throw invalid('Invalid resource id value.', 'id', 'body');
    if (events.byId.has(requested)) throw duplicate();
    return requested;
  }

  private byICalUID(events: CalendarEvents, iCalUID: string, includeCancelled = false): StoredEvent | undefined {
    for (const event of events.withICalUID(iCalUID)) {
      if (event.iCalUID === iCalUID && event.recurringEventId === undefined && (includeCancelled || event.status !== 'cancelled')) return event;
    }
    return undefined;
  }

  /** A generated instance as an exception (the series' content at the instance's times), stored when it is saved. */
  private instanceException(calendar: StoredCalendar, view: EventView): StoredEvent {
    const series = view.event;
    const instance = view.instance as NonNullable<EventView['instance']>;
    const { recurrence: _recurrence, ...content } = series.body;
    void _recurrence;
    const zone = series.timing.zone ?? calendar.timeZone;
    const point = (ms: number): EventBody['start'] => (series.timing.allDay ? { date: formatDate(ms) } : { dateTime: formatDateTime(ms, zone), timeZone: zone });
    const exception: StoredEvent = {
      ...series,
      id: instanceId(series.id, instance.originalStart, series.timing.allDay),
      body: { ...content, start: point(instance.startMs), end: point(instance.endMs) },
      timing: { ...series.timing, startMs: instance.startMs, endMs: instance.endMs },
      recurringEventId: series.id,
      originalStart: instance.originalStart,
      etag: newEtag(),
    };
    return exception;
  }

  private create(events: CalendarEvents, calendar: StoredCalendar, user: EmulatorUser, fields: { id: string; iCalUID: string; type: StoredEvent['eventType']; body: EventBody; status: EventStatus; sequence: number; organizer?: StoredEvent['organizer'] }): StoredEvent {
    checkBody(fields.body);
    const timing = timingOf(fields.body, calendar.timeZone);
    checkEventType(fields.type, fields.body, timing, calendar.primary);
    const now = this.service.now();
    const hangoutLink = hangoutLinkOf(fields.body);
    const event: StoredEvent = {
      calendarId: calendar.id,
      id: fields.id,
      seq: 0,
      etag: newEtag(),
      created: now,
      updated: now,
      status: fields.status,
      iCalUID: fields.iCalUID,
      sequence: fields.sequence,
      eventType: fields.type,
      organizer: fields.organizer ?? organizerOf(calendar),
      creator: { email: user.email, displayName: user.name },
      body: fields.body,
      timing,
      ...(hangoutLink ? { hangoutLink } : {}),
    };
    this.store(events, calendar, event);
    return event;
  }

  /** Validates the changed event, then re-files it under its new times with a new etag and change number. */
  private save(events: CalendarEvents, calendar: StoredCalendar, event: StoredEvent, change: () => void): StoredEvent {
    const before = { body: event.body, status: event.status, sequence: event.sequence, organizer: event.organizer };
    change();
    try {
      checkBody(event.body);
      const timing = timingOf(event.body, calendar.timeZone);
      checkEventType(event.eventType, event.body, timing, calendar.primary);
      events.remove(event);
      event.timing = timing;
    } catch (error) {
      Object.assign(event, before);
      throw error;
    }
    const hangoutLink = hangoutLinkOf(event.body);
    if (hangoutLink) event.hangoutLink = hangoutLink;
    else delete event.hangoutLink;
    event.etag = newEtag();
    event.updated = Math.max(this.service.now(), event.updated);
    this.store(events, calendar, event);
    return event;
  }

  private cancel(events: CalendarEvents, calendar: StoredCalendar, event: StoredEvent): void {
    events.remove(event);
    event.status = 'cancelled';
    event.etag = newEtag();
    event.updated = Math.max(this.service.now(), event.updated);
    this.store(events, calendar, event);
  }

  private store(events: CalendarEvents, calendar: StoredCalendar, event: StoredEvent): void {
    event.seq = this.service.nextSeq();
    events.remove(event);
    events.add(event);
    events.log.record(event.id, event.seq);
    this.events.set(keyOf(calendar.id, event.id), event);
    this.service.calendars.noteEventChange(calendar);
    this.service.noteChange(`events/${calendar.id}`);
  }
}

/** The organizer of events on a calendar: the calendar itself (its owner for a primary). */
export function organizerOf(calendar: StoredCalendar): StoredEvent['organizer'] {
  return calendar.primary ? { email: calendar.id } : { email: calendar.id, displayName: calendar.summary };
}

/** The request with its nulls kept (a patch's way to clear a field) and managed fields dropped. */
function withNulls(patch: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...patch };
  for (const key of ['kind', 'etag', 'id', 'status', 'iCalUID', 'eventType', 'sequence', 'organizer', 'creator', 'recurringEventId', 'originalStartTime', 'htmlLink', 'created', 'updated', 'hangoutLink', 'attendeesOmitted', 'locked']) delete copy[key];
  return copy;
}
