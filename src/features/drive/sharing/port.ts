/** What sharing needs from the Drive client: a Pick of it (permissions), so tests fake only these calls. */
import type { DriveClient } from '../../../api/drive';

export type SharingApi = Pick<DriveClient, 'listPermissions' | 'getPermission' | 'insertPermission' | 'updatePermission' | 'patchPermission' | 'deletePermission' | 'getIdForEmail'>;
