/** Typed rendering of shared drives as Drive v2 `drive#drive` resources, and of their `changeType: drive` changes. */
import type { StoredDrive } from './model';
import type { ChangeRecord } from '../changes/model';
import { rank, Role } from '../permissions/access';
import { iso, nextPage } from '../render';
import type { Change } from '../../../shared/schemas/drive';
import type { SharedDrive, SharedDriveList } from '../../../shared/schemas/drive/drives';
import { TeamDrive, TeamDriveList } from '../../../shared/schemas/drive/drives';

/** How the viewer relates to a drive: their member role (an administrator without one manages it as an organizer). */
export interface DriveViewer {
  role: Role | undefined;
  hidden: boolean;
}

/** What each member role may do in a drive (Drive's capabilities: managers, content managers, contributors, commenters, viewers). */
export function driveCapabilities(role: Role | undefined, drive: StoredDrive): Record<string, boolean> {
  const at = (least: Role): boolean => rank(role) >= rank(least);
  const organizer = at('organizer');
  const copyable = at('writer') || !drive.restrictions.copyRequiresWriterPermission;
  return {
    canAddChildren: at('writer'),
    canChangeCopyRequiresWriterPermissionRestriction: organizer,
    canChangeDomainUsersOnlyRestriction: organizer,
    canChangeDriveBackground: organizer,
    canChangeDriveMembersOnlyRestriction: organizer,
    canChangeSharingFoldersRequiresOrganizerPermissionRestriction: organizer,
    canComment: at('commenter'),
    canCopy: at('reader') && copyable,
    canDeleteChildren: organizer,
    canDeleteDrive: organizer,
    canDownload: at('reader') && copyable,
    canEdit: at('writer'),
    canListChildren: at('reader'),
    canManageMembers: organizer,
    canReadRevisions: at('writer'),
    canRename: at('writer'),
    canRenameDrive: organizer,
    canResetDriveRestrictions: organizer,
    canShare: at('writer'),
    canTrashChildren: at('fileOrganizer'),
  };
}

/** A theme's background image (the emulator serves none; the link has Google's shape). */
export function themeBackground(themeId: string): string {
  return `https://ssl.gstatic.com/team_drive_themes/${encodeURIComponent(themeId)}_background.jpg`;
}

export function renderDrive(drive: StoredDrive, viewer: DriveViewer): SharedDrive {
  const resource: SharedDrive = {
    kind: 'drive#drive',
    id: drive.id,
    name: drive.name,
    createdDate: iso(drive.createdDate),
    hidden: viewer.hidden,
    themeId: drive.themeId,
    colorRgb: drive.colorRgb,
    backgroundImageLink: themeBackground(drive.themeId),
    capabilities: driveCapabilities(viewer.role, drive),
    restrictions: { ...drive.restrictions },
  };
  return resource;
}

/** A `changeType: drive` change: the drive as the user sees it now, unless it was deleted or they left it. */
export function renderDriveChange(baseUrl: string, record: ChangeRecord, drive: SharedDrive | undefined): Change {
  const driveId = record.driveId ?? record.fileId;
  const change: Change = {
    kind: 'drive#change',
    id: String(record.id),
    selfLink: `${baseUrl}/drive/v2/changes/${record.id}`,
    changeType: 'drive',
    type: 'drive',
    driveId,
    teamDriveId: driveId,
    deleted: record.deleted || !drive,
    modificationDate: iso(record.time),
  };
  if (drive && !record.deleted) change.drive = drive;
  return change;
}

/** The old capability names, where they differ from the `drives` ones. */
const RENAMED_CAPABILITIES: Readonly<Record<string, string>> = {
  canChangeDriveBackground: 'canChangeTeamDriveBackground',
  canChangeDriveMembersOnlyRestriction: 'canChangeTeamMembersOnlyRestriction',
  canDeleteDrive: 'canDeleteTeamDrive',
  canRenameDrive: 'canRenameTeamDrive',
  canResetDriveRestrictions: 'canResetTeamDriveRestrictions',
};

/** drives.list: one page of the shared drives the user is a member of (or, for an administrator, all). */
export function renderDriveList(items: SharedDrive[], nextPageToken: string | undefined): SharedDriveList {
  return { kind: 'drive#driveList', items, ...nextPage(nextPageToken) };
}

/** teamdrives.list, the deprecated spelling of drives.list. */
export function renderTeamDriveList(items: TeamDrive[], nextPageToken: string | undefined): TeamDriveList {
  return { kind: 'drive#teamDriveList', items, ...nextPage(nextPageToken) };
}

export function renderTeamDrive(drive: StoredDrive, role: Parameters<typeof driveCapabilities>[0]): TeamDrive {
  const modern = renderDrive(drive, { role, hidden: false });
  const capabilities: Record<string, boolean> = {};
  for (const [name, allowed] of Object.entries(driveCapabilities(role, drive))) capabilities[RENAMED_CAPABILITIES[name] ?? name] = allowed;
  // Moving items out was its own capability on team drives: organizers only, as for drives.
  capabilities.canRemoveChildren = Object.hasOwn(capabilities, 'canDeleteChildren') && capabilities.canDeleteChildren;
  const { driveMembersOnly, ...restrictions } = drive.restrictions;
  return {
    kind: 'drive#teamDrive',
    id: drive.id,
    name: drive.name,
    createdDate: modern.createdDate ?? '',
    themeId: drive.themeId,
    colorRgb: drive.colorRgb,
    backgroundImageLink: modern.backgroundImageLink ?? '',
    capabilities,
    restrictions: { ...restrictions, teamMembersOnly: driveMembersOnly },
  };
}
