import { BATCH_ENDPOINTS, BatchCall, BatchResult, sendBatch } from './batch';
import {
  AclPage,
  AclRule,
  AclRuleWrite,
  aclPageSchema,
  aclRuleSchema,
  Calendar,
  CalendarEvent,
  CalendarListEntry,
  CalendarListEntryWrite,
  CalendarListPage,
  CalendarWrite,
  calendarListEntrySchema,
  calendarListPageSchema,
  calendarSchema,
  Channel,
  ChannelRequest,
  channelSchema,
  Colors,
  colorsSchema,
  EventsPage,
  EventWrite,
  eventSchema,
  eventsPageSchema,
  FreeBusyRequest,
  FreeBusyResponse,
  freeBusyResponseSchema,
  Setting,
  SettingsPage,
  settingSchema,
  settingsPageSchema,
} from '../shared/schemas/calendar';
import * as z from '../shared/schemas/zod';
import { ResponseValidationError } from './errors';
import { HttpClient, path, QueryValue, RequestOptions } from './http';
import { appendAll } from '../shared/arrays';

export type {
  AclPage, AclRule, AclRuleWrite, Calendar, CalendarEvent, CalendarListEntry, CalendarListEntryWrite, CalendarListPage, CalendarWrite, Channel,
  ChannelRequest, Colors, EventsPage, EventWrite, FreeBusyRequest, FreeBusyResponse, Setting, SettingsPage,
} from '../shared/schemas/calendar';

/**
 * Google Calendar API v3, one method per discovery operation (labels `calendar.<resource>.<method>`), every answer
 * checked against the shared schemas. Retries and auth belong to HttpClient; each method states whether repeating it
 * is safe. Calls on resources with etags take `ifMatch` (a stale write is a 412 GoogleApiError) and gets take
 * `ifNoneMatch` (an unchanged resource resolves to `undefined`, from Google's 304).
 */

const BASE = '/calendar/v3';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ConditionalWrite extends CallOptions {
  /** The etag the caller last saw; Google answers 412 when the resource changed since. */
  ifMatch?: string;
}

export interface ConditionalRead extends CallOptions {
  /** The etag of the caller's copy; an unchanged resource comes back as `undefined` (HTTP 304). */
  ifNoneMatch?: string;
}

/** A conditional get answers `undefined` (HTTP 304) only when the caller passed an etag. */
export type Fresh<O, T> = O extends { ifNoneMatch: string } ? T | undefined : T;

export interface PageOptions extends CallOptions {
  maxResults?: number;
  pageToken?: string;
  /** A nextSyncToken from an earlier listing: only what changed since (410 GoogleApiError when it expired). */
  syncToken?: string;
  /** Google's partial response: only these fields of the listing (e.g. AGENDA_EVENT_FIELDS). */
  fields?: string;
}

/**
 * What Desk reads of a listed event (Agenda and calendar rows, hovers, the details page, join, RSVP, reminders, and
 * the patches and conflict checks of edit, move and delete), with the page and sync tokens: not kind, created,
 * creator, iCalUID, sequence, the guest permissions, extended properties, attachments, source or the typed
 * properties, which nothing in Desk reads. A full listing and each sync ask for the same fields, so the store's
 * events are alike whichever answer brought them.
 */
export const AGENDA_EVENT_FIELDS = 'items(id,etag,status,htmlLink,updated,summary,description,location,colorId,organizer,start,end,recurrence,recurringEventId,originalStartTime,transparency,visibility,attendees,hangoutLink,conferenceData,reminders),nextPageToken,nextSyncToken';
/** What the Calendar view reads of a calendar list entry (rows, hovers, colours, reminders, pickers): not kind, notificationSettings, conferenceProperties, dataOwner. */
export const CALENDAR_ROW_FIELDS = 'items(id,etag,summary,summaryOverride,description,location,timeZone,colorId,backgroundColor,foregroundColor,hidden,selected,accessRole,defaultReminders,primary,deleted),nextPageToken,nextSyncToken';

export interface ListCalendarListOptions extends PageOptions {
  minAccessRole?: 'freeBusyReader' | 'reader' | 'writer' | 'owner';
  showDeleted?: boolean;
  showHidden?: boolean;
}

export interface ListAclOptions extends PageOptions {
  showDeleted?: boolean;
}

/** events.list filters; timestamps are RFC 3339 with an offset. */
export interface ListEventsOptions extends PageOptions {
  timeMin?: string;
  timeMax?: string;
  updatedMin?: string;
  q?: string;
  iCalUID?: string;
  /** `startTime` needs `singleEvents: true`. */
  orderBy?: 'startTime' | 'updated';
  singleEvents?: boolean;
  showDeleted?: boolean;
  eventTypes?: string[];
  privateExtendedProperty?: string[];
  sharedExtendedProperty?: string[];
  timeZone?: string;
  maxAttendees?: number;
}

