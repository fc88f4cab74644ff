/** HTTP ↔ model for the eleven events.* operations, and the page an event's htmlLink opens, as one table of named routes. */
import { EVENTS_PAGE, eventInputSchema } from '../../../shared/schemas/calendar';
import { invalid } from '../../core/errors';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { Handler, Reply, RequestContext, Route } from '../../core/router';
import type { StoredCalendar } from '../calendars/model';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../routing';
import type { CalendarService } from '../service';
import { isValidTimeZone, parseTimestampParameter } from '../time';
import { EventListOptions, EventListResult, listEvents, listInstances, prepareListing } from './listing';
import { EventRenderContext, renderEvent, renderEventList, renderEventPage } from './render';
import type { EventView } from './timeline';

const EVENTS = `${BASE}/calendars/:calendarId/events`;
const ORDERINGS = ['startTime', 'updated'] as const;
const SEND_UPDATES = ['all', 'externalOnly', 'none'] as const;
/** What the server sends with a `json` reply. */
const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

function timeZoneParam(context: RequestContext, calendar: StoredCalendar): string {
  const zone = param(context, 'timeZone');
  if (zone !== undefined && !isValidTimeZone(zone)) throw invalid(`Invalid time zone: ${zone}`, 'timeZone');
  return zone ?? calendar.timeZone;
}

/** Parameters every write takes; only conferenceDataVersion changes what is stored. */
function writeOptions(context: RequestContext): { conferenceDataVersion: number } {
  context.query.enumValue('sendUpdates', SEND_UPDATES);
  context.query.boolean('sendNotifications', false);
  context.query.boolean('supportsAttachments', false);
  context.query.integer('eventLabelVersion', { min: 0, max: 1 });
  return { conferenceDataVersion: context.query.integer('conferenceDataVersion', { min: 0, max: 1, default: 0 }) as number };
}

