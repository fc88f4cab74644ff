/**
 * Calendars: one primary per user (id = e-mail, created on first use, cleared but never deleted) and secondary
 * calendars users create and delete. Deleting one removes its events, its ACL and its entry from every calendar list.
 * HTTP-free: methods take the user and throw the core's Google errors.
 */
import { randomBytes } from 'node:crypto';
import type { CalendarInput } from '../../../shared/schemas/calendar';
import { EmulatorUser, findUser } from '../../identity/users';
import { badRequest, invalid, required } from '../../core/errors';
import { checkIfMatch, newEtag } from '../../core/etag';
import type { Collection } from '../../store/store';
import { calendarNotFound, ownerAccessRequired, requireRole } from '../access';
import type { CalendarService } from '../service';
import { isValidTimeZone } from '../time';

export interface StoredCalendar {
  id: string;
  /** The data owner's user id. */
  ownerId: string;
  primary: boolean;
  summary: string;
  description?: string;
  location?: string;
  timeZone: string;
  conferenceProperties?: { allowedConferenceSolutionTypes?: string[] };
  etag: string;
  created: number;
  /** Bumped whenever the calendar or one of its events changes (the events list's `updated`). */
  updated: number;
}

export const DEFAULT_CONFERENCE_TYPES = ['hangoutsMeet'];

export class CalendarsModel {
  private readonly calendars: Collection<StoredCalendar>;

  constructor(private readonly service: CalendarService) {
    this.calendars = service.store.collection<StoredCalendar>('calendar.calendars');
  }

  /** `primary` names the caller's own primary calendar wherever a calendarId is taken. */
  resolveId(user: EmulatorUser, calendarId: string): string {
    return calendarId === 'primary' ? user.email : calendarId;
  }

  /** A calendar by id; a demo user's primary comes into being the first time anyone names it. */
  find(calendarId: string): StoredCalendar | undefined {
    const found = this.calendars.get(calendarId) ?? this.calendars.get(calendarId.toLowerCase());
    if (found) return found;
    const owner = findUser(calendarId);
    return owner && owner.email === calendarId.toLowerCase() ? this.ensurePrimary(owner) : undefined;
  }

  ensurePrimary(user: EmulatorUser): StoredCalendar {
    const existing = this.calendars.get(user.email);
    if (existing) return existing;
    const now = this.service.now();
    const calendar: StoredCalendar = {
      id: user.email,
      ownerId: user.id,
      primary: true,
      summary: user.email,
      timeZone: this.service.settings.timeZoneOf(user.id),
      conferenceProperties: { allowedConferenceSolutionTypes: DEFAULT_CONFERENCE_TYPES },
      etag: newEtag(),
      created: now,
      updated: now,
    };
    this.calendars.set(calendar.id, calendar);
    this.service.acl.addOwnerRule(calendar.id, user.email);
    this.service.calendarList.addOwn(user, calendar);
    return calendar;
  }

  /** The calendar and the caller's role on it; a calendar the caller cannot see is 404. */
  access(user: EmulatorUser, calendarId: string): { calendar: StoredCalendar; role: ReturnType<CalendarService['acl']['roleOf']> } {
    this.ensurePrimary(user);
    const calendar = this.find(this.resolveId(user, calendarId));
    if (!calendar) throw calendarNotFound();
    const role = this.service.acl.roleOf(user, calendar);
    if (role === 'none') throw calendarNotFound();
    return { calendar, role };
  }

  get(user: EmulatorUser, calendarId: string): StoredCalendar {
    return this.access(user, calendarId).calendar;
  }

  insert(user: EmulatorUser, body: CalendarInput): StoredCalendar {
    this.ensurePrimary(user);
    if (!body.summary) throw required('summary', 'body');
    const timeZone = body.timeZone ?? this.service.settings.timeZoneOf(user.id);
    if (!isValidTimeZone(timeZone)) throw invalid(`Invalid time zone: ${timeZone}`, 'timeZone', 'body');
    const now = this.service.now();
    const calendar: StoredCalendar = {
      id: `c_${randomBytes(16).toString('hex')}@group.calendar.google.com`,
      ownerId: user.id,
      primary: false,
      summary: body.summary,
      timeZone,
      conferenceProperties: body.conferenceProperties?.allowedConferenceSolutionTypes
        ? { allowedConferenceSolutionTypes: body.conferenceProperties.allowedConferenceSolutionTypes }
        : { allowedConferenceSolutionTypes: DEFAULT_CONFERENCE_TYPES },
      etag: newEtag(),
      created: now,
      updated: now,
      ...(body.description ? { description: body.description } : {}),
      ...(body.location ? { location: body.location } : {}),
    };
    this.calendars.set(calendar.id, calendar);
    this.service.acl.addOwnerRule(calendar.id, user.email);
    this.service.calendarList.addOwn(user, calendar);
    return calendar;
  }

