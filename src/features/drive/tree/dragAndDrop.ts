/** Drag and drop in the Drive tree, as a plan (moves, trashes, skips with reasons) computed without vscode. */
import { english, Translate } from '../../../shared/l10n';
import { isFolder } from '../../../shared/schemas/drive';
import { isSharedDriveRow } from '../sharedDrives/nodes';
import { ContainerNode, DriveNode, FileNode, listingOf, sectionOf } from './model';

/** What one dropped file turns into: a parents change (files.patch addParents/removeParents) or a trash. */
export type DropAction =
  | { readonly kind: 'move'; readonly fileId: string; readonly title: string; readonly addParents: string[]; readonly removeParents: string[] }
  | { readonly kind: 'trash'; readonly fileId: string; readonly title: string };

export interface DropPlan {
  readonly actions: DropAction[];
  /** Why some sources were left alone, for a message. */
  readonly skipped: { readonly title: string; readonly reason: string }[];
}

/** The folder id a container stands for; undefined for sections that are not folders. */
export function folderIdOf(container: ContainerNode, rootId: string): string | undefined {
  if (container.kind === 'file') return container.item.id;
  return container.section === 'myDrive' ? rootId : undefined;
}

/** Dropping onto a file means dropping into the folder that lists it. */
export function dropTargetContainer(target: DriveNode | undefined): ContainerNode | undefined {
  if (!target) return undefined;
  if (target.kind === 'section') return target;
  if (target.kind === 'file' && isFolder(target.item) && sectionOf(target) !== 'trash') return target;
  return listingOf(target);
}

function ancestorFileIds(node: ContainerNode): Set<string> {
  const ids = new Set<string>();
  let current: DriveNode = node;
  while (current.kind === 'file') {
    ids.add(current.item.id);
    current = current.parent;
  }
  return ids;
}

/**
 * Plans a drag and drop in the Drive tree. A move replaces the parent the file was dragged from with the
 * target folder (other parents stay, as in Drive); from "Shared with me" it adds a parent only; onto
 * Trash it trashes. A folder never moves into itself or below itself. The reasons are worded by `t` (vscode.l10n.t).
 */
export function planDrop(sources: readonly FileNode[], target: DriveNode | undefined, rootId: string, t: Translate = english): DropPlan {
  const container = dropTargetContainer(target);
  const plan: DropPlan = { actions: [], skipped: [] };
  if (!container) return plan;
  const targetSection = sectionOf(container);
  const seen = new Set<string>();
  for (const source of sources) {
    const title = source.item.title ?? source.item.id;
    if (seen.has(source.item.id)) continue;
    seen.add(source.item.id);
    if (isSharedDriveRow(source)) {
      plan.skipped.push({ title, reason: t('a shared drive itself cannot be moved or trashed') });
      continue;
    }
    if (targetSection === 'trash') {
      if (sectionOf(source) === 'trash') plan.skipped.push({ title, reason: t('it is already in the trash') });
      else plan.actions.push({ kind: 'trash', fileId: source.item.id, title });
      continue;
    }
    const targetFolder = folderIdOf(container, rootId);
    if (!targetFolder) {
      plan.skipped.push({ title, reason: targetSection === 'sharedDrives' ? t('drop files into a shared drive, not onto the list of drives') : t('files cannot be dropped into "Shared with me"') });
      continue;
    }
    if (sectionOf(source) === 'trash') {
      plan.skipped.push({ title, reason: t('restore it from the trash first') });
      continue;
    }
    if (isFolder(source.item) && (source.item.id === targetFolder || ancestorFileIds(container).has(source.item.id))) {
      plan.skipped.push({ title, reason: t('a folder cannot be moved into itself') });
      continue;
    }
    const currentParents = new Set((source.item.parents ?? []).map((parent) => (parent.isRoot ? rootId : parent.id)));
    if (currentParents.has(targetFolder)) {
      plan.skipped.push({ title, reason: t('it is already in that folder') });
      continue;
    }
    const from = folderIdOf(source.parent, rootId);
    plan.actions.push({
      kind: 'move',
      fileId: source.item.id,
      title,
      addParents: [targetFolder],
      removeParents: from !== undefined && currentParents.has(from) ? [from] : [],
    });
  }
  return plan;
}
