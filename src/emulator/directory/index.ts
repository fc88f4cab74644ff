/** The Admin SDK Directory API (users and their change channels) as a ServiceModule. */
import { channelRegistryFor } from '../core/channels';
import { perStore } from '../core/perStore';
import type { ServiceModule } from '../core/server';
import { DirectoryModel } from './model';
import { directoryRoutes } from './routes';

export { DEMO_CUSTOMER_ID, DEMO_DOMAIN } from './model';

/** One directory per store: routes, tests and benchmarks share its model. */
export const directoryModelFor = perStore((deps) => new DirectoryModel(deps.store, deps.now, channelRegistryFor(deps)));

export const directoryModule: ServiceModule = {
  name: 'directory',
  register(router, deps) {
    router.addAll(directoryRoutes(directoryModelFor(deps), channelRegistryFor(deps)));
  },
};