  /** `update` replaces the writable metadata (summary required), `patch` changes only the fields given. */
  update(user: EmulatorUser, calendarId: string, body: CalendarInput, mode: 'update' | 'patch', ifMatch?: string): StoredCalendar {
    const { calendar, role } = this.access(user, calendarId);
    requireRole(role, 'owner');
    checkIfMatch(calendar.etag, ifMatch, 'the calendar');
    if (mode === 'update' && !body.summary) throw required('summary', 'body');
    if (body.summary === '' || body.summary === null) throw invalid('A calendar needs a summary', 'summary', 'body');
    if (body.timeZone === null && mode === 'patch') throw invalid('A calendar needs a time zone', 'timeZone', 'body');
    if (body.timeZone && !isValidTimeZone(body.timeZone)) throw invalid(`Invalid time zone: ${body.timeZone}`, 'timeZone', 'body');
    if (body.summary !== undefined) calendar.summary = body.summary;
    for (const field of ['description', 'location'] as const) {
      const value = body[field];
      if (value === null || (mode === 'update' && value === undefined) || value === '') delete calendar[field];
      else if (value !== undefined) calendar[field] = value;
    }
    if (body.timeZone) {
      calendar.timeZone = body.timeZone;
      this.service.events.reindexCalendar(calendar.id);
    }
    if (body.conferenceProperties?.allowedConferenceSolutionTypes) {
      calendar.conferenceProperties = { allowedConferenceSolutionTypes: body.conferenceProperties.allowedConferenceSolutionTypes };
    }
    this.touch(calendar);
    this.service.calendarList.touchCalendar(calendar.id);
    return calendar;
  }

  delete(user: EmulatorUser, calendarId: string, ifMatch?: string): void {
    const { calendar, role } = this.access(user, calendarId);
    requireRole(role, 'owner');
    checkIfMatch(calendar.etag, ifMatch, 'the calendar');
    if (calendar.primary) throw badRequest('The primary calendar cannot be deleted. Use calendars.clear to remove its events.');
    // Only the data owner may delete a calendar; other owners may only leave it.
    if (calendar.ownerId !== user.id) throw ownerAccessRequired();
    this.service.events.dropCalendar(calendar.id);
    this.service.acl.dropCalendar(calendar.id);
    this.service.calendarList.dropCalendar(calendar.id);
    this.calendars.delete(calendar.id);
    this.service.noteChange(`events/${calendar.id}`, 'not_exists');
    this.service.noteChange(`acl/${calendar.id}`, 'not_exists');
  }

  /** Deletes every event of a primary calendar (Google refuses it on secondary calendars). */
  clear(user: EmulatorUser, calendarId: string): void {
    const { calendar, role } = this.access(user, calendarId);
    requireRole(role, 'owner');
    if (!calendar.primary) throw badRequest('Only a primary calendar can be cleared; delete the events of a secondary calendar one by one, or delete the calendar.');
    this.service.events.clearCalendar(calendar.id);
  }

  /** A change to the calendar or one of its events. */
  touch(calendar: StoredCalendar): void {
    calendar.updated = Math.max(this.service.now(), calendar.updated);
    calendar.etag = newEtag();
    this.calendars.set(calendar.id, calendar);
  }

  /** An event of the calendar changed: the events list reports it as the calendar's `updated` (the etag stays). */
  noteEventChange(calendar: StoredCalendar): void {
    calendar.updated = Math.max(this.service.now(), calendar.updated);
    this.calendars.set(calendar.id, calendar);
  }

  /** Every calendar whose data owner is `userId` (free/busy of a user, demo data). */
  ownedBy(userId: string): StoredCalendar[] {
    return [...this.calendars.values()].filter((calendar) => calendar.ownerId === userId);
  }
}
