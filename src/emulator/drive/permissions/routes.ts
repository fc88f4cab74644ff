/** Drive's permissions routes: list, get, insert, update, patch and delete a file's grants, and getIdForEmail. */
import { permissionIdForEmail } from './model';
import { renderPermission, renderPermissionId, renderPermissionList } from './render';
import { hideDriveItems, supportsAllDrives } from '../files/allDrives';
import type { DriveAccess } from '../files/drives';
import type { DriveRouteKit } from '../routing';
import { domainAdminAccess } from '../routing';
import type { EmulatorUser } from '../../identity/users';
import { requireUser } from '../../core/context';
import { offsetPage } from '../../core/paging';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { permissionInputSchema } from '../../../shared/schemas/drive/permissions';

export function permissionRoutes(kit: DriveRouteKit): Route[] {
  const { model, permissions } = kit.service;

  /**
   * The request's reach: supportsAllDrives (without it a drive's items are a 404), and useDomainAdminAccess, which
   * lets a domain administrator manage a shared drive's members without being one (refused for anyone else).
   */
  function accessOf(context: RequestContext, user: EmulatorUser): DriveAccess {
    hideDriveItems(model, supportsAllDrives(context.query), [context.params.fileId]);
    return domainAdminAccess(kit.service, context, user, 'noManageTeamDriveAdministratorPrivilege');
  }
  return [
    { id: 'drive.permissions.list', method: 'GET', path: '/drive/v2/files/:fileId/permissions', handle: listPermissions },
    { id: 'drive.permissions.insert', method: 'POST', path: '/drive/v2/files/:fileId/permissions', handle: insertPermission },
    { id: 'drive.permissions.get', method: 'GET', path: '/drive/v2/files/:fileId/permissions/:permissionId', handle: getPermission },
    { id: 'drive.permissions.update', method: 'PUT', path: '/drive/v2/files/:fileId/permissions/:permissionId', handle: updatePermission },
    { id: 'drive.permissions.patch', method: 'PATCH', path: '/drive/v2/files/:fileId/permissions/:permissionId', handle: patchPermission },
    { id: 'drive.permissions.delete', method: 'DELETE', path: '/drive/v2/files/:fileId/permissions/:permissionId', handle: deletePermission },
    { id: 'drive.permissions.getIdForEmail', method: 'GET', path: '/drive/v2/permissionIds/:email', handle: getIdForEmail },
  ];

  function listPermissions(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = accessOf(context, user);
    context.query.string('includePermissionsForView', 64);
    const maxResults = context.query.integer('maxResults', { min: 1, max: 100 });
    const pageToken = context.query.string('pageToken', 512);
    const fileId = context.params.fileId as string;
    const file = permissions.fileOf(user, fileId, access);
    const views = permissions.list(user, file.id, access);
    const page = maxResults === undefined && pageToken === undefined ? { items: views } : offsetPage(views, { scope: `permissions:${file.id}`, pageToken, maxResults: maxResults ?? 100 });
    return { json: renderPermissionList(kit.renderContext(context), file, page.items, 'nextPageToken' in page ? page.nextPageToken : undefined) };
  }

  function getPermission(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = accessOf(context, user);
    const file = permissions.fileOf(user, context.params.fileId as string, access);
    const view = permissions.get(user, file.id, context.params.permissionId as string, access);
    return { json: renderPermission(kit.renderContext(context), file.id, view, file.driveId !== undefined) };
  }

  async function insertPermission(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(permissionInputSchema, await context.json());
    const access = accessOf(context, user);
    // Notification e-mails are accepted and not sent (the emulator has no mail); Google's defaults apply.
    context.query.boolean('sendNotificationEmails', true);
    context.query.string('emailMessage', 10_000);
    context.query.boolean('enforceSingleParent', false);
    context.query.boolean('enforceExpansiveAccess', false);
    const moveToNewOwnersRoot = context.query.boolean('moveToNewOwnersRoot', false);
    const transferOwnership = context.query.boolean('transferOwnership', false);
    const view = permissions.insert(user, context.params.fileId as string, input, { moveToNewOwnersRoot, transferOwnership: transferOwnership || input.role === 'owner' }, access);
    const file = model.peek(context.params.fileId === 'root' ? model.rootOf(user).id : (context.params.fileId as string));
    return { json: renderPermission(kit.renderContext(context), file?.id ?? (context.params.fileId as string), view, file?.driveId !== undefined) };
  }

  async function updateOrPatch(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(permissionInputSchema, await context.json());
    const access = accessOf(context, user);
    context.query.boolean('enforceExpansiveAccess', false);
    const transferOwnership = context.query.boolean('transferOwnership', false);
    const removeExpiration = context.query.boolean('removeExpiration', false);
    const view = permissions.update(user, context.params.fileId as string, context.params.permissionId as string, input, { transferOwnership, removeExpiration }, access);
    const file = model.peek(context.params.fileId === 'root' ? model.rootOf(user).id : (context.params.fileId as string));
    return { json: renderPermission(kit.renderContext(context), file?.id ?? (context.params.fileId as string), view, file?.driveId !== undefined) };
  }

  function updatePermission(context: RequestContext): Promise<Reply> {
    return updateOrPatch(context);
  }

  function patchPermission(context: RequestContext): Promise<Reply> {
    return updateOrPatch(context);
  }

  function deletePermission(context: RequestContext): Reply {
    const user = requireUser(context);
    const access = accessOf(context, user);
    context.query.boolean('enforceExpansiveAccess', false);
    permissions.delete(user, context.params.fileId as string, context.params.permissionId as string, access);
    return { status: 204, empty: true };
  }

  function getIdForEmail(context: RequestContext): Reply {
    requireUser(context);
    const email = context.params.email as string;
    return { json: renderPermissionId(permissionIdForEmail(email)) };
  }
}
