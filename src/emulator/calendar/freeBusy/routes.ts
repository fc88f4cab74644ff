/** HTTP ↔ model for freebusy.query. */
import { freeBusyRequestInputSchema } from '../../../shared/schemas/calendar';
import { parseBody } from '../../core/params';
import type { Route } from '../../core/router';
import { BASE, userOf } from '../routing';
import type { CalendarService } from '../service';

export function freeBusyRoutes(service: CalendarService): readonly Route[] {
  return [
    {
      id: 'calendar.freebusy.query', method: 'POST', path: `${BASE}/freeBusy`,
      handle: async (context) => {
        const request = parseBody(freeBusyRequestInputSchema, await context.json());
        return { json: await service.freeBusy.answer(userOf(context), request) };
      },
    },
  ];
}
