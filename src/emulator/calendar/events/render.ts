/**
 * Events as `calendar#event` resources, from the viewer's side: times in the response's zone, `self` flags, instance
 * fields (`recurringEventId`, `originalStartTime`), and for viewers who may only see free/busy (or a private event
 * without writer access) the reduced form Google sends: times and identity, no details.
 */
import { escapeHtml } from '../../core/html';
import { stringifyJson } from '../../core/json';
import { mapInSlices } from '../../core/slices';
import type { EmulatorUser } from '../../identity/users';
import { formatDate, formatDateTime } from '../time';
import type { EventListResult } from './listing';
import type { EventView, StoredEvent } from './timeline';

export interface EventRenderContext {
  baseUrl: string;
  viewer: EmulatorUser;
  /** The zone dateTimes are written in: the request's timeZone, else the calendar's. */
  timeZone: string;
  /** Whether the viewer sees details (summary, attendees, ...) of events that are not private. */
  seesDetails: (event: StoredEvent) => boolean;
  maxAttendees?: number;
}

function point(ms: number, allDay: boolean, zone: string, namedZone: string | undefined): Record<string, string> {
  if (allDay) return { date: formatDate(ms) };
  return namedZone !== undefined ? { dateTime: formatDateTime(ms, zone), timeZone: namedZone } : { dateTime: formatDateTime(ms, zone) };
}

export function htmlLinkOf(baseUrl: string, calendarId: string, eventId: string): string {
  return `${baseUrl}/emulator/v1/calendar/event?eid=${Buffer.from(`${eventId} ${calendarId}`, 'utf8').toString('base64url')}`;
}

/** The same resource as a fresh object (single-event answers: nothing to reuse). */
export function renderEvent(view: EventView, context: EventRenderContext): Record<string, unknown> {
  return renderUncached(view, context, context.seesDetails(view.event));
}

/**
 * A render's JSON text, as listings send it. A calendar's week is listed again and again, so the text is kept per
 * stored event (a few renders each) and reused while nothing it depends on changed: every change gives an event a
 * new etag (part of the key), so a kept text is never stale. Only the text is kept, not the resource object: one
 * string per event is all the garbage collector has to carry.
 */
interface CachedJson {
  readonly etag: string;
  readonly calendarId: string;
  readonly instanceId: string | undefined;
  readonly details: boolean;
  /** What the render depends on besides the event (see contextKey). */
  readonly context: string;
  readonly json: string;
}
const renders = new WeakMap<StoredEvent, CachedJson[]>();
const RENDERS_PER_EVENT = 8;
const contextKeys = new WeakMap<EventRenderContext, string>();

/** The render's dependencies that are the same for every event of one answer, joined once per answer. */
function contextKey(context: EventRenderContext): string {
  let key = contextKeys.get(context);
  if (key === undefined) {
    key = `${context.timeZone}|${context.viewer.email}|${context.maxAttendees ?? ''}|${context.baseUrl}`;
    contextKeys.set(context, key);
  }
  return key;
}

export function renderEventJson(view: EventView, context: EventRenderContext): string {
  const { event } = view;
  const details = context.seesDetails(event);
  const instanceId = view.instance?.id;
  const key = contextKey(context);
  let cached = renders.get(event);
  if (cached) {
    for (const entry of cached) {
      if (entry.etag === event.etag && entry.calendarId === event.calendarId && entry.instanceId === instanceId && entry.details === details && entry.context === key) return entry.json;
    }
  } else {
    renders.set(event, (cached = []));
  }
  const json = stringifyJson(renderUncached(view, context, details));
  if (cached.length >= RENDERS_PER_EVENT) cached.shift();
  cached.push({ etag: event.etag, calendarId: event.calendarId, instanceId, details, context: key, json });
  return json;
}

/** Sets `name` only when `value` is given: Google leaves absent fields out of the resource. */
function setIfDefined(target: Record<string, unknown>, name: string, value: unknown): void {
  if (value !== undefined) target[name] = value;
}

