/** The Drive commands that change which folders a file is in: move, drag and drop, add to / remove from a folder (parents and children). */
import { isUnreachable } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import { titleSearchQuery } from '../port';
import { DropPlan, folderIdOf } from '../tree/dragAndDrop';
import { kindLabel } from '../tree/presentation';
import type { DriveNode } from '../tree/model';
import { changeAll, DriveCommandPart } from './context';

export class DriveOrganizeCommands extends DriveCommandPart {
  move(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      if (!files) return;
      const target = await this.context.pickFolder(this.t('Move to which folder?'), new Set(files.map((file) => file.item.id)));
      if (!target) return;
      const rootId = await this.host.model().rootId();
      const moveOf = (file: (typeof files)[number]) => {
        const from = folderIdOf(file.parent, rootId);
        const current = (file.item.parents ?? []).map((parent) => parent.id);
        return { fileId: file.item.id, addParents: [target.id], removeParents: from && current.includes(from) ? [from] : [] };
      };
      // One batch request for the whole selection; the files that could not move are named, the others stay moved.
      try {
        await this.context.changeAll(files, (targets) => this.host.api().moveFiles(targets.map(moveOf)), (moved) => moved.map((file) => file.parent));
      } catch (error) {
        // Offline: kept (the rows move at once) and sent when Drive is back; the same move again changes nothing.
        const offline = this.host.offlineChanges;
        if (!isUnreachable(error) || !offline) throw error;
        for (const file of files) {
          const move = moveOf(file);
          await offline.move(file.item, move.addParents, move.removeParents, target.title);
        }
        this.offlineNotice();
      }
    }, { action: this.t('Could not move'), retry: true });
  }

  addParent(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.requireFiles(node)?.at(0);
      if (!file) return;
      const target = await this.context.pickFolder(this.t('Also show “{0}” in which folder?', file.item.title ?? ''), new Set([file.item.id, ...(file.item.parents ?? []).map((parent) => parent.id)]));
      if (!target) return;
      await this.context.changeEach([file], async () => {
        await this.host.api().insertParent(file.item.id, target.id);
        return this.host.api().getFile(file.item.id);
      }, { refresh: [] });
    }, { action: this.t('Could not add the file to a folder'), retry: true });
  }

  removeParent(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.requireFiles(node)?.at(0);
      if (!file) return;
      const parents = await this.host.api().listParents(file.item.id);
      if (parents.length < 2) {
        void this.vs.window.showInformationMessage(this.t('“{0}” is in one folder only; move it or trash it instead.', file.item.title ?? ''));
        return;
      }
      const rootId = await this.host.model().rootId();
      // The folder the row was clicked under comes first: "remove from this folder" is the usual intent.
      const here = folderIdOf(file.parent, rootId);
      const ordered = [...parents].sort((a, b) => Number(b.id === here) - Number(a.id === here));
      const choices = await Promise.all(ordered.map(async (parent) => ({
        label: parent.isRoot || parent.id === rootId ? this.t('My Drive') : ((await this.host.api().getFile(parent.id).catch(() => undefined))?.title ?? parent.id),
        id: parent.id,
      })));
      const picked = await this.vs.window.showQuickPick(choices, { placeHolder: this.t('Remove “{0}” from which folder?', file.item.title ?? '') });
      if (!picked) return;
      await this.context.changeEach([file], async () => {
        if (picked.id === here) {
          // "Remove from this folder": the folder's side of the link (children), checked first, since the row may be stale.
          if (!(await this.host.api().hasChild(here, file.item.id))) {
            void this.vs.window.showInformationMessage(this.t('“{0}” is no longer in that folder.', file.item.title ?? ''));
          } else {
            await this.host.api().deleteChild(here, file.item.id);
          }
        } else {
          await this.host.api().deleteParent(file.item.id, picked.id);
        }
        return this.host.api().getFile(file.item.id);
      }, { refresh: [file.parent] });
    }, { action: this.t('Could not remove the file from a folder'), retry: true });
  }

  addExistingFile(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const container = this.context.targetContainer(node);
      const folderId = await this.context.folderIdFor(container);
      const text = await this.vs.window.showInputBox({
        prompt: this.t('Add a file to this folder: search for a title containing'),
        validateInput: (value) => (value.trim() === '' ? this.t('Type part of a title') : undefined),
      });
      if (text === undefined) return;
      const page = await this.host.api().listFiles({ q: titleSearchQuery(text.trim()), orderBy: 'title', maxResults: 100 });
      const candidates = page.items.filter((item) => item.id !== folderId && !(item.parents ?? []).some((parent) => parent.id === folderId));
      if (candidates.length === 0) {
        void this.vs.window.showInformationMessage(this.t('No file outside this folder has a title containing “{0}”.', text.trim()));
        return;
      }
      const picked = await this.vs.window.showQuickPick(
        candidates.map((item) => ({ label: `${isFolder(item) ? '$(folder)' : '$(file)'} ${item.title ?? item.id}`, description: kindLabel(item.mimeType, this.t), item })),
        { placeHolder: this.t('Which file should also appear in this folder?'), matchOnDescription: true },
      );
      if (!picked) return;
      await this.context.changeEach([picked.item], async (item) => {
        await this.host.api().insertChild(folderId, item.id);
        return this.host.api().getFile(item.id);
      }, { refresh: [container] });
    }, { action: this.t('Could not add the file to the folder'), retry: true });
  }

  /** Drag and drop: runs a drop plan, each action in turn, then a refresh of the folders involved (also after a failure); skipped items are explained. */
  async drop(plan: DropPlan): Promise<void> {
    const refresh = plan.actions.some((action) => action.kind === 'trash') ? [this.host.model().section('trash')] : [];
    // The dropped files go in batch requests (trashes and moves apart); those that fail are named, Retry sends only those.
    await attempt(this.desk, async () => {
      try {
        await changeAll(this.host, plan.actions, async (actions) => {
          const trashes = actions.filter((action) => action.kind === 'trash');
          const moves = actions.flatMap((action) => (action.kind === 'move' ? [action] : []));
          const trashed = trashes.length > 0 ? [...await this.host.api().trashFiles(trashes.map((action) => action.fileId))] : [];
          const moved = moves.length > 0 ? [...await this.host.api().moveFiles(moves)] : [];
          return actions.map((action) => ((action.kind === 'trash' ? trashed.shift() : moved.shift()) ?? { ok: false, error: new Error(this.t('no answer')) }));
        }, refresh, (action) => action.title);
      } catch (error) {
        // Offline: each dropped file's move or trash is kept (shown at once) and sent when Drive is back.
        const offline = this.host.offlineChanges;
        if (!isUnreachable(error) || !offline) throw error;
        for (const action of plan.actions) {
          const item = this.host.model().nodesForFile(action.fileId)[0]?.item ?? { kind: 'drive#file', id: action.fileId, title: action.title };
          if (action.kind === 'trash') await offline.trash(item);
          else await offline.move(item, action.addParents, action.removeParents, this.folderTitle(action.addParents[0]));
        }
        this.offlineNotice();
      }
    }, { action: this.t('Could not move') });
    if (plan.skipped.length > 0) {
      const first = plan.skipped.at(0);
      if (first) void this.vs.window.showInformationMessage(this.t('“{0}” was not moved: {1}.', first.title, first.reason));
    }
  }

  private folderTitle(folderId: string | undefined): string {
    const folder = folderId ? this.host.model().nodesForFile(folderId)[0]?.item : undefined;
    return folder?.title ?? this.t('My Drive');
  }

  private offlineNotice(): void {
    void this.vs.window.showInformationMessage(this.t('Desk is offline: the move is kept and sent when Drive can be reached.'));
  }
}
