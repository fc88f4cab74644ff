/**
 * Events as `calendar#event` resources, from the viewer's side: times in the response's zone, `self` flags, instance
 * fields (`recurringEventId`, `originalStartTime`), and for viewers who may only see free/busy (or a private event
 * without writer access) the reduced form Google sends: times and identity, no details.
 */
import type { EmulatorUser } from '../../auth/users';
import { formatDate, formatDateTime } from '../time';
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
  return { dateTime: formatDateTime(ms, zone), ...(namedZone !== undefined ? { timeZone: namedZone } : {}) };
}

export function htmlLinkOf(baseUrl: string, calendarId: string, eventId: string): string {
  return `${baseUrl}/emulator/v1/calendar/event?eid=${Buffer.from(`${eventId} ${calendarId}`, 'utf8').toString('base64url')}`;
}

export function renderEvent(view: EventView, context: EventRenderContext): Record<string, unknown> {
  const { event, instance } = view;
  const timing = event.timing;
  const zone = context.timeZone;
  const id = instance?.id ?? event.id;
  const startMs = instance?.startMs ?? timing.startMs;
  const endMs = instance?.endMs ?? timing.endMs;
  const originalStart = instance?.originalStart ?? event.originalStart;
  const recurringEventId = instance ? event.id : event.recurringEventId;
  const identity: Record<string, unknown> = {
    kind: 'calendar#event',
    etag: event.etag,
    id,
    status: event.status,
    htmlLink: htmlLinkOf(context.baseUrl, event.calendarId, id),
    updated: new Date(event.updated).toISOString(),
  };
  const times = {
    start: point(startMs, timing.allDay, zone, event.body.start?.timeZone ?? undefined),
    end: point(endMs, timing.allDay, zone, event.body.end?.timeZone ?? undefined),
    ...(recurringEventId !== undefined ? { recurringEventId } : {}),
    ...(originalStart !== undefined ? { originalStartTime: point(originalStart, timing.allDay, zone, timing.zone) } : {}),
  };
  if (!context.seesDetails(event)) {
    return { ...identity, iCalUID: event.iCalUID, ...times, visibility: 'private' };
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
  return {
    ...identity,
    created: new Date(event.created).toISOString(),
    ...(body.summary !== undefined ? { summary: body.summary } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.location !== undefined ? { location: body.location } : {}),
    ...(body.colorId !== undefined ? { colorId: body.colorId } : {}),
    creator: { email: event.creator.email, ...(event.creator.displayName ? { displayName: event.creator.displayName } : {}), ...(event.creator.email === context.viewer.email ? { self: true } : {}) },
    organizer: { email: event.organizer.email, ...(event.organizer.displayName ? { displayName: event.organizer.displayName } : {}), ...(event.organizer.email === context.viewer.email ? { self: true } : {}) },
    ...times,
    ...(body.endTimeUnspecified ? { endTimeUnspecified: true } : {}),
    ...(!instance && body.recurrence?.length ? { recurrence: body.recurrence } : {}),
    ...(body.transparency !== undefined ? { transparency: body.transparency } : {}),
    ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
    iCalUID: event.iCalUID,
    sequence: event.sequence,
    ...(attendees ? { attendees } : {}),
    ...(attendeesOmitted ? { attendeesOmitted: true } : {}),
    ...(event.hangoutLink ? { hangoutLink: event.hangoutLink } : {}),
    ...(body.conferenceData ? { conferenceData: body.conferenceData } : {}),
    ...(body.anyoneCanAddSelf !== undefined ? { anyoneCanAddSelf: body.anyoneCanAddSelf } : {}),
    ...(body.guestsCanInviteOthers !== undefined ? { guestsCanInviteOthers: body.guestsCanInviteOthers } : {}),
    ...(body.guestsCanModify !== undefined ? { guestsCanModify: body.guestsCanModify } : {}),
    ...(body.guestsCanSeeOtherGuests !== undefined ? { guestsCanSeeOtherGuests: body.guestsCanSeeOtherGuests } : {}),
    ...(body.privateCopy !== undefined ? { privateCopy: body.privateCopy } : {}),
    reminders: body.reminders ?? { useDefault: true },
    ...(body.extendedProperties ? { extendedProperties: body.extendedProperties } : {}),
    ...(body.attachments ? { attachments: body.attachments } : {}),
    ...(body.source ? { source: body.source } : {}),
    eventType: event.eventType,
    ...(body.focusTimeProperties ? { focusTimeProperties: body.focusTimeProperties } : {}),
    ...(body.outOfOfficeProperties ? { outOfOfficeProperties: body.outOfOfficeProperties } : {}),
    ...(body.workingLocationProperties ? { workingLocationProperties: body.workingLocationProperties } : {}),
    ...(body.birthdayProperties ? { birthdayProperties: body.birthdayProperties } : {}),
  };
}
