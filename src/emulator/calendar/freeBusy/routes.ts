/** HTTP ↔ model for freebusy.query. */
import { freeBusyRequestInputSchema } from '../../../shared/schemas/calendar';
import { parseBody } from '../../core/params';
import type { Router } from '../../core/router';
import { BASE, userOf } from '../http';
import type { CalendarService } from '../service';

export function registerFreeBusyRoutes(router: Router, service: CalendarService): void {
  router.post(`${BASE}/freeBusy`, async (context) => {
    const request = parseBody(freeBusyRequestInputSchema, await context.json());
    await service.freeBusy.prepare(userOf(context), request);
    return { json: service.freeBusy.query(userOf(context), request) };
  });
}
