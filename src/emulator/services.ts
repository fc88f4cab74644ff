/** The list of service modules the emulator registers. */
import { emulatorAdminModule } from './auth/devRoutes';
import { oauthModule } from './auth/oauthRoutes';
import { booksModule } from './books';
import { calendarModule } from './calendar';
import { ServiceModule } from './core/server';
import { directoryModule } from './directory';
import { discoveryModule } from './discoveryApi';
import { driveModule } from './drive';
import { tasksModule } from './tasks';

/** Every service the emulator serves, on one port under their real path prefixes. */
export const SERVICE_MODULES: readonly ServiceModule[] = [
  emulatorAdminModule,
  oauthModule,
  tasksModule,
  driveModule,
  booksModule,
  calendarModule,
  directoryModule,
  discoveryModule,
];