function renderUncached(view: EventView, context: EventRenderContext, details: boolean): Record<string, unknown> {
  const { event, instance } = view;
  const timing = event.timing;
  const zone = context.timeZone;
  const id = instance?.id ?? event.id;
  const startMs = instance?.startMs ?? timing.startMs;
  const endMs = instance?.endMs ?? timing.endMs;
  const originalStart = instance?.originalStart ?? event.originalStart;
  const recurringEventId = instance ? event.id : event.recurringEventId;
  const out: Record<string, unknown> = {
    kind: 'calendar#event',
    etag: event.etag,
    id,
    status: event.status,
    htmlLink: htmlLinkOf(context.baseUrl, event.calendarId, id),
    updated: new Date(event.updated).toISOString(),
  };
  const addTimes = (): void => {
    out.start = point(startMs, timing.allDay, zone, event.body.start?.timeZone ?? undefined);
    out.end = point(endMs, timing.allDay, zone, event.body.end?.timeZone ?? undefined);
    setIfDefined(out, 'recurringEventId', recurringEventId);
    if (originalStart !== undefined) out.originalStartTime = point(originalStart, timing.allDay, zone, timing.zone);
  };
  if (!details) {
    out.iCalUID = event.iCalUID;
    addTimes();
    out.visibility = 'private';
    return out;
  }
  const body = event.body;
  let attendees = body.attendees?.map((attendee) => ({
    ...attendee,
    ...(attendee.email === event.organizer.email ? { organizer: true } : {}),
    ...(attendee.email === context.viewer.email ? { self: true } : {}),
    responseStatus: attendee.responseStatus ?? 'needsAction',
  }));
  let attendeesOmitted = false;
  if (attendees && context.maxAttendees !== undefined && attendees.length > context.maxAttendees) {
    attendees = attendees.filter((attendee) => attendee.self);
    attendeesOmitted = true;
  }
  const person = (who: StoredEvent['creator']): Record<string, unknown> => {
    const rendered: Record<string, unknown> = { email: who.email };
    if (who.displayName) rendered.displayName = who.displayName;
    if (who.email === context.viewer.email) rendered.self = true;
    return rendered;
  };
  out.created = new Date(event.created).toISOString();
  setIfDefined(out, 'summary', body.summary);
  setIfDefined(out, 'description', body.description);
  setIfDefined(out, 'location', body.location);
  setIfDefined(out, 'colorId', body.colorId);
  out.creator = person(event.creator);
  out.organizer = person(event.organizer);
  addTimes();
  if (body.endTimeUnspecified) out.endTimeUnspecified = true;
  if (!instance && body.recurrence?.length) out.recurrence = body.recurrence;
  setIfDefined(out, 'transparency', body.transparency);
  setIfDefined(out, 'visibility', body.visibility);
  out.iCalUID = event.iCalUID;
  out.sequence = event.sequence;
  setIfDefined(out, 'attendees', attendees);
  if (attendeesOmitted) out.attendeesOmitted = true;
  if (event.hangoutLink) out.hangoutLink = event.hangoutLink;
  if (body.conferenceData) out.conferenceData = body.conferenceData;
  setIfDefined(out, 'anyoneCanAddSelf', body.anyoneCanAddSelf);
  setIfDefined(out, 'guestsCanInviteOthers', body.guestsCanInviteOthers);
  setIfDefined(out, 'guestsCanModify', body.guestsCanModify);
  setIfDefined(out, 'guestsCanSeeOtherGuests', body.guestsCanSeeOtherGuests);
  setIfDefined(out, 'privateCopy', body.privateCopy);
  out.reminders = body.reminders ?? { useDefault: true };
  if (body.extendedProperties) out.extendedProperties = body.extendedProperties;
  if (body.attachments) out.attachments = body.attachments;
  if (body.source) out.source = body.source;
  out.eventType = event.eventType;
  if (body.focusTimeProperties) out.focusTimeProperties = body.focusTimeProperties;
  if (body.outOfOfficeProperties) out.outOfOfficeProperties = body.outOfOfficeProperties;
  if (body.workingLocationProperties) out.workingLocationProperties = body.workingLocationProperties;
  if (body.birthdayProperties) out.birthdayProperties = body.birthdayProperties;
  return out;
}

/** The target of htmlLink. A browser carries no token, so the page shows no event content. */
export function renderEventPage(eid: string): string {
  return `<!doctype html><title>Desk emulator event</title><p>Event <code>${escapeHtml(eid)}</code> lives in the Desk emulator. Open it from Desk in VS Code.</p>`;
}

/**
 * The calendar#events answer as JSON bytes. Its text is assembled from each event's cached JSON text
 * (renderEventJson) rather than serialised whole: on a listed week most of the time went into serialising the same
 * events again. As bytes, the server neither measures nor encodes the text again.
 */
export async function renderEventList(result: EventListResult, defaultReminders: readonly unknown[], context: EventRenderContext): Promise<Buffer> {
  const head = JSON.stringify({
    kind: 'calendar#events',
    etag: `"${result.calendar.updated}"`,
    summary: result.calendar.summary,
    ...(result.calendar.description !== undefined ? { description: result.calendar.description } : {}),
    updated: new Date(result.calendar.updated).toISOString(),
    timeZone: result.calendar.timeZone,
    accessRole: result.role,
    defaultReminders,
    ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
    ...(result.nextSyncToken ? { nextSyncToken: result.nextSyncToken } : {}),
    items: [],
  });
  // `items` is the last member: the text ends in `[]}`, and the events go between the brackets.
  // A page holds up to 2,500 events: rendered in slices, letting other requests in between.
  const items = (await mapInSlices(result.views, (view) => renderEventJson(view, context))).join(',');
  return Buffer.from(`${head.slice(0, -2)}${items}]}`, 'utf8');
}