export interface InstancesOptions extends CallOptions {
  maxResults?: number;
  pageToken?: string;
  timeMin?: string;
  timeMax?: string;
  showDeleted?: boolean;
  originalStart?: string;
  timeZone?: string;
  maxAttendees?: number;
}

export interface EventWriteOptions extends ConditionalWrite {
  /** 1 to create or change conference data (a Meet link); with 0 Google ignores conferenceData. */
  conferenceDataVersion?: 0 | 1;
  sendUpdates?: 'all' | 'externalOnly' | 'none';
}

export interface GetEventOptions extends ConditionalRead {
  timeZone?: string;
  maxAttendees?: number;
}

function query(options: object, exclude: readonly string[] = ['signal', 'ifMatch', 'ifNoneMatch']): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && !exclude.includes(key)));
}

function ifMatch(options: ConditionalWrite): Record<string, string> | undefined {
  return options.ifMatch ? { 'If-Match': options.ifMatch } : undefined;
}

export class CalendarClient {
  constructor(private readonly http: HttpClient) {}

  // ---------------------------------------------------------------- acl

  listAcl(calendarId: string, options: ListAclOptions = {}): Promise<AclPage> {
    return this.http.json(aclPageSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}/acl`, query: query(options), signal: options.signal, operation: 'calendar.acl.list' });
  }

  allAclRules(calendarId: string, options: Omit<ListAclOptions, 'pageToken'> = {}): AsyncGenerator<AclRule> {
    return this.http.items((pageToken) => this.listAcl(calendarId, { ...options, pageToken }), (page) => page.items);
  }

  getAclRule<O extends ConditionalRead>(calendarId: string, ruleId: string, options: O = {} as O): Promise<Fresh<O, AclRule>> {
    return this.conditionalGet(aclRuleSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}/acl/${ruleId}`, signal: options.signal, operation: 'calendar.acl.get' }, options.ifNoneMatch) as Promise<Fresh<O, AclRule>>;
  }

  /** Shares the calendar; inserting the same scope again changes its role, so a retry is harmless. */
  insertAclRule(calendarId: string, rule: Required<Pick<AclRuleWrite, 'role' | 'scope'>>, options: CallOptions & { sendNotifications?: boolean } = {}): Promise<AclRule> {
    return this.http.json(aclRuleSchema, { method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/acl`, query: query(options), json: rule, signal: options.signal, idempotent: true, operation: 'calendar.acl.insert' });
  }

  updateAclRule(calendarId: string, ruleId: string, rule: Required<Pick<AclRuleWrite, 'role'>> & AclRuleWrite, options: ConditionalWrite = {}): Promise<AclRule> {
    return this.http.json(aclRuleSchema, { method: 'PUT', path: path`/calendar/v3/calendars/${calendarId}/acl/${ruleId}`, json: rule, headers: ifMatch(options), signal: options.signal, operation: 'calendar.acl.update' });
  }

  /** Setting the same role twice gives the same rule: safe to retry. */
  patchAclRule(calendarId: string, ruleId: string, rule: AclRuleWrite, options: ConditionalWrite = {}): Promise<AclRule> {
    return this.http.json(aclRuleSchema, { method: 'PATCH', path: path`/calendar/v3/calendars/${calendarId}/acl/${ruleId}`, json: rule, headers: ifMatch(options), signal: options.signal, idempotent: true, operation: 'calendar.acl.patch' });
  }

  deleteAclRule(calendarId: string, ruleId: string, options: ConditionalWrite = {}): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/calendar/v3/calendars/${calendarId}/acl/${ruleId}`, headers: ifMatch(options), signal: options.signal, operation: 'calendar.acl.delete' });
  }

  watchAcl(calendarId: string, channel: ChannelRequest, options: ListAclOptions = {}): Promise<Channel> {
    return this.watch(path`/calendar/v3/calendars/${calendarId}/acl/watch`, channel, options, 'calendar.acl.watch');
  }

  // ---------------------------------------------------------------- calendarList

  listCalendarList(options: ListCalendarListOptions = {}): Promise<CalendarListPage> {
    return this.http.json(calendarListPageSchema, { method: 'GET', path: `${BASE}/users/me/calendarList`, query: query(options), signal: options.signal, operation: 'calendar.calendarList.list' });
  }

  allCalendarListEntries(options: Omit<ListCalendarListOptions, 'pageToken'> = {}): AsyncGenerator<CalendarListEntry> {
    return this.http.items((pageToken) => this.listCalendarList({ ...options, pageToken }), (page) => page.items);
  }

  getCalendarListEntry<O extends ConditionalRead>(calendarId: string, options: O = {} as O): Promise<Fresh<O, CalendarListEntry>> {
    return this.conditionalGet(calendarListEntrySchema, { method: 'GET', path: path`/calendar/v3/users/me/calendarList/${calendarId}`, signal: options.signal, operation: 'calendar.calendarList.get' }, options.ifNoneMatch) as Promise<Fresh<O, CalendarListEntry>>;
  }

  /** Adds an existing calendar to the list; adding it again only re-applies the fields, so a retry is harmless. */
  insertCalendarListEntry(entry: CalendarListEntryWrite & { id: string }, options: CallOptions & { colorRgbFormat?: boolean } = {}): Promise<CalendarListEntry> {
    return this.http.json(calendarListEntrySchema, { method: 'POST', path: `${BASE}/users/me/calendarList`, query: query(options), json: entry, signal: options.signal, idempotent: true, operation: 'calendar.calendarList.insert' });
  }

  updateCalendarListEntry(calendarId: string, entry: CalendarListEntryWrite, options: ConditionalWrite & { colorRgbFormat?: boolean } = {}): Promise<CalendarListEntry> {
    return this.http.json(calendarListEntrySchema, { method: 'PUT', path: path`/calendar/v3/users/me/calendarList/${calendarId}`, query: query(options), json: entry, headers: ifMatch(options), signal: options.signal, operation: 'calendar.calendarList.update' });
  }

  patchCalendarListEntry(calendarId: string, entry: CalendarListEntryWrite, options: ConditionalWrite & { colorRgbFormat?: boolean } = {}): Promise<CalendarListEntry> {
    return this.http.json(calendarListEntrySchema, { method: 'PATCH', path: path`/calendar/v3/users/me/calendarList/${calendarId}`, query: query(options), json: entry, headers: ifMatch(options), signal: options.signal, idempotent: true, operation: 'calendar.calendarList.patch' });
  }

  deleteCalendarListEntry(calendarId: string, options: ConditionalWrite = {}): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/calendar/v3/users/me/calendarList/${calendarId}`, headers: ifMatch(options), signal: options.signal, operation: 'calendar.calendarList.delete' });
  }

  watchCalendarList(channel: ChannelRequest, options: ListCalendarListOptions = {}): Promise<Channel> {
    return this.watch(`${BASE}/users/me/calendarList/watch`, channel, options, 'calendar.calendarList.watch');
  }

  // ---------------------------------------------------------------- calendars

  getCalendar<O extends ConditionalRead>(calendarId: string, options: O = {} as O): Promise<Fresh<O, Calendar>> {
    return this.conditionalGet(calendarSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}`, signal: options.signal, operation: 'calendar.calendars.get' }, options.ifNoneMatch) as Promise<Fresh<O, Calendar>>;
  }

  /** Creates a secondary calendar: not idempotent (a retry would create a second one), so 5xx are surfaced. */
  insertCalendar(calendar: CalendarWrite & { summary: string }, options: CallOptions = {}): Promise<Calendar> {
    return this.http.json(calendarSchema, { method: 'POST', path: `${BASE}/calendars`, json: calendar, signal: options.signal, operation: 'calendar.calendars.insert' });
  }

  updateCalendar(calendarId: string, calendar: CalendarWrite & { summary: string }, options: ConditionalWrite = {}): Promise<Calendar> {
    return this.http.json(calendarSchema, { method: 'PUT', path: path`/calendar/v3/calendars/${calendarId}`, json: calendar, headers: ifMatch(options), signal: options.signal, operation: 'calendar.calendars.update' });
  }

  patchCalendar(calendarId: string, calendar: CalendarWrite, options: ConditionalWrite = {}): Promise<Calendar> {
    return this.http.json(calendarSchema, { method: 'PATCH', path: path`/calendar/v3/calendars/${calendarId}`, json: calendar, headers: ifMatch(options), signal: options.signal, idempotent: true, operation: 'calendar.calendars.patch' });
  }

  deleteCalendar(calendarId: string, options: ConditionalWrite = {}): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/calendar/v3/calendars/${calendarId}`, headers: ifMatch(options), signal: options.signal, operation: 'calendar.calendars.delete' });
  }

  /** Deletes every event of a primary calendar; clearing twice leaves it as empty as once. */
  clearCalendar(calendarId: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({ method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/clear`, signal: options.signal, idempotent: true, operation: 'calendar.calendars.clear' });
  }

  // ---------------------------------------------------------------- channels, colors, freebusy

  /** Stopping a stopped channel is a 404, never a second effect: safe to retry. */
  stopChannel(channel: { id: string; resourceId: string }, options: CallOptions = {}): Promise<void> {
    return this.http.empty({ method: 'POST', path: `${BASE}/channels/stop`, json: channel, signal: options.signal, idempotent: true, operation: 'calendar.channels.stop' });
  }

  getColors(options: CallOptions = {}): Promise<Colors> {
    return this.http.json(colorsSchema, { method: 'GET', path: `${BASE}/colors`, signal: options.signal, operation: 'calendar.colors.get' });
  }

  /** A read despite being a POST: safe to retry. */
  queryFreeBusy(request: FreeBusyRequest, options: CallOptions = {}): Promise<FreeBusyResponse> {
    return this.http.json(freeBusyResponseSchema, { method: 'POST', path: `${BASE}/freeBusy`, json: request, signal: options.signal, idempotent: true, operation: 'calendar.freebusy.query' });
  }

  // ---------------------------------------------------------------- events

  listEvents(calendarId: string, options: ListEventsOptions = {}): Promise<EventsPage> {
    return this.http.json(eventsPageSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}/events`, query: query(options), signal: options.signal, operation: 'calendar.events.list' });
  }

  /** Every event across pages; for a sync, read `nextSyncToken` with `listEvents` on the last page instead. */
  allEvents(calendarId: string, options: Omit<ListEventsOptions, 'pageToken'> = {}): AsyncGenerator<CalendarEvent> {
    return this.http.items((pageToken) => this.listEvents(calendarId, { ...options, pageToken }), (page) => page.items);
  }

  /**
   * One incremental (or, without a token, full) sync: every page, then the token for next time. A 410 from an
   * expired token propagates: the caller drops its copy and syncs again without one.
   */
  async syncEvents(calendarId: string, syncToken: string | undefined, options: Pick<ListEventsOptions, 'singleEvents' | 'maxResults' | 'signal'> = {}): Promise<{ items: CalendarEvent[]; nextSyncToken: string | undefined }> {
    const items: CalendarEvent[] = [];
    let nextSyncToken: string | undefined;
    for await (const page of this.http.pages((pageToken) => this.listEvents(calendarId, { ...options, pageToken, ...(syncToken ? { syncToken } : { showDeleted: true }) }))) {
      appendAll(items, page.items);
      nextSyncToken = page.nextSyncToken ?? nextSyncToken;
    }
    return { items, nextSyncToken };
  }

  getEvent<O extends GetEventOptions>(calendarId: string, eventId: string, options: O = {} as O): Promise<Fresh<O, CalendarEvent>> {
    return this.conditionalGet(eventSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}`, query: query(options), signal: options.signal, operation: 'calendar.events.get' }, options.ifNoneMatch) as Promise<Fresh<O, CalendarEvent>>;
  }

  /**
   * Creates an event. Idempotent only when the caller chose the id: a repeated insert is then a 409, never a
   * duplicate event; without an id a retry could create two, so 5xx are surfaced.
   */
  insertEvent(calendarId: string, event: EventWrite, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/events`, query: query(options), json: event, signal: options.signal, idempotent: typeof event.id === 'string', operation: 'calendar.events.insert' });
  }

  /** Imports by iCalUID: importing the same event again updates it in place, so a retry is harmless. */
  importEvent(calendarId: string, event: EventWrite & { iCalUID: string }, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/events/import`, query: query(options), json: event, signal: options.signal, idempotent: true, operation: 'calendar.events.import' });
  }

  /** Replaces the whole event: fields not sent are cleared. */
  updateEvent(calendarId: string, eventId: string, event: EventWrite, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'PUT', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}`, query: query(options), json: event, headers: ifMatch(options), signal: options.signal, operation: 'calendar.events.update' });
  }

  /** Changes only the fields sent (an array replaces the whole array; `null` clears); the same patch twice is the same result. */
  patchEvent(calendarId: string, eventId: string, event: EventWrite, options: EventWriteOptions = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'PATCH', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}`, query: query(options), json: event, headers: ifMatch(options), signal: options.signal, idempotent: true, operation: 'calendar.events.patch' });
  }

  /** Deleting an instance id cancels just that instance. A repeated delete is a 410, so DELETE's retry stays safe. */
  deleteEvent(calendarId: string, eventId: string, options: ConditionalWrite & { sendUpdates?: EventWriteOptions['sendUpdates'] } = {}): Promise<void> {
    return this.http.empty({ method: 'DELETE', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}`, query: query(options), headers: ifMatch(options), signal: options.signal, operation: 'calendar.events.delete' });
  }

  /** Several events of one calendar deleted in one batch request (50 per request): a result per event, in order. */
  deleteEvents(calendarId: string, eventIds: readonly string[], options: CallOptions = {}): Promise<BatchResult<void>[]> {
    return sendBatch(this.http, BATCH_ENDPOINTS.calendar, eventIds.map((eventId): BatchCall<void> => ({
      method: 'DELETE',
      path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}`,
      operation: 'calendar.events.delete',
    })), options.signal);
  }

  listInstances(calendarId: string, eventId: string, options: InstancesOptions = {}): Promise<EventsPage> {
    return this.http.json(eventsPageSchema, { method: 'GET', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}/instances`, query: query(options), signal: options.signal, operation: 'calendar.events.instances' });
  }

  allInstances(calendarId: string, eventId: string, options: Omit<InstancesOptions, 'pageToken'> = {}): AsyncGenerator<CalendarEvent> {
    return this.http.items((pageToken) => this.listInstances(calendarId, eventId, { ...options, pageToken }), (page) => page.items);
  }

  /** Moves an event to another calendar (its organizer changes). Moving it again would 404 at the source: not retried. */
  moveEvent(calendarId: string, eventId: string, destination: string, options: CallOptions & { sendUpdates?: EventWriteOptions['sendUpdates'] } = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/events/${eventId}/move`, query: query({ ...options, destination }), signal: options.signal, operation: 'calendar.events.move' });
  }

  /** Creates an event from a sentence; not idempotent (a retry would add a second event). */
  quickAddEvent(calendarId: string, text: string, options: CallOptions & { sendUpdates?: EventWriteOptions['sendUpdates'] } = {}): Promise<CalendarEvent> {
    return this.http.json(eventSchema, { method: 'POST', path: path`/calendar/v3/calendars/${calendarId}/events/quickAdd`, query: query({ ...options, text }), signal: options.signal, operation: 'calendar.events.quickAdd' });
  }

  watchEvents(calendarId: string, channel: ChannelRequest, options: ListEventsOptions = {}): Promise<Channel> {
    return this.watch(path`/calendar/v3/calendars/${calendarId}/events/watch`, channel, options, 'calendar.events.watch');
  }

  // ---------------------------------------------------------------- settings

  listSettings(options: PageOptions = {}): Promise<SettingsPage> {
    return this.http.json(settingsPageSchema, { method: 'GET', path: `${BASE}/users/me/settings`, query: query(options), signal: options.signal, operation: 'calendar.settings.list' });
  }

  allSettings(options: Omit<PageOptions, 'pageToken'> = {}): AsyncGenerator<Setting> {
    return this.http.items((pageToken) => this.listSettings({ ...options, pageToken }), (page) => page.items);
  }

  getSetting<O extends ConditionalRead>(setting: string, options: O = {} as O): Promise<Fresh<O, Setting>> {
    return this.conditionalGet(settingSchema, { method: 'GET', path: path`/calendar/v3/users/me/settings/${setting}`, signal: options.signal, operation: 'calendar.settings.get' }, options.ifNoneMatch) as Promise<Fresh<O, Setting>>;
  }

  watchSettings(channel: ChannelRequest, options: PageOptions = {}): Promise<Channel> {
    return this.watch(`${BASE}/users/me/settings/watch`, channel, options, 'calendar.settings.watch');
  }

  // ---------------------------------------------------------------- shared

  /** A GET that may answer 304: `undefined` then means "your copy (ifNoneMatch) is current". */
  private async conditionalGet<T>(schema: z.ZodMiniType<T>, request: RequestOptions, ifNoneMatch: string | undefined): Promise<T | undefined> {
    if (!ifNoneMatch) return this.http.json(schema, request);
    const response = await this.http.send({ ...request, headers: { 'If-None-Match': ifNoneMatch } }, (status) => status === 304 || (status >= 200 && status < 300));
    if (response.status === 304) {
      await response.arrayBuffer();
      return undefined;
    }
    const result = schema.safeParse(await response.json().catch(() => undefined));
    if (!result.success) throw new ResponseValidationError(request.operation, result.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '));
    return result.data;
  }

  /** Opens a channel; a repeated watch with the same channel id is refused (400), never a second channel: safe to retry. */
  private watch(requestPath: string, channel: ChannelRequest, options: CallOptions, operation: string): Promise<Channel> {
    return this.http.json(channelSchema, { method: 'POST', path: requestPath, query: query(options), json: channel, signal: options.signal, idempotent: true, operation });
  }
}
