/** Drive's drives routes (shared drives): list, insert, get, update, delete, hide and unhide. */
import type { DriveAccess, StoredDrive } from './model';
import { renderDrive, renderDriveList } from './render';
import type { DriveRouteKit } from '../routing';
import { domainAdminAccess } from '../routing';
import type { EmulatorUser } from '../../identity/users';
import { requireUser } from '../../core/context';
import { invalid } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { DRIVES_PAGE_DEFAULT, DRIVES_PAGE_MAX, sharedDriveInputSchema } from '../../../shared/schemas/drive/drives';

export function driveRoutes(kit: DriveRouteKit): Route[] {
  const { service } = kit;
  const { drives } = service;
  return [
    { id: 'drive.drives.list', method: 'GET', path: '/drive/v2/drives', handle: listDrives },
    { id: 'drive.drives.insert', method: 'POST', path: '/drive/v2/drives', handle: insertDrive },
    { id: 'drive.drives.get', method: 'GET', path: '/drive/v2/drives/:driveId', handle: getDrive },
    { id: 'drive.drives.update', method: 'PUT', path: '/drive/v2/drives/:driveId', handle: updateDrive },
    { id: 'drive.drives.delete', method: 'DELETE', path: '/drive/v2/drives/:driveId', handle: deleteDrive },
    { id: 'drive.drives.hide', method: 'POST', path: '/drive/v2/drives/:driveId/hide', handle: hideDrive },
    { id: 'drive.drives.unhide', method: 'POST', path: '/drive/v2/drives/:driveId/unhide', handle: unhideDrive },
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
    const items = page.drives.map((drive) => renderDrive(drive, { role: drives.roleOf(user, drive.id) ?? (access.admin ? 'organizer' : undefined), hidden: drives.isHiddenFor(drive, user) }));
    return { json: renderDriveList(items, page.nextPageToken) };
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
