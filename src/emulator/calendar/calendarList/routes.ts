/** HTTP ↔ model for calendarList.* (delete, get, insert, list, patch, update, watch). */
import { ACCESS_ROLES, calendarListEntryInputSchema, SMALL_PAGE } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { Handler, RequestContext, Route } from '../../core/router';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../routing';
import { renderCollection } from '../render';
import type { CalendarService } from '../service';
import type { StoredListEntry } from './model';
import { renderListEntry } from './render';

const LIST = `${BASE}/users/me/calendarList`;

export function calendarListRoutes(service: CalendarService): readonly Route[] {
  const { calendars, calendarList } = service;
  const renderEntry = (context: RequestContext, entry: StoredListEntry): Record<string, unknown> =>
    renderListEntry(entry, calendars.find(entry.calendarId), calendarList.roleOf(userOf(context), entry.calendarId));
  const updateEntry = (mode: 'update' | 'patch'): Handler => async (context) => {
    const body = parseBody(calendarListEntryInputSchema, await context.json());
    const entry = calendarList.update(userOf(context), context.params.calendarId, body, mode, context.query.boolean('colorRgbFormat', false), ifMatchOf(context));
    return { json: renderEntry(context, entry) };
  };
  return [
    {
      id: 'calendar.calendarList.list', method: 'GET', path: LIST,
      handle: (context) => {
        const user = userOf(context);
        const minAccessRole = context.query.enumValue('minAccessRole', ACCESS_ROLES.filter((role) => role !== 'none'));
        const syncToken = param(context, 'syncToken');
        const pageToken = param(context, 'pageToken');
        const page = calendarList.list(user, {
          maxResults: context.query.integer('maxResults', SMALL_PAGE) as number,
          showDeleted: context.query.boolean('showDeleted', false),
          showHidden: context.query.boolean('showHidden', false),
          ...(minAccessRole !== undefined ? { minAccessRole } : {}),
          ...(syncToken !== undefined ? { syncToken } : {}),
          ...(pageToken !== undefined ? { pageToken } : {}),
        });
        context.query.boolean('showOwnOrganizationOnly', false);
        return { json: renderCollection('calendar#calendarList', page, (entry) => renderEntry(context, entry)) };
      },
    },
    {
      id: 'calendar.calendarList.get', method: 'GET', path: `${LIST}/:calendarId`,
      handle: (context) => {
        const entry = calendarList.get(userOf(context), context.params.calendarId);
        // The entry's etag also changes when its calendar's metadata does (see calendarList.touchCalendar).
        if (ifNoneMatchHits(entry.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
        return { json: renderEntry(context, entry) };
      },
    },
    {
      id: 'calendar.calendarList.insert', method: 'POST', path: LIST,
      handle: async (context) => {
        const body = parseBody(calendarListEntryInputSchema, await context.json());
        const entry = calendarList.insert(userOf(context), body, context.query.boolean('colorRgbFormat', false));
        return { json: renderEntry(context, entry) };
      },
    },
    { id: 'calendar.calendarList.update', method: 'PUT', path: `${LIST}/:calendarId`, handle: updateEntry('update') },
    { id: 'calendar.calendarList.patch', method: 'PATCH', path: `${LIST}/:calendarId`, handle: updateEntry('patch') },
    {
      id: 'calendar.calendarList.delete', method: 'DELETE', path: `${LIST}/:calendarId`,
      handle: (context) => {
        calendarList.delete(userOf(context), context.params.calendarId, ifMatchOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'calendar.calendarList.watch', method: 'POST', path: `${LIST}/watch`,
      handle: async (context) => {
        const user = userOf(context);
        return { json: await service.channels.watchFrom(context, watched(context, `calendarList/${user.id}`, '/users/me/calendarList')) };
      },
    },
  ];
}
