/** Drive's sharing roles as Desk offers them: the names people know, which roles a file can be given, v2's spelling. */
import { isFolder } from '../../../shared/schemas/drive';
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { PermissionInput } from '../../../shared/schemas/drive/permissions';
import type { DriveItem } from '../port';
import type { Translate } from '../../../shared/l10n';

export type ShareRole = 'owner' | 'organizer' | 'fileOrganizer' | 'writer' | 'commenter' | 'reader';

/** Strongest first: the order people are listed in and roles are offered in reverse. */
const RANK: readonly ShareRole[] = ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'];

const GOOGLE_FORM_MIME_TYPE = 'application/vnd.google-apps.form';

/** Higher for stronger roles; 0 for a role Desk does not know. */
export function roleRank(role: ShareRole | undefined): number {
  return role === undefined ? 0 : RANK.length - RANK.indexOf(role);
}

/** A permission's effective role: v2 spells commenter as reader + additionalRoles ['commenter']. */
export function roleOf(permission: Pick<DrivePermission, 'role' | 'additionalRoles'>): ShareRole | undefined {
  const role = permission.role;
  if (role === 'reader' && permission.additionalRoles?.includes('commenter')) return 'commenter';
  return RANK.find((known) => known === role);
}

/** The names Drive's own sharing dialog uses. */
export function roleLabel(role: ShareRole, t: Translate): string {
  switch (role) {
    case 'owner': return t('Owner');
    case 'organizer': return t('Manager');
    case 'fileOrganizer': return t('Content manager');
    case 'writer': return t('Editor');
    case 'commenter': return t('Commenter');
    case 'reader': return t('Viewer');
  }
}

/** What a role lets its holder do, one short phrase (the pickers' detail line). */
export function roleDetail(role: ShareRole, t: Translate): string {
  switch (role) {
    case 'owner': return t('full control, including deleting and sharing');
    case 'organizer': return t('manages the shared drive, its members and content');
    case 'fileOrganizer': return t('adds, edits, moves and trashes items');
    case 'writer': return t('can edit and share');
    case 'commenter': return t('can view and comment');
    case 'reader': return t('can view');
  }
}

/**
 * The roles Add people and Change role offer for a file, weakest first. Never owner: that is a transfer, with its
 * own confirmation. A Google Form takes no comments; a folder in a shared drive may also have content managers
 * (fileOrganizer, which Drive allows only on shared drive items; managers belong to the drive itself).
 */
export function roleOptions(item: Pick<DriveItem, 'mimeType' | 'driveId'>): ShareRole[] {
  if (item.mimeType === GOOGLE_FORM_MIME_TYPE) return ['reader', 'writer'];
  const roles: ShareRole[] = ['reader', 'commenter', 'writer'];
  if (item.driveId !== undefined && isFolder(item)) roles.push('fileOrganizer');
  return roles;
}

/** The roles link sharing offers: anyone with the link can view, comment or edit. */
export function linkRoleOptions(item: Pick<DriveItem, 'mimeType'>): ShareRole[] {
  return item.mimeType === GOOGLE_FORM_MIME_TYPE ? ['reader', 'writer'] : ['reader', 'commenter', 'writer'];
}

/**
 * A role as a request body spells it: v2's reader + additionalRoles ['commenter'] for commenter (what every v2 server
 * takes), and an explicit empty additionalRoles otherwise, so that changing a commenter's role drops the comment right.
 */
export function roleInput(role: ShareRole): Pick<PermissionInput, 'role' | 'additionalRoles'> {
  if (role === 'commenter') return { role: 'reader', additionalRoles: ['commenter'] };
  if (role === 'owner') return { role };
  return { role, additionalRoles: [] };
}
