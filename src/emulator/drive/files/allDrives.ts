/**
 * `supportsAllDrives`: an app that does not say it supports shared drives is answered as if their items did not
 * exist (404 notFound, as Drive does), and files.list's shared-drive parameters checked as Drive checks them.
 */
import type { EmulatorUser } from '../../identity/users';
import { ApiError } from '../../core/errors';
import type { QueryParams } from '../../core/params';
import type { DrivesModel } from '../drives/model';
import type { DriveModel } from './model';

/** supportsAllDrives, or the deprecated supportsTeamDrives (both validated as booleans). */
export function supportsAllDrives(query: QueryParams): boolean {
  const all = query.boolean('supportsAllDrives', false);
  const team = query.boolean('supportsTeamDrives', false);
  return all || team;
}

/** The same, from a resumable upload session's saved query. */
export function supportsAllDrivesIn(read: (name: string) => string | undefined): boolean {
  return read('supportsAllDrives') === 'true' || read('supportsTeamDrives') === 'true';
}

/** Throws Drive's 404 for the first id naming a shared-drive item when the app does not support shared drives. */
export function hideDriveItems(model: DriveModel, supported: boolean, ids: Iterable<string | undefined>): void {
  if (supported) return;
  for (const id of ids) {
    if (id === undefined) continue;
    if (model.peek(id)?.driveId !== undefined) throw new ApiError(404, 'notFound', `File not found: ${id}`, { location: 'file', locationType: 'other' });
  }
}

/** What files.list lists: one drive's items, or with shared-drive items too (includeItemsFromAllDrives), or neither. */
export interface ListScope {
  driveId?: string;
  allDrives: boolean;
}

/**
 * corpora, driveId (teamDriveId) and includeItemsFromAllDrives (includeTeamDriveItems) as Drive checks them: a
 * drive corpus needs the drive's id and the drive's items included, and a non-member's drive is not found.
 */
export function listScope(query: QueryParams, corpora: readonly string[], drives: DrivesModel, user: EmulatorUser): ListScope {
  const includeAll = query.boolean('includeItemsFromAllDrives', false);
  const includeTeam = query.boolean('includeTeamDriveItems', false);
  const allDrives = includeAll || includeTeam;
  supportsAllDrives(query);
  const driveId = query.string('driveId', 200) ?? query.string('teamDriveId', 200);
  // Google's words and reason for both mistakes (one check there: driveId if and only if corpora=drive).
  if (corpora.includes('drive') !== (driveId !== undefined) && !(driveId !== undefined && corpora.length === 0)) {
    throw new ApiError(400, 'teamDriveIdRequiresTeamDriveCorpora', 'The driveId parameter must be specified if and only if corpora is set to drive.', { location: 'driveId', locationType: 'parameter' });
  }
  if ((driveId !== undefined || corpora.includes('drive') || corpora.includes('allDrives')) && !allDrives) {
    throw new ApiError(403, 'forbidden', 'The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.');
  }
  if (driveId !== undefined) drives.get(user, driveId);
  return { ...(driveId !== undefined ? { driveId } : {}), allDrives };
}
