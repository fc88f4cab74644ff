/**
 * Drive v2's deprecated `teamdrives` resource (insert, get, list, update, delete): the same shared drives as `drives`,
 * under their old names. Clients written before 2019 still call it; Google keeps it working, so the emulator does too.
 */
import type { StoredDrive } from './model';
import { renderTeamDrive, renderTeamDriveList } from './render';
import type { DriveRouteKit } from '../routing';
import { domainAdminAccess } from '../routing';
import type { EmulatorUser } from '../../identity/users';
import { requireUser } from '../../core/context';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import {
  DRIVES_PAGE_DEFAULT,
  DRIVES_PAGE_MAX,
  SharedDriveInput,
  TeamDrive,
  TeamDriveInput,
  teamDriveInputSchema,
} from '../../../shared/schemas/drive/drives';

/** A teamdrives body as the drives model takes it. */
function asDriveInput(input: TeamDriveInput): SharedDriveInput {
  const { restrictions, ...rest } = input;
  if (!restrictions) return rest;
  const { teamMembersOnly, ...others } = restrictions;
  return { ...rest, restrictions: { ...others, ...(teamMembersOnly !== undefined ? { driveMembersOnly: teamMembersOnly } : {}) } };
}

export function teamDriveRoutes(kit: DriveRouteKit): Route[] {
  const { service } = kit;
  const { drives } = service;
  return [
    { id: 'drive.teamdrives.list', method: 'GET', path: '/drive/v2/teamdrives', handle: listTeamDrives },
    { id: 'drive.teamdrives.insert', method: 'POST', path: '/drive/v2/teamdrives', handle: insertTeamDrive },
    { id: 'drive.teamdrives.get', method: 'GET', path: '/drive/v2/teamdrives/:teamDriveId', handle: getTeamDrive },
    { id: 'drive.teamdrives.update', method: 'PUT', path: '/drive/v2/teamdrives/:teamDriveId', handle: updateTeamDrive },
    { id: 'drive.teamdrives.delete', method: 'DELETE', path: '/drive/v2/teamdrives/:teamDriveId', handle: deleteTeamDrive },
  ];

  function render(user: EmulatorUser, drive: StoredDrive): TeamDrive {
    // An administrator asking as one, without a member role, manages it as an organizer would.
    return renderTeamDrive(drive, drives.roleOf(user, drive.id) ?? 'organizer');
  }

  function listTeamDrives(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = domainAdminAccess(service, context, user, 'noListTeamDrivesAdministratorPrivilege');
    const maxResults = context.query.integer('maxResults', { min: 1, max: DRIVES_PAGE_MAX, default: DRIVES_PAGE_DEFAULT }) ?? DRIVES_PAGE_DEFAULT;
    const page = drives.list(user, { q: context.query.string('q', 2048), maxResults, pageToken: context.query.string('pageToken', 512), admin: access.admin === true });
    return { json: renderTeamDriveList(page.drives.map((drive) => render(user, drive)), page.nextPageToken) };
  }

  async function insertTeamDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = asDriveInput(parseBody(teamDriveInputSchema, await context.json()));
    return { json: render(user, drives.insert(user, context.query.string('requestId', 512), input)) };
  }

  function getTeamDrive(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = domainAdminAccess(service, context, user, 'noManageTeamDriveAdministratorPrivilege');
    return { json: render(user, drives.get(user, context.params.teamDriveId as string, access)) };
  }

  async function updateTeamDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = asDriveInput(parseBody(teamDriveInputSchema, await context.json()));
    const access = domainAdminAccess(service, context, user, 'noManageTeamDriveAdministratorPrivilege');
    return { json: render(user, drives.update(user, context.params.teamDriveId as string, input, access)) };
  }

  async function deleteTeamDrive(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const garbage = drives.delete(user, context.params.teamDriveId as string, { allowItemDeletion: false, admin: false });
    await kit.freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  }
}
