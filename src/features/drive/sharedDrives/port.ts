/**
 * What the shared drives feature needs from the Drive client: a Pick of it (drives, and the permissions of a drive's
 * id, which are its members), so tests fake only these calls; and how the tree lists drives.
 */
import type { DriveClient } from '../../../api/drive';
import { FOLDER_MIME_TYPE } from '../../../shared/schemas/drive';
import type { SharedDrive } from '../../../shared/schemas/drive/drives';
import type { DriveItem, DriveItemPage } from '../port';

export type SharedDrivesApi = Pick<DriveClient, 'listDrives' | 'allDrives' | 'getDrive' | 'insertDrive' | 'updateDrive' | 'deleteDrive' | 'hideDrive' | 'unhideDrive' | 'listFiles' | 'listPermissions' | 'insertPermission' | 'updatePermission' | 'deletePermission'>;

/** The tree's view of the drives: one page of them as rows (hidden ones only when asked for). */
export interface SharedDriveSource {
  listDrives(request: { readonly pageToken?: string | undefined; readonly maxResults: number; readonly includeHidden: boolean }): Promise<DriveItemPage>;
}

/**
 * A shared drive as a tree row: its top folder (the drive's id is that folder's id), so browsing, opening files and
 * their `desk-drive:` paths work as for any folder; the drive's own capabilities and hidden flag ride along.
 */
export function driveAsItem(drive: SharedDrive): DriveItem {
  return {
    kind: 'drive#file',
    id: drive.id,
    title: drive.name ?? drive.id,
    mimeType: FOLDER_MIME_TYPE,
    driveId: drive.id,
    labels: { hidden: drive.hidden === true, trashed: false, starred: false },
    ...(drive.createdDate !== undefined ? { createdDate: drive.createdDate } : {}),
    ...(drive.capabilities !== undefined ? { capabilities: drive.capabilities } : {}),
  };
}

/** Drives as the tree lists them, from the client. */
export function sharedDriveSource(client: () => Pick<DriveClient, 'listDrives'>): SharedDriveSource {
  return {
    async listDrives(request) {
      const page = await client().listDrives({ pageToken: request.pageToken, maxResults: Math.min(100, request.maxResults), ...(request.includeHidden ? {} : { q: 'hidden = false' }) });
      return { items: page.items.map(driveAsItem), nextPageToken: page.nextPageToken };
    },
  };
}