export function eventRoutes(service: CalendarService): readonly Route[] {
  const { events } = service;
  const renderContext = (context: RequestContext, calendar: StoredCalendar, role: EventListResult['role']): EventRenderContext => {
    const maxAttendees = context.query.integer('maxAttendees', { min: 1 });
    return {
      baseUrl: context.baseUrl,
      viewer: userOf(context),
      timeZone: timeZoneParam(context, calendar),
      seesDetails: (event) => events.seesDetails(role, event),
      ...(maxAttendees !== undefined ? { maxAttendees } : {}),
    };
  };
  const renderOne = (context: RequestContext, calendarId: string, view: EventView): Record<string, unknown> => {
    const { calendar, role } = service.calendars.access(userOf(context), calendarId);
    return renderEvent(view, renderContext(context, calendar, role));
  };
  /** The calendar#events answer, with the viewer's default reminders of the calendar when it is in their list. */
  const envelope = async (context: RequestContext, result: EventListResult): Promise<Reply> => {
    const render = renderContext(context, result.calendar, result.role);
    const entry = service.calendarList.roleOf(userOf(context), result.calendar.id) === 'none' ? undefined : tryEntry(service, context, result.calendar.id);
    return { contentType: JSON_CONTENT_TYPE, body: await renderEventList(result, entry?.defaultReminders ?? [], render) };
  };
  const updateEvent = (mode: 'update' | 'patch'): Handler => async (context) => {
    const options = writeOptions(context);
    const body = parseBody(eventInputSchema, await context.json());
    const event = events.update(userOf(context), context.params.calendarId, context.params.eventId, body, mode, { ...options, ifMatch: ifMatchOf(context) });
    return { json: renderOne(context, event.calendarId, { event }) };
  };
  return [
    {
      id: 'calendar.events.list', method: 'GET', path: EVENTS,
      handle: async (context) => {
        const timestamp = (name: string): number | undefined => parseTimestampParameter(name, param(context, name));
        const options: EventListOptions = {
          maxResults: context.query.integer('maxResults', EVENTS_PAGE) as number,
          showDeleted: context.query.boolean('showDeleted', false),
          singleEvents: context.query.boolean('singleEvents', false),
          eventTypes: context.query.all('eventTypes'),
          privateExtendedProperty: context.query.all('privateExtendedProperty'),
          sharedExtendedProperty: context.query.all('sharedExtendedProperty'),
        };
        const optional = {
          pageToken: param(context, 'pageToken'),
          syncToken: param(context, 'syncToken'),
          timeMin: timestamp('timeMin'),
          timeMax: timestamp('timeMax'),
          updatedMin: timestamp('updatedMin'),
          q: param(context, 'q'),
          iCalUID: param(context, 'iCalUID'),
          orderBy: context.query.enumValue('orderBy', ORDERINGS),
        };
        for (const [name, value] of Object.entries(optional)) if (value !== undefined) Object.assign(options, { [name]: value });
        context.query.boolean('showHiddenInvitations', false);
        context.query.boolean('alwaysIncludeEmail', false);
        const budget = await prepareListing(service, userOf(context), context.params.calendarId, options);
        return envelope(context, await listEvents(service, userOf(context), context.params.calendarId, options, budget));
      },
    },
    {
      id: 'calendar.events.get', method: 'GET', path: `${EVENTS}/:eventId`,
      handle: (context) => {
        const { view, calendar, role } = events.get(userOf(context), context.params.calendarId, context.params.eventId);
        if (ifNoneMatchHits(view.event.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
        context.query.boolean('alwaysIncludeEmail', false);
        return { json: renderEvent(view, renderContext(context, calendar, role)) };
      },
    },
    {
      id: 'calendar.events.insert', method: 'POST', path: EVENTS,
      handle: async (context) => {
        const options = writeOptions(context);
        const body = parseBody(eventInputSchema, await context.json());
        const event = events.insert(userOf(context), context.params.calendarId, body, options);
        return { json: renderOne(context, event.calendarId, { event }) };
      },
    },
    {
      id: 'calendar.events.import', method: 'POST', path: `${EVENTS}/import`,
      handle: async (context) => {
        const options = writeOptions(context);
        const body = parseBody(eventInputSchema, await context.json());
        const event = events.import(userOf(context), context.params.calendarId, body, options);
        return { json: renderOne(context, event.calendarId, { event }) };
      },
    },
    { id: 'calendar.events.update', method: 'PUT', path: `${EVENTS}/:eventId`, handle: updateEvent('update') },
    { id: 'calendar.events.patch', method: 'PATCH', path: `${EVENTS}/:eventId`, handle: updateEvent('patch') },
    {
      id: 'calendar.events.delete', method: 'DELETE', path: `${EVENTS}/:eventId`,
      handle: (context) => {
        context.query.enumValue('sendUpdates', SEND_UPDATES);
        context.query.boolean('sendNotifications', false);
        events.delete(userOf(context), context.params.calendarId, context.params.eventId, ifMatchOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'calendar.events.instances', method: 'GET', path: `${EVENTS}/:eventId/instances`,
      handle: async (context) => {
        const timeMin = parseTimestampParameter('timeMin', param(context, 'timeMin'));
        const timeMax = parseTimestampParameter('timeMax', param(context, 'timeMax'));
        const pageToken = param(context, 'pageToken');
        const originalStart = param(context, 'originalStart');
        const budget = await prepareListing(service, userOf(context), context.params.calendarId, { ...(timeMin !== undefined ? { timeMin } : {}), ...(timeMax !== undefined ? { timeMax } : {}), eventId: context.params.eventId, singleEvents: true });
        const result = listInstances(service, userOf(context), context.params.calendarId, context.params.eventId, {
          maxResults: context.query.integer('maxResults', EVENTS_PAGE) as number,
          showDeleted: context.query.boolean('showDeleted', false),
          ...(timeMin !== undefined ? { timeMin } : {}),
          ...(timeMax !== undefined ? { timeMax } : {}),
          ...(pageToken !== undefined ? { pageToken } : {}),
          ...(originalStart !== undefined ? { originalStart } : {}),
        }, budget);
        return envelope(context, result);
      },
    },
    {
      id: 'calendar.events.move', method: 'POST', path: `${EVENTS}/:eventId/move`,
      handle: (context) => {
        context.query.enumValue('sendUpdates', SEND_UPDATES);
        const event = events.move(userOf(context), context.params.calendarId, context.params.eventId, param(context, 'destination'));
        return { json: renderOne(context, event.calendarId, { event }) };
      },
    },
    {
      id: 'calendar.events.quickAdd', method: 'POST', path: `${EVENTS}/quickAdd`,
      handle: (context) => {
        context.query.enumValue('sendUpdates', SEND_UPDATES);
        const event = events.quickAdd(userOf(context), context.params.calendarId, context.query.string('text'));
        return { json: renderOne(context, event.calendarId, { event }) };
      },
    },
    {
      id: 'calendar.events.watch', method: 'POST', path: `${EVENTS}/watch`,
      handle: async (context) => {
        const user = userOf(context);
        const { calendar } = events.open(user, context.params.calendarId, 'freeBusyReader');
        return { json: await service.channels.watchFrom(context, watched(context, `events/${calendar.id}`, `/calendars/${encodeURIComponent(calendar.id)}/events`)) };
      },
    },
    // ---- dev routes
    {
      id: 'emulator.calendar.eventPage', method: 'GET', path: '/emulator/v1/calendar/event', auth: false,
      handle: (context) => ({ contentType: 'text/html; charset=utf-8', body: renderEventPage(context.query.string('eid') ?? '') }),
    },
  ];
}

function tryEntry(service: CalendarService, context: RequestContext, calendarId: string): { defaultReminders: unknown[] } | undefined {
  try {
    return service.calendarList.get(userOf(context), calendarId);
  } catch {
    return undefined;
  }
}
