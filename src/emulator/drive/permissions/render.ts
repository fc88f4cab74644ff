/** Typed rendering of a file's permissions as Drive v2 `drive#permission` resources. */
import { createHash } from 'node:crypto';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { PermissionList } from '../../../shared/schemas/drive/permissions';
import type { StoredFile } from '../files/model';
import { DEMO_GROUPS } from './access';
import { findUser } from '../../identity/users';
import { fileUrl, iso, nextPage, RenderContext, v2Role } from '../render';
import type { PermissionView } from './model';

export function permissionEtag(fileId: string, view: PermissionView): string {
  return `"${createHash('sha1').update(`${fileId}:${view.id}:${view.role}:${view.expirationDate ?? ''}:${view.withLink ?? ''}`).digest('base64url').slice(0, 27)}"`;
}

/** permissions.list: the file's permissions (a shared drive's item shows its members' roles as Drive spells them there). */
export function renderPermissionList(context: RenderContext, file: StoredFile, views: readonly PermissionView[], nextPageToken: string | undefined): PermissionList {
  return {
    kind: 'drive#permissionList',
    etag: `"${file.id}.${file.version}"`,
    selfLink: `${fileUrl(context, file.id)}/permissions`,
    items: views.map((view) => renderPermission(context, file.id, view, file.driveId !== undefined)),
    ...nextPage(nextPageToken),
  };
}

/** permissions.getIdForEmail. */
export function renderPermissionId(id: string): { kind: 'drive#permissionId'; id: string } {
  return { kind: 'drive#permissionId', id };
}

export function renderPermission(context: RenderContext, fileId: string, view: PermissionView, inDrive = false): DrivePermission {
  const resource: DrivePermission = {
    kind: 'drive#permission',
    etag: permissionEtag(fileId, view),
    id: view.id,
    selfLink: `${fileUrl(context, fileId)}/permissions/${encodeURIComponent(view.id)}`,
    ...v2Role(view.role),
    type: view.type,
  };
  if (view.emailAddress !== undefined) {
    resource.emailAddress = view.emailAddress;
    const user = findUser(view.emailAddress);
    if (user) {
      resource.name = user.name;
      resource.photoLink = `https://example.com/avatars/${user.id}.png`;
    } else if (DEMO_GROUPS[view.emailAddress]) {
      resource.name = 'Team';
    }
  }
  if (view.domain !== undefined) {
    resource.domain = view.domain;
    resource.name = view.domain;
  }
  if (view.withLink !== undefined) resource.withLink = view.withLink;
  if (view.expirationDate !== undefined) resource.expirationDate = iso(view.expirationDate);
  resource.permissionDetails = view.details.map((detail) => {
    const spelled = v2Role(detail.role);
    return { permissionType: detail.permissionType, role: spelled.role, ...(spelled.additionalRoles ? { additionalRoles: spelled.additionalRoles } : {}), inherited: detail.inherited, ...(detail.inheritedFrom !== undefined ? { inheritedFrom: detail.inheritedFrom } : {}) };
  });
  if (inDrive) {
    resource.teamDrivePermissionDetails = view.details.map((detail) => ({ teamDrivePermissionType: detail.permissionType, role: v2Role(detail.role).role, inherited: detail.inherited, ...(detail.inheritedFrom !== undefined ? { inheritedFrom: detail.inheritedFrom } : {}) }));
  }
  return resource;
}
