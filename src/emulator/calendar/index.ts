/** Google Calendar API v3 under /calendar/v3: the service module, its route table, and its demo data. */
import type { ServiceModule } from '../core/server';
import { registerAclRoutes } from './acl/routes';
import { registerCalendarListRoutes } from './calendarList/routes';
import { registerCalendarRoutes } from './calendars/routes';
import { registerEventRoutes } from './events/routes';
import { registerFreeBusyRoutes } from './freeBusy/routes';
import { seedCalendarDemo } from './seed';
import { calendarServiceFor } from './service';
import { registerSettingsRoutes } from './settings/routes';

export { calendarServiceFor } from './service';

export const calendarModule: ServiceModule = {
  name: 'calendar',
  register(router, deps) {
    const service = calendarServiceFor(deps);
    registerCalendarRoutes(router, service);
    registerCalendarListRoutes(router, service);
    registerAclRoutes(router, service);
    registerEventRoutes(router, service);
    registerFreeBusyRoutes(router, service);
    registerSettingsRoutes(router, service);
  },
  seedDemo(deps) {
    seedCalendarDemo(calendarServiceFor(deps), deps.now());
  },
};
