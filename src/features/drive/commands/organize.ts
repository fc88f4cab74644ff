/** The Drive commands that change which folders a file is in: move, drag and drop, add to / remove from a folder (parents and children). */
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import { titleSearchQuery } from '../port';
import { DropPlan, folderIdOf } from '../tree/dragAndDrop';
import { kindLabel } from '../tree/presentation';
import type { DriveNode } from '../tree/model';
import { changeAll, DriveCommandHost, DriveCommandKit } from './kit';

export function organizeCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;

  return {
    move: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        const target = await kit.pickFolder(t('Move to which folder?'), new Set(files.map((file) => file.item.id)));
        if (!target) return;
        const rootId = await host.model().rootId();
        // One batch request for the whole selection; the files that could not move are named, the others stay moved.
        await kit.changeAll(files, (targets) => host.api().moveFiles(targets.map((file) => {
          const from = folderIdOf(file.parent, rootId);
          const current = (file.item.parents ?? []).map((parent) => parent.id);
          return { fileId: file.item.id, addParents: [target.id], removeParents: from && current.includes(from) ? [from] : [] };
        })), (moved) => moved.map((file) => file.parent));
      }, { action: t('Could not move'), retry: true }),

    addParent: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.requireFiles(node) ?? [];
        if (!file) return;
        const target = await kit.pickFolder(t('Also show “{0}” in which folder?', file.item.title ?? ''), new Set([file.item.id, ...(file.item.parents ?? []).map((parent) => parent.id)]));
        if (!target) return;
        await kit.changeEach([file], async () => {
          await host.api().insertParent(file.item.id, target.id);
          return host.api().getFile(file.item.id);
        }, { refresh: [] });
      }, { action: t('Could not add the file to a folder'), retry: true }),

    removeParent: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.requireFiles(node) ?? [];
        if (!file) return;
        const parents = await host.api().listParents(file.item.id);
        if (parents.length < 2) {
          void vs.window.showInformationMessage(t('“{0}” is in one folder only; move it or trash it instead.', file.item.title ?? ''));
          return;
        }
        const rootId = await host.model().rootId();
        // The folder the row was clicked under comes first: "remove from this folder" is the usual intent.
        const here = folderIdOf(file.parent, rootId);
        const ordered = [...parents].sort((a, b) => Number(b.id === here) - Number(a.id === here));
        const choices = await Promise.all(ordered.map(async (parent) => ({
          label: parent.isRoot || parent.id === rootId ? t('My Drive') : ((await host.api().getFile(parent.id).catch(() => undefined))?.title ?? parent.id),
          id: parent.id,
        })));
        const picked = await vs.window.showQuickPick(choices, { placeHolder: t('Remove “{0}” from which folder?', file.item.title ?? '') });
        if (!picked) return;
        await kit.changeEach([file], async () => {
          if (picked.id === here) {
            // "Remove from this folder": the folder's side of the link (children), checked first, since the row may be stale.
            if (!(await host.api().hasChild(here, file.item.id))) {
              void vs.window.showInformationMessage(t('“{0}” is no longer in that folder.', file.item.title ?? ''));
            } else {
              await host.api().deleteChild(here, file.item.id);
            }
          } else {
            await host.api().deleteParent(file.item.id, picked.id);
          }
          return host.api().getFile(file.item.id);
        }, { refresh: [file.parent] });
      }, { action: t('Could not remove the file from a folder'), retry: true }),

    addExistingFile: (node?: DriveNode) =>
      attempt(desk, async () => {
        const container = kit.targetContainer(node);
        const folderId = await kit.folderIdFor(container);
        const text = await vs.window.showInputBox({
          prompt: t('Add a file to this folder: search for a title containing'),
          validateInput: (value) => (value.trim() === '' ? t('Type part of a title') : undefined),
        });
        if (text === undefined) return;
        const page = await host.api().listFiles({ q: titleSearchQuery(text.trim()), orderBy: 'title', maxResults: 100 });
        const candidates = page.items.filter((item) => item.id !== folderId && !(item.parents ?? []).some((parent) => parent.id === folderId));
        if (candidates.length === 0) {
          void vs.window.showInformationMessage(t('No file outside this folder has a title containing “{0}”.', text.trim()));
          return;
        }
        const picked = await vs.window.showQuickPick(
          candidates.map((item) => ({ label: `${isFolder(item) ? '$(folder)' : '$(file)'} ${item.title ?? item.id}`, description: kindLabel(item.mimeType, t), item })),
          { placeHolder: t('Which file should also appear in this folder?'), matchOnDescription: true },
        );
        if (!picked) return;
        await kit.changeEach([picked.item], async (item) => {
          await host.api().insertChild(folderId, item.id);
          return host.api().getFile(item.id);
        }, { refresh: [container] });
      }, { action: t('Could not add the file to the folder'), retry: true }),
  };
}

/** Runs a drop plan: each action in turn, then a refresh of the folders involved (also after a failure); skipped items are explained. */
export async function executeDropPlan(host: Pick<DriveCommandHost, 'desk' | 'api' | 'model' | 'provider' | 'noteOwnWrite'>, plan: DropPlan): Promise<void> {
  const vs = host.desk.vs;
  const refresh = plan.actions.some((action) => action.kind === 'trash') ? [host.model().section('trash')] : [];
  // The dropped files go in batch requests (trashes and moves apart); those that fail are named, Retry sends only those.
  await attempt(host.desk, () => changeAll(host, plan.actions, async (actions) => {
    const trashes = actions.filter((action) => action.kind === 'trash');
    const moves = actions.flatMap((action) => (action.kind === 'move' ? [action] : []));
    const trashed = trashes.length > 0 ? [...await host.api().trashFiles(trashes.map((action) => action.fileId))] : [];
    const moved = moves.length > 0 ? [...await host.api().moveFiles(moves)] : [];
    return actions.map((action) => ((action.kind === 'trash' ? trashed.shift() : moved.shift()) ?? { ok: false, error: new Error(vs.l10n.t('no answer')) }));
  }, refresh, (action) => action.title), { action: vs.l10n.t('Could not move') });
  if (plan.skipped.length > 0) {
    const first = plan.skipped[0];
    if (first) void vs.window.showInformationMessage(vs.l10n.t('“{0}” was not moved: {1}.', first.title, first.reason));
  }
}
