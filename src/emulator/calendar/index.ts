/** Google Calendar API v3 under /calendar/v3: the service module, its route table, and its demo data. */
import type { ServiceModule } from '../core/server';
import { aclRoutes } from './acl/routes';
import { calendarListRoutes } from './calendarList/routes';
import { calendarRoutes } from './calendars/routes';
import { eventRoutes } from './events/routes';
import { freeBusyRoutes } from './freeBusy/routes';
import { AppCalendars, withinScopeLimits } from './scopeLimits';
import { seedCalendarDemo } from './seed';
import { calendarServiceFor } from './service';
import { settingsRoutes } from './settings/routes';

export { calendarServiceFor } from './service';

export const calendarModule: ServiceModule = {
  name: 'calendar',
  register(router, deps) {
    const service = calendarServiceFor(deps);
    router.addAll(withinScopeLimits(service, new AppCalendars(deps.store), [
      ...calendarRoutes(service), ...calendarListRoutes(service), ...aclRoutes(service), ...eventRoutes(service),
      ...freeBusyRoutes(service), ...settingsRoutes(service),
    ]));
  },
  seedDemo(deps) {
    seedCalendarDemo(calendarServiceFor(deps), deps.now());
  },
};
