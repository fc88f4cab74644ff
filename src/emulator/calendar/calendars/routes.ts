/** HTTP ↔ model for calendars.* (clear, delete, get, insert, patch, update). */
import { calendarInputSchema } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { RequestContext, Router } from '../../core/router';
import type { CalendarService } from '../service';
import { BASE, ifMatchOf, ifNoneMatchOf, NOT_MODIFIED, userOf } from '../http';
import { renderCalendar } from './render';

const CALENDAR = `${BASE}/calendars/:calendarId`;

export function registerCalendarRoutes(router: Router, service: CalendarService): void {
  const { calendars } = service;

  router.get(CALENDAR, (context) => {
    const calendar = calendars.get(userOf(context), context.params.calendarId as string);
    if (ifNoneMatchHits(calendar.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
    return { json: renderCalendar(calendar) };
  });
  router.post(`${BASE}/calendars`, async (context) => {
    const body = parseBody(calendarInputSchema, await context.json());
    return { json: renderCalendar(calendars.insert(userOf(context), body)) };
  });
  for (const mode of ['update', 'patch'] as const) {
    const handler = async (context: RequestContext): Promise<{ json: unknown }> => {
      const body = parseBody(calendarInputSchema, await context.json());
      return { json: renderCalendar(calendars.update(userOf(context), context.params.calendarId as string, body, mode, ifMatchOf(context))) };
    };
    router[mode === 'update' ? 'put' : 'patch'](CALENDAR, handler);
  }
  router.delete(CALENDAR, (context) => {
    calendars.delete(userOf(context), context.params.calendarId as string, ifMatchOf(context));
    return { status: 204, empty: true };
  });
  router.post(`${CALENDAR}/clear`, (context) => {
    calendars.clear(userOf(context), context.params.calendarId as string);
    return { status: 204, empty: true };
  });
}
