/**
 * Drive's permissions resource (sharing): list, get, insert, update, patch, delete, and getIdForEmail. Idempotency,
 * per method: reads, update (PUT) and delete are idempotent by method; patch sets fields to given values, so a
 * repeat lands in the same state; insert keeps one permission per grantee on Drive, so repeating it only re-sets
 * the role, but it may send a second notification e-mail: it is marked idempotent only when
 * sendNotificationEmails is false, and otherwise looks the grant up (getIdForEmail + get) before repeating.
 */
import type { DrivePermission } from '../../shared/schemas/drive';
import { PermissionId, permissionIdSchema, PermissionInput, PermissionList, permissionListSchema, permissionSchema } from '../../shared/schemas/drive/permissions';
import { GoogleApiError } from '../errors';
import { path } from '../http';
import type { DriveContext } from './context';

export interface SharedDriveOptions {
  /** Needed for items in shared drives (Drive answers 404 for them without it); Desk sends true unless told otherwise. */
  supportsAllDrives?: boolean;
  useDomainAdminAccess?: boolean;
  signal?: AbortSignal;
}

export interface InsertPermissionOptions extends SharedDriveOptions {
  /** Default true on Google: the grantee gets an e-mail (the emulator sends none). */
  sendNotificationEmails?: boolean;
  emailMessage?: string;
  /** With role owner: move the file to the new owner's root. */
  moveToNewOwnersRoot?: boolean;
}

export interface UpdatePermissionOptions extends SharedDriveOptions {
  /** Required to make the grantee the owner (role owner). */
  transferOwnership?: boolean;
  removeExpiration?: boolean;
}

export interface ListPermissionsOptions extends SharedDriveOptions {
  maxResults?: number;
  pageToken?: string;
}

const shared = (options: SharedDriveOptions): Record<string, boolean | undefined> => ({ supportsAllDrives: options.supportsAllDrives ?? true, useDomainAdminAccess: options.useDomainAdminAccess });

export function listPermissions(drive: DriveContext, fileId: string, options: ListPermissionsOptions = {}): Promise<PermissionList> {
  return drive.http.json(permissionListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/permissions`, query: { ...shared(options), maxResults: options.maxResults, pageToken: options.pageToken }, signal: options.signal, operation: 'drive.permissions.list' });
}

export function getPermission(drive: DriveContext, fileId: string, permissionId: string, options: SharedDriveOptions = {}): Promise<DrivePermission> {
  return drive.http.json(permissionSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/permissions/${permissionId}`, query: shared(options), signal: options.signal, operation: 'drive.permissions.get' });
}

export function getIdForEmail(drive: DriveContext, email: string, signal?: AbortSignal): Promise<PermissionId> {
  return drive.http.json(permissionIdSchema, { method: 'GET', path: path`/drive/v2/permissionIds/${email}`, signal, operation: 'drive.permissions.getIdForEmail' });
}

export function insertPermission(drive: DriveContext, fileId: string, permission: PermissionInput, options: InsertPermissionOptions = {}): Promise<DrivePermission> {
  const email = permission.emailAddress ?? permission.value;
  const silent = options.sendNotificationEmails === false;
  return drive.http.json(permissionSchema, {
    method: 'POST',
    path: path`/drive/v2/files/${fileId}/permissions`,
    query: { ...shared(options), sendNotificationEmails: options.sendNotificationEmails, emailMessage: options.emailMessage, moveToNewOwnersRoot: options.moveToNewOwnersRoot, transferOwnership: permission.role === 'owner' ? true : undefined },
    json: permission,
    signal: options.signal,
    idempotent: silent,
    operation: 'drive.permissions.insert',
    // A user or group grant has a known id: if it already holds the role asked for, the earlier attempt landed.
    reconcile: silent || email === undefined || (permission.type !== 'user' && permission.type !== 'group') ? undefined : async () => {
      const { id } = await getIdForEmail(drive, email, options.signal);
      try {
        const found = await getPermission(drive, fileId, id, options);
        const wanted = permission.role === 'commenter' ? 'reader' : permission.role;
        return found.role === wanted ? found : undefined;
      } catch (error) {
        if (error instanceof GoogleApiError && error.status === 404) return undefined;
        throw error;
      }
    },
  });
}

/** Replaces the permission's role (and expiry); PUT semantics. */
export function updatePermission(drive: DriveContext, fileId: string, permissionId: string, permission: PermissionInput, options: UpdatePermissionOptions = {}): Promise<DrivePermission> {
  return drive.http.json(permissionSchema, {
    method: 'PUT',
    path: path`/drive/v2/files/${fileId}/permissions/${permissionId}`,
    query: { ...shared(options), transferOwnership: options.transferOwnership, removeExpiration: options.removeExpiration },
    json: permission,
    signal: options.signal,
    operation: 'drive.permissions.update',
  });
}

/** Changes only the given fields; setting a role twice is the same state, so a repeat is safe. */
export function patchPermission(drive: DriveContext, fileId: string, permissionId: string, permission: PermissionInput, options: UpdatePermissionOptions = {}): Promise<DrivePermission> {
  return drive.http.json(permissionSchema, {
    method: 'PATCH',
    path: path`/drive/v2/files/${fileId}/permissions/${permissionId}`,
    query: { ...shared(options), transferOwnership: options.transferOwnership, removeExpiration: options.removeExpiration },
    json: permission,
    signal: options.signal,
    idempotent: true,
    operation: 'drive.permissions.patch',
  });
}

export function deletePermission(drive: DriveContext, fileId: string, permissionId: string, options: SharedDriveOptions = {}): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/permissions/${permissionId}`, query: shared(options), signal: options.signal, operation: 'drive.permissions.delete' });
}
