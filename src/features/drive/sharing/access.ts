/** Who has access to a Drive file, as text: the Share picker's rows, the link sharing state and the tooltip summary (pure). */
import type { DrivePermission } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import type { Translate } from '../../../shared/l10n';
import { formatDay, writeTimestamp } from '../../../core/text/clock';

/** How a day reads ("Fri 27 Nov"): the DeskClock's `day` in the extension; UTC where none is given (tests). */
export type WriteDay = (ms: number) => string;
const utcDay: WriteDay = (ms) => formatDay(ms, 'UTC');
import { roleLabel, roleOf, roleRank, ShareRole } from './roles';

/** How many people besides the owner the tooltip names before "and N more". */
export const TOOLTIP_PEOPLE = 3;

/** A permission that only comes from a folder above cannot be changed on the file itself. */
export function isInheritedOnly(permission: Pick<DrivePermission, 'permissionDetails'>): boolean {
  const details = permission.permissionDetails ?? [];
  return details.length > 0 && details.every((detail) => detail.inherited === true);
}

/** Link sharing: an `anyone` permission (with or without the link), or undefined when the file is not public. */
export function linkPermissionOf(permissions: readonly DrivePermission[]): DrivePermission | undefined {
  const anyone = permissions.filter((permission) => permission.type === 'anyone');
  return anyone.sort((a, b) => roleRank(roleOf(b)) - roleRank(roleOf(a)))[0];
}

/** The people, groups and domains of a file (not link sharing), owner first, then by role and name. */
export function peopleOf(permissions: readonly DrivePermission[]): DrivePermission[] {
  return permissions
    .filter((permission) => permission.type !== 'anyone')
    .sort((a, b) => roleRank(roleOf(b)) - roleRank(roleOf(a)) || displayName(a).localeCompare(displayName(b)));
}

/** The name of a grantee: the person's or group's name, else the address or domain. */
export function displayName(permission: Pick<DrivePermission, 'name' | 'emailAddress' | 'domain' | 'type' | 'value'>): string {
  return permission.name ?? permission.emailAddress ?? permission.domain ?? permission.value ?? permission.type ?? '?';
}

/** "Anyone with the link can comment", "Anyone on the internet can view", "Anyone at example.com with the link can edit". */
export function linkSentence(permission: Pick<DrivePermission, 'type' | 'withLink' | 'domain' | 'role' | 'additionalRoles'>, t: Translate): string {
  const role = roleOf(permission) ?? 'reader';
  const verb = role === 'reader' ? t('view') : role === 'commenter' ? t('comment') : t('edit');
  if (permission.type === 'domain') {
    return permission.withLink ? t('Anyone at {0} with the link can {1}', permission.domain ?? '', verb) : t('Anyone at {0} can {1}', permission.domain ?? '', verb);
  }
  return permission.withLink === false ? t('Anyone on the internet can {0}', verb) : t('Anyone with the link can {0}', verb);
}

/** The label, description and detail of one grantee in the Share picker. */
export function permissionRow(permission: DrivePermission, me: string | undefined, t: Translate, day: WriteDay = utcDay): { label: string; description: string; detail?: string } {
  const role = roleOf(permission);
  const icon = permission.type === 'group' ? '$(organization)' : permission.type === 'domain' ? '$(globe)' : permission.type === 'anyone' ? '$(link)' : '$(person)';
  const you = me !== undefined && permission.emailAddress?.toLowerCase() === me.toLowerCase() ? t(' (you)') : '';
  const label = permission.type === 'anyone' ? `${icon} ${linkSentence(permission, t)}` : `${icon} ${displayName(permission)}${you}`;
  const parts = [role ? roleLabel(role, t) : permission.role ?? ''];
  if (isInheritedOnly(permission)) parts.push(t('from a folder above'));
  if (permission.expirationDate) parts.push(t('until {0}', writeTimestamp(permission.expirationDate, day)));
  const detail = permission.type !== 'anyone' && permission.emailAddress && permission.emailAddress !== displayName(permission) ? permission.emailAddress : undefined;
  return { label, description: parts.filter(Boolean).join(' · '), ...(detail ? { detail } : {}) };
}

/**
 * The tooltip's lines about access: the owner and up to `max` others by role ("and 2 more"), link sharing when on,
 * and, for a file someone shared with the user, who shared it. `more` says the list had further pages.
 */
export function accessSummary(permissions: readonly DrivePermission[], t: Translate, options: { max?: number; more?: boolean } = {}): string[] {
  const max = options.max ?? TOOLTIP_PEOPLE;
  const people = peopleOf(permissions);
  const owner = people.filter((permission) => roleOf(permission) === 'owner');
  const others = people.filter((permission) => roleOf(permission) !== 'owner');
  const named = [...owner, ...others.slice(0, max)].map((permission) => {
    const role = roleOf(permission);
    return role ? `${displayName(permission)} (${roleLabel(role, t)})` : displayName(permission);
  });
  const hidden = others.length - Math.min(others.length, max);
  const lines: string[] = [];
  if (named.length > 0) {
    const list = named.join(', ');
    if (options.more) lines.push(t('Who has access: {0} and others', list));
    else if (hidden > 0) lines.push(t('Who has access: {0} and {1} more', list, hidden));
    else lines.push(t('Who has access: {0}', list));
  }
  const link = linkPermissionOf(permissions);
  if (link) lines.push(linkSentence(link, t));
  else if (others.length === 0 && !permissions.some((permission) => permission.type === 'domain')) lines.push(t('Not shared'));
  return lines;
}

/** "Shared with you by Bob on Wed 1 May 2024" from the file's own metadata, for files in Shared with me. */
export function sharedWithMeLine(item: Pick<DriveItem, 'sharingUser' | 'sharedWithMeDate' | 'ownedByMe'>, t: Translate, day: WriteDay = utcDay): string | undefined {
  if (item.ownedByMe !== false || !item.sharingUser) return undefined;
  const by = item.sharingUser.displayName ?? item.sharingUser.emailAddress ?? '?';
  return item.sharedWithMeDate ? t('Shared with you by {0} on {1}', by, writeTimestamp(item.sharedWithMeDate, day)) : t('Shared with you by {0}', by);
}

/** The role the signed-in user holds, from the file's userPermission. */
export function myRole(item: Pick<DriveItem, 'userPermission' | 'ownedByMe'>): ShareRole | undefined {
  if (item.ownedByMe) return 'owner';
  return item.userPermission ? roleOf(item.userPermission) : undefined;
}
