/** The Drive emulator as a ServiceModule: every resource's route table behind the wait for durable roots, and its demo data. */
import { ServiceModule } from '../core/server';
import { appRoutes } from './apps/routes';
import { changeRoutes } from './changes/routes';
import { channelRoutes, driveChannelsFor } from './channels';
import { commentRoutes } from './comments/routes';
import { contentRoutes } from './content/routes';
import { driveDevRoutes } from './devRoutes';
import { driveRoutes } from './drives/routes';
import { teamDriveRoutes } from './drives/teamDrives';
import { fileRoutes } from './files/routes';
import { labelRoutes } from './labels/routes';
import { permissionRoutes } from './permissions/routes';
import { propertyRoutes } from './properties/routes';
import { revisionRoutes } from './revisions/routes';
import { afterReady, driveRouteKit } from './routing';
import { seedDriveDemo } from './seed';
import { driveServiceFor } from './service';

/**
 * Drive v2 (files, folders, uploads, exports, changes) under /drive/v2 and /upload/drive/v2: parameters validated
 * as the discovery document declares them, uploads streamed to the blob store before the metadata commit, blobs
 * freed after it.
 */
export const driveModule: ServiceModule = {
  name: 'drive',
  register(router, deps) {
    const service = driveServiceFor(deps);
    const kit = driveRouteKit(service);
    router.addAll(afterReady(service, [
      ...appRoutes(kit), ...changeRoutes(kit), ...fileRoutes(kit), ...contentRoutes(kit), ...permissionRoutes(kit),
      ...commentRoutes(kit), ...propertyRoutes(kit), ...revisionRoutes(kit), ...labelRoutes(kit), ...driveRoutes(kit),
      ...teamDriveRoutes(kit), ...channelRoutes(service, driveChannelsFor(service, deps)), ...driveDevRoutes,
    ]));
  },
  async seedDemo(deps) {
    await seedDriveDemo(driveServiceFor(deps));
  },
};
