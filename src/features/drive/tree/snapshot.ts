/**
 * Where the Drive view's cache is (core/storage/viewCache.ts): the slot of My Drive's first rows, the check of what is read
 * back, and the reader for other features (search). The tree model (model.ts) reads and writes the slot.
 */
import type { ViewCache, ViewCacheSlot } from '../../../core/storage/viewCache';
import { driveFileSchema, type DriveFile } from '../../../shared/schemas/drive';
import * as z from '../../../shared/schemas/zod';
import type { DriveItem } from '../port';

/** What the view keeps for its next start: the first rows of My Drive. */
const myDriveSnapshotSchema = z.array(driveFileSchema);
export const isMyDriveSnapshot = (data: unknown): data is DriveItem[] => myDriveSnapshotSchema.safeParse(data).success;

/** The view's slot (one file per account): My Drive's first rows as last shown. */
export const MY_DRIVE_SNAPSHOT: ViewCacheSlot<DriveItem[]> = { name: 'drive-my-drive', isValid: isMyDriveSnapshot };

/** My Drive's first rows as the Drive view last showed them for `account` (default: the first signed in), from disk. */
export function cachedMyDriveRows(cache: ViewCache, account?: string): Promise<DriveFile[] | undefined> {
  return cache.slot(MY_DRIVE_SNAPSHOT, account).read();
}
