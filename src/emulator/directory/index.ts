/** The Admin SDK Directory API (users and their change channels) as a ServiceModule, plus the emulator-only routes of its local CA. */
import { isIP } from 'node:net';
import { channelRegistryFor } from '../core/channels';
import { invalid, required } from '../core/errors';
import { perStore } from '../core/perStore';
import type { ServiceModule } from '../core/server';
import { DirectoryModel } from './model';
import { registerDirectoryRoutes } from './routes';

export { DEMO_CUSTOMER_ID, DEMO_DOMAIN } from './model';

/** One directory per store: routes, tests and benchmarks share its model. */
export const directoryModelFor = perStore((deps) => new DirectoryModel(deps.store, deps.now, channelRegistryFor(deps)));

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const directoryModule: ServiceModule = {
  name: 'directory',
  register(router, deps) {
    const channels = channelRegistryFor(deps);
    registerDirectoryRoutes(router, directoryModelFor(deps), channels);
    // Emulator-only, loopback like the rest of /emulator/v1: the CA clients trust, and receiver certificates from it
    // (what `desk-emulator cert --url` asks a running emulator for, the in-memory CA included).
    router.get('/emulator/v1/channels/ca', () => ({ contentType: 'application/x-pem-file', body: channels.certificateAuthority().certPem }), { auth: false });
    router.post('/emulator/v1/channels/certificates', (context) => {
      const hosts = context.query.all('host');
      if (hosts.length === 0) throw required('host');
      if (hosts.length > 16) throw invalid('At most 16 hosts', 'host');
      for (const host of hosts) if (!isIP(host) && !HOST_NAME.test(host)) throw invalid(`Invalid host: ${host.slice(0, 100)}`, 'host');
      const authority = channels.certificateAuthority();
      return { json: { ...authority.issue({ hosts }), ca: authority.certPem } };
    }, { auth: false });
  },
};
