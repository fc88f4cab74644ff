/**
 * Trash and deletion: trashing and restoring a file with what went to the trash with it, deleting whole trees for
 * good (a descendant goes only when no parent outside the deleted tree holds it), emptying a user's trash or a
 * shared drive's. Pure like the rest of the files model: blobs to free are returned as garbage.
 */
import type { EmulatorUser } from '../../identity/users';
import { forbidden } from '../../core/errors';
import { driveFeedKey } from '../changes/model';
import { isDriveRoot } from './drives';
import type { DriveModel, Garbage, StoredFile } from './model';

/** Moves a file (and, for a folder, everything under it the user may trash) to the trash. */
export function trashFile(model: DriveModel, user: EmulatorUser, id: string, ifMatch?: string): StoredFile {
  const file = model.require(user, id, 'trash');
  model.checkIfMatch(file, ifMatch);
  if (file.isRoot) throw forbidden('The root folder cannot be trashed.', 'cannotModifyRoot');
  if (isDriveRoot(file)) throw forbidden('The top folder of a shared drive cannot be trashed: delete the shared drive instead.', 'cannotModifyRoot');
  const time = model.now();
  // Only the file the user trashed is trashed explicitly: untrash restores the rest with it.
  const moveToTrash = (target: StoredFile, explicitly: boolean): void => {
    model.table.mutate(target, (changed) => {
      changed.trashed = true;
      changed.explicitlyTrashed = explicitly;
      changed.trashedDate = time;
      changed.version += 1;
    });
    model.recordChange(target, user);
  };
  moveToTrash(file, true);
  for (const descendant of model.table.descendants(file.id)) {
    if (descendant.trashed || !sameHolder(user, file, descendant)) continue;
    moveToTrash(descendant, false);
  }
  return file;
}

/** Restores a file and what went to the trash with it (not what was trashed on its own before). */
export function untrashFile(model: DriveModel, user: EmulatorUser, id: string): StoredFile {
  const file = model.require(user, id, 'trash');
  if (!file.trashed) return file;
  const restore = (target: StoredFile): void => {
    model.table.mutate(target, (changed) => {
      changed.trashed = false;
      changed.explicitlyTrashed = false;
      delete changed.trashedDate;
      changed.version += 1;
    });
    model.recordChange(target, user);
  };
  restore(file);
  const queue = [file.id];
  while (queue.length > 0) {
    const parentId = queue.shift() as string;
    for (const childId of model.table.childIds(parentId)) {
      const child = model.table.get(childId);
      if (!child || !sameHolder(user, file, child) || !child.trashed || child.explicitlyTrashed) continue;
      restore(child);
      queue.push(child.id);
    }
  }
  return file;
}

/** Deletes for good; a folder takes with it every descendant that has no parent left outside the deleted tree. */
export function deleteFile(model: DriveModel, user: EmulatorUser, id: string, ifMatch?: string): Garbage {
  const file = model.require(user, id, 'delete');
  model.checkIfMatch(file, ifMatch);
  if (file.isRoot) throw forbidden('The root folder cannot be deleted.', 'cannotModifyRoot');
  if (isDriveRoot(file)) throw forbidden('The top folder of a shared drive cannot be deleted: delete the shared drive instead.', 'cannotModifyRoot');
  return deleteTrees(model, user, [file]);
}

/** A folder's trash reaches the user's own files below it, or in a shared drive every item of that drive. */
function sameHolder(user: EmulatorUser, top: StoredFile, file: StoredFile): boolean {
  return top.driveId !== undefined ? file.driveId === top.driveId : file.ownerId === user.id;
}

export function deleteTrees(model: DriveModel, user: EmulatorUser, tops: readonly StoredFile[]): Garbage {
  const { table } = model;
  const doomed = new Set(tops.map((file) => file.id));
  const reachable: StoredFile[] = [];
  for (const top of tops) for (const descendant of table.descendants(top.id)) if (!doomed.has(descendant.id)) reachable.push(descendant);
  // A descendant goes only when every parent goes too; iterate to a fixed point for multi-parent trees.
  let grew = true;
  while (grew) {
    grew = false;
    for (const file of reachable) {
      if (doomed.has(file.id) || !tops.some((top) => sameHolder(user, top, file))) continue;
      if (file.parents.every((parentId) => doomed.has(parentId))) {
        doomed.add(file.id);
        grew = true;
      }
    }
  }
  const garbage: Garbage = { blobIds: [] };
  for (const file of reachable) {
    if (doomed.has(file.id)) continue;
    if (file.parents.some((parentId) => doomed.has(parentId))) {
      const before = model.access.audience(file);
      table.mutate(file, (target) => {
        target.parents = target.parents.filter((parentId) => !doomed.has(parentId));
        target.version += 1;
      });
      model.recordChange(file, user, before);
    }
  }
  // Who saw each file is known only while the folders above it (and its drive's membership) still exist.
  const audiences = new Map<string, EmulatorUser[]>();
  for (const id of doomed) {
    const file = table.get(id);
    if (file) audiences.set(id, model.access.audience(file));
  }
  for (const id of doomed) {
    const file = table.get(id);
    if (!file) continue;
    for (const hook of model.onDelete) hook(file, garbage);
    table.remove(file);
    if (file.blobId && !garbage.blobIds.includes(file.blobId)) garbage.blobIds.push(file.blobId);
    const details = file.driveId !== undefined ? { driveId: file.driveId } : {};
    const audience = audiences.get(id) ?? [];
    for (const viewer of audience) model.feed.record(viewer.id, id, true, details);
    if (!audience.some((viewer) => viewer.id === user.id)) model.feed.record(user.id, id, true, details);
    if (file.driveId !== undefined) model.feed.record(driveFeedKey(file.driveId), id, true, details);
  }
  return garbage;
}
