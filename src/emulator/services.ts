import { emulatorAdminModule } from './auth/devToken';
import { ServiceModule } from './core/server';

/** Every service the emulator serves, on one port under their real path prefixes. */
export const SERVICE_MODULES: readonly ServiceModule[] = [
  emulatorAdminModule,
];
