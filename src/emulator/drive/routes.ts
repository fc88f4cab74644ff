/** Drive v2's HTTP side: the route tables of each resource, registered behind the wait for durable root folders. */
import type { Router } from '../core/router';
import { appRoutes } from './apps/routes';
import { changeRoutes } from './changes/routes';
import { contentRoutes } from './content/routes';
import { driveDevRoutes } from './devRoutes';
import { fileRoutes } from './files/routes';
import { permissionRoutes } from './permissions/routes';
import { commentRoutes } from './comments/routes';
import { propertyRoutes } from './properties/routes';
import { revisionRoutes } from './revisions/routes';
import { labelRoutes } from './labels/routes';
import { driveRoutes } from './drives/routes';
import { teamDriveRoutes } from './drives/teamDrives';
import { driveRouteKit, registerRouteTables } from './routing';
import type { DriveService } from './service';

/**
 * HTTP ↔ model for Drive v2: parameters validated as the discovery document declares them, uploads streamed to
 * the blob store before the metadata commit, blobs freed after it.
 */
export function registerDriveRoutes(router: Router, service: DriveService): void {
  const kit = driveRouteKit(service);
  registerRouteTables(router, service, [appRoutes(kit), changeRoutes(kit), fileRoutes(kit), contentRoutes(kit), permissionRoutes(kit), commentRoutes(kit), propertyRoutes(kit), revisionRoutes(kit), labelRoutes(kit), driveRoutes(kit), teamDriveRoutes(kit), driveDevRoutes]);
}
