/** Drive's drives routes (shared drives): list, insert, get, update, delete, hide and unhide. */
import { DRIVES_PAGE_DEFAULT, DRIVES_PAGE_MAX, SharedDriveList, sharedDriveInputSchema } from '../../../shared/schemas/drive/drives';
import type { EmulatorUser } from '../../auth/users';
import { requireUser } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext } from '../../core/router';
import type { DriveRoute, DriveRouteKit } from '../routing';
import type { DriveService } from '../service';
import type { DriveAccess, StoredDrive } from './model';
import { renderDrive } from './render';

/**
 * `useDomainAdminAccess=true` is honoured for the domain's administrators only (Directory's isAdmin); anyone else
 * asking with it is refused, as Drive does. The drives routes and the permissions routes (on a drive's id) use it.
 */
export function domainAdminAccess(service: Pick<DriveService, 'isDomainAdmin'>, context: RequestContext, user: EmulatorUser, reason: string): DriveAccess {
  if (!context.query.boolean('useDomainAdminAccess', false)) return {};
  if (!service.isDomainAdmin(user)) throw forbidden('The user is not a domain administrator: useDomainAdminAccess needs an administrator.', reason);
  return { admin: true };
}

export function driveRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { service } = kit;
  const { drives } = service;
  return [
    ['GET', '/drive/v2/drives', listDrives],
    ['POST', '/drive/v2/drives', insertDrive],
    ['GET', '/drive/v2/drives/:driveId', getDrive],
    ['PUT', '/drive/v2/drives/:driveId', updateDrive],
    ['DELETE', '/drive/v2/drives/:driveId', deleteDrive],
    ['POST', '/drive/v2/drives/:driveId/hide', hideDrive],
    ['POST', '/drive/v2/drives/:driveId/unhide', unhideDrive],
  ];

  function adminAccess(context: RequestContext, user: EmulatorUser, reason: string): DriveAccess {
    return domainAdminAccess(service, context, user, reason);
  }

  function reply(user: EmulatorUser, drive: StoredDrive, status = 200): Reply {
    return { status, json: renderDrive(drive, { role: drives.roleOf(user, drive.id) ?? 'organizer', hidden: drives.isHiddenFor(drive, user) }) };
  }

  function listDrives(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = adminAccess(context, user, 'noListTeamDrivesAdministratorPrivilege');
    const maxResults = context.query.integer('maxResults', { min: 1, max: DRIVES_PAGE_MAX, default: DRIVES_PAGE_DEFAULT }) ?? DRIVES_PAGE_DEFAULT;
    const page = drives.list(user, { q: context.query.string('q', 2048), maxResults, pageToken: context.query.string('pageToken', 512), admin: access.admin === true });
    const list: SharedDriveList = {
      kind: 'drive#driveList',
      items: page.drives.map((drive) => renderDrive(drive, { role: drives.roleOf(user, drive.id) ?? (access.admin ? 'organizer' : undefined), hidden: drives.isHiddenFor(drive, user) })),
    };
    if (page.nextPageToken !== undefined) list.nextPageToken = page.nextPageToken;
    return { json: list };
  }

  async function insertDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(sharedDriveInputSchema, await context.json());
    const drive = drives.insert(user, context.query.string('requestId', 512), input);
    return reply(user, drive);
  }

  function getDrive(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = adminAccess(context, user, 'noManageTeamDriveAdministratorPrivilege');
    return reply(user, drives.get(user, context.params.driveId as string, access));
  }

  async function updateDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(sharedDriveInputSchema, await context.json());
    const access = adminAccess(context, user, 'noManageTeamDriveAdministratorPrivilege');
    return reply(user, drives.update(user, context.params.driveId as string, input, access));
  }

  async function deleteDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const allowItemDeletion = context.query.boolean('allowItemDeletion', false);
    const access = adminAccess(context, user, 'noManageTeamDriveAdministratorPrivilege');
    // As the reference says: items are deleted with the drive only by an administrator asking as one.
    if (allowItemDeletion && !access.admin) throw invalid('allowItemDeletion is only supported when useDomainAdminAccess is also set to true.', 'allowItemDeletion');
    const garbage = drives.delete(user, context.params.driveId as string, { allowItemDeletion, admin: access.admin === true });
    await kit.freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  }

  function hideDrive(context: RequestContext): Reply {
    const user = requireUser(context);
    return reply(user, drives.setHidden(user, context.params.driveId as string, true));
  }

  function unhideDrive(context: RequestContext): Reply {
    const user = requireUser(context);
    return reply(user, drives.setHidden(user, context.params.driveId as string, false));
  }
}
