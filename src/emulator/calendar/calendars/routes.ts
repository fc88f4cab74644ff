/** HTTP ↔ model for calendars.* (clear, delete, get, insert, patch, update). */
import { calendarInputSchema } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { Handler, Route } from '../../core/router';
import type { CalendarService } from '../service';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, userOf } from '../routing';
import { renderCalendar } from './render';

const CALENDAR = `${BASE}/calendars/:calendarId`;

export function calendarRoutes(service: CalendarService): readonly Route[] {
  const { calendars } = service;
  const updateCalendar = (mode: 'update' | 'patch'): Handler => async (context) => {
    const body = parseBody(calendarInputSchema, await context.json());
    return { json: renderCalendar(calendars.update(userOf(context), context.params.calendarId, body, mode, ifMatchOf(context))) };
  };
  return [
    {
      id: 'calendar.calendars.get', method: 'GET', path: CALENDAR,
      handle: (context) => {
        const calendar = calendars.get(userOf(context), context.params.calendarId);
        if (ifNoneMatchHits(calendar.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
        return { json: renderCalendar(calendar) };
      },
    },
    {
      id: 'calendar.calendars.insert', method: 'POST', path: `${BASE}/calendars`,
      handle: async (context) => {
        const body = parseBody(calendarInputSchema, await context.json());
        return { json: renderCalendar(calendars.insert(userOf(context), body)) };
      },
    },
    { id: 'calendar.calendars.update', method: 'PUT', path: CALENDAR, handle: updateCalendar('update') },
    { id: 'calendar.calendars.patch', method: 'PATCH', path: CALENDAR, handle: updateCalendar('patch') },
    {
      id: 'calendar.calendars.delete', method: 'DELETE', path: CALENDAR,
      handle: (context) => {
        calendars.delete(userOf(context), context.params.calendarId, ifMatchOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'calendar.calendars.clear', method: 'POST', path: `${CALENDAR}/clear`,
      handle: (context) => {
        calendars.clear(userOf(context), context.params.calendarId);
        return { status: 204, empty: true };
      },
    },
  ];
}
