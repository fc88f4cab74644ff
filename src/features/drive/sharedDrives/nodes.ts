/** Shared drives in the tree and their members, without vscode: which rows are drives, their menus, roles as people name them. */
import type { DrivePermission } from '../../../shared/schemas/drive';
import { DRIVE_MEMBER_ROLES, DriveMemberRole, MAX_DRIVE_NAME } from '../../../shared/schemas/drive/drives';
import type { PermissionInput } from '../../../shared/schemas/drive/permissions';
import type { DriveItem } from '../port';
import type { Translate } from '../../../shared/l10n';
import type { DriveNode, FileNode } from '../tree/model';

/** Whether a row is a drive of the "Shared drives" section (its top folder). */
export function isSharedDriveRow(node: DriveNode | undefined): boolean {
  return sharedDriveRow(node) !== undefined;
}

/** The row as a drive row, or undefined when it is something else. */
export function sharedDriveRow(node: DriveNode | undefined): FileNode | undefined {
  return node?.kind === 'file' && node.parent.kind === 'section' && node.parent.section === 'sharedDrives' ? node : undefined;
}

/** The words the drive rows' menus match on: never `driveEntry` (a drive is renamed, hidden and deleted as a drive). */
export function sharedDriveContextValue(item: DriveItem): string {
  const can = item.capabilities ?? {};
  const words = ['sharedDrive', 'folder', 'live', item.labels?.hidden ? 'hidden' : 'shown'];
  if (can.canRenameDrive) words.push('canRenameDrive');
  if (can.canDeleteDrive) words.push('canDeleteDrive');
  if (can.canManageMembers) words.push('canManageMembers');
  return words.join(' ');
}

/** The words of a shared drive's Trash row: only its organizers may empty it (Drive's files.emptyTrash with driveId). */
export function driveTrashContextValue(driveRow: FileNode): string {
  return `driveSection trash ofSharedDrive${myDriveRole(driveRow.item) === 'organizer' ? ' canEmptyTrash' : ''}`;
}

/** The user's own role in a drive, read from the drive's capabilities. */
export function myDriveRole(item: Pick<DriveItem, 'capabilities'>): DriveMemberRole | undefined {
  const can = item.capabilities ?? {};
  if (can.canManageMembers) return 'organizer';
  if (can.canTrashChildren) return 'fileOrganizer';
  if (can.canEdit) return 'writer';
  if (can.canComment) return 'commenter';
  return can.canListChildren ? 'reader' : undefined;
}

/** The roles a member can be given, weakest first (as Drive's dialog lists them, strongest last). */
export const MEMBER_ROLES: readonly DriveMemberRole[] = DRIVE_MEMBER_ROLES;

/** The names Drive's shared drive dialog uses. */
export function memberRoleLabel(role: DriveMemberRole, t: Translate): string {
  switch (role) {
    case 'organizer': return t('Manager');
    case 'fileOrganizer': return t('Content manager');
    case 'writer': return t('Contributor');
    case 'commenter': return t('Commenter');
    case 'reader': return t('Viewer');
  }
}

export function memberRoleDetail(role: DriveMemberRole, t: Translate): string {
  switch (role) {
    case 'organizer': return t('manages members, settings and all content');
    case 'fileOrganizer': return t('adds, edits, moves and trashes files');
    case 'writer': return t('adds and edits files');
    case 'commenter': return t('views and comments');
    case 'reader': return t('views');
  }
}

/** A member's role; v2 spells commenter as reader + additionalRoles ['commenter']. */
export function memberRoleOf(permission: Pick<DrivePermission, 'role' | 'additionalRoles'>): DriveMemberRole | undefined {
  if (permission.role === 'reader' && permission.additionalRoles?.includes('commenter')) return 'commenter';
  return MEMBER_ROLES.find((role) => role === permission.role);
}

/** A role as permissions.insert/update spell it (an explicit empty additionalRoles drops a commenter's comment right). */
export function memberRoleInput(role: DriveMemberRole): Pick<PermissionInput, 'role' | 'additionalRoles'> {
  return role === 'commenter' ? { role: 'reader', additionalRoles: ['commenter'] } : { role, additionalRoles: [] };
}

/** The members of a drive, managers first, then by name. */
export function sortMembers(members: readonly DrivePermission[]): DrivePermission[] {
  const rank = (permission: DrivePermission): number => MEMBER_ROLES.length - MEMBER_ROLES.indexOf(memberRoleOf(permission) ?? 'reader');
  return [...members].sort((a, b) => rank(a) - rank(b) || (a.name ?? a.emailAddress ?? '').localeCompare(b.name ?? b.emailAddress ?? ''));
}

/** The tooltip of a drive row, plain lines. */
export function driveTooltipLines(item: DriveItem, t: Translate, when: (ms: number) => string): string[] {
  const lines = [t('Shared drive')];
  const role = myDriveRole(item);
  if (role) lines.push(t('Your role: {0}', memberRoleLabel(role, t)));
  const created = item.createdDate ? Date.parse(item.createdDate) : Number.NaN;
  if (!Number.isNaN(created)) lines.push(t('Created: {0}', when(created)));
  if (item.labels?.hidden) lines.push(t('Hidden from your shared drives'));
  return lines;
}

/** What is wrong with a shared drive's name as typed, said in the box before anything is sent (Drive keeps 128 characters). */
export function sharedDriveNameProblem(value: string, t: Translate): string | undefined {
  if (value.trim() === '') return t('A shared drive needs a name');
  if (value.length > MAX_DRIVE_NAME) return t('At most {0} characters; this has {1}.', MAX_DRIVE_NAME, value.length);
  return undefined;
}
