/**
 * What the files model needs to know about shared drives, and how drive items are stored: a shared drive's items
 * belong to the drive, not to a user, so their `ownerId` is the drive's owner key (no user ever matches it), their
 * `driveId` names the drive, and the drive's top folder is a file whose id is the drive's id (as on Drive).
 */
import type { DriveRestrictions } from '../../../shared/schemas/drive/drives';
import type { EmulatorUser } from '../../identity/users';
import type { Role, StoredPermission } from '../permissions/access';
import type { StoredFile } from './records';

/** The shared drives as the files model sees them (drives/model.ts answers; until it is made, there are none). */
export interface DriveDirectory {
  /** The user's role as a member of the drive (undefined: not a member, or no such drive). */
  roleOf(user: EmulatorUser, driveId: string): Role | undefined;
  /** Ids of the drives the user is a member of. */
  memberDrives(user: EmulatorUser): readonly string[];
  restrictions(driveId: string): DriveRestrictions | undefined;
  /** The member grants of a drive: the permissions of its top folder. */
  members(driveId: string): readonly StoredPermission[];
  /** Adds a member or changes their role (organizers only, or an administrator asking as one). */
  setMember(user: EmulatorUser, driveId: string, member: DriveMember, access?: DriveAccess): void;
  removeMember(user: EmulatorUser, driveId: string, permissionId: string, access?: DriveAccess): void;
}

/** How a caller asks: as a member, or as a domain administrator (`useDomainAdminAccess`, already checked). */
export interface DriveAccess {
  readonly admin?: boolean;
}

/** A member grant as permissions.insert / update asks for it (already validated as a user or group e-mail). */
export interface DriveMember {
  id: string;
  type: 'user' | 'group';
  emailAddress: string;
  role: Exclude<Role, 'owner'>;
}

function noDrive(): never {
  throw new Error('There are no shared drives here');
}

export const NO_DRIVES: DriveDirectory = {
  roleOf: () => undefined,
  memberDrives: () => [],
  restrictions: () => undefined,
  members: () => [],
  setMember: noDrive,
  removeMember: noDrive,
};

/** The owner key of a shared drive's items (indexes group a drive's items under it). */
export function driveOwnerId(driveId: string): string {
  return `drive:${driveId}`;
}

/** The top folder of a shared drive (its id is the drive's id). */
export function isDriveRoot(file: Pick<StoredFile, 'id' | 'driveId'>): boolean {
  return file.driveId !== undefined && file.id === file.driveId;
}
