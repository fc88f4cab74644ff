/**
 * Where a file may live and how it may move: in My Drive a file has any number of parent folders; in a shared drive
 * exactly one, in that drive. Moving within a drive is a content manager's job (fileOrganizer); moving a file into
 * a drive takes its owner, moving one out a manager (organizer); folders do not cross the boundary.
 */
import { FOLDER_MIME_TYPE } from '../../../shared/schemas/drive';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, forbidden } from '../../core/errors';
import { AccessIndex, allows, insufficientPermissions, rank } from '../permissions/access';
import type { StoredFile } from './records';

export function parentLimit(): ApiError {
  return forbidden('An item in a shared drive must have exactly one parent folder.', 'teamDrivesParentLimit');
}

/** The shared drive a set of parent folders puts a file in (undefined: My Drive); one drive parent at most. */
export function driveOfParents(parents: readonly StoredFile[]): string | undefined {
  const inDrive = parents.find((parent) => parent.driveId !== undefined);
  if (inDrive && parents.length > 1) throw parentLimit();
  return inDrive?.driveId;
}

/** Checks that the user may move `file` (whose parents change) into the space of `targetDriveId`. */
export function checkMove(access: AccessIndex, user: EmulatorUser, file: StoredFile, targetDriveId: string | undefined): void {
  const role = access.roleOf(user, file);
  if (file.driveId === targetDriveId) {
    if (file.driveId !== undefined && !allows(role, 'trash', file)) throw insufficientPermissions('Only content managers and managers of a shared drive can move its items.');
    return;
  }
  if (file.mimeType === FOLDER_MIME_TYPE) throw forbidden('Folders cannot be moved into or out of a shared drive: move the files inside them.', 'teamDrivesFolderMoveInNotSupported');
  if (file.trashed) {
    throw targetDriveId !== undefined
      ? forbidden('A file in the trash cannot be moved into a shared drive.', 'cannotMoveTrashedItemIntoTeamDrive')
      : forbidden('A file in the trash cannot be moved out of a shared drive.', 'cannotMoveTrashedItemOutOfTeamDrive');
  }
  if (file.driveId === undefined && role !== 'owner') throw insufficientPermissions('Only the owner of a file can move it into a shared drive.');
  if (file.driveId !== undefined && rank(role) < rank('organizer')) throw insufficientPermissions('Only managers of a shared drive can move its items out of it.');
}
