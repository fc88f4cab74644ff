/** The Drive commands around the trash: trash (with Undo), restore, delete forever, empty the trash. */
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/confirm';
import type { DriveNode } from '../tree/treeModel';
import type { DriveCommandKit } from './kit';

export function trashCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;

  return {
    trash: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        const shownIn = () => [...files.map((file) => file.parent), host.model().section('trash')];
        const trashed = await kit.changeEach(files, (file) => host.api().trashFile(file.item.id), { refresh: shownIn() });
        const undo = t('Undo');
        const choice = await vs.window.showInformationMessage(t('Moved {0} item(s) to the trash.', trashed.length), undo);
        if (choice === undo) {
          const restored = await Promise.all(trashed.map((item) => host.api().untrashFile(item.id)));
          restored.forEach((item) => host.noteOwnWrite(item));
          await kit.refreshFor(restored, shownIn());
        }
      }, { action: t('Could not move to the trash'), retry: true }),

    untrash: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        await kit.changeEach(files, (file) => host.api().untrashFile(file.item.id), { refresh: [host.model().section('trash'), host.model().section('myDrive')] });
      }, { action: t('Could not restore from the trash'), retry: true }),

    delete: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        const names = files.length === 1 ? `“${files[0]?.item.title ?? ''}”` : t('{0} items', files.length);
        const detail = t('This skips the trash and cannot be undone. Folders are deleted with everything in them.');
        if (!(await confirmModal(vs, t('Delete {0} forever?', names), detail, t('Delete Forever')))) return;
        for (const file of files) await host.api().deleteFile(file.item.id);
        for (const file of files) host.provider.refresh(file.parent);
      }, { action: t('Could not delete'), retry: true }),

    emptyTrash: () =>
      attempt(desk, async () => {
        if (!(await confirmModal(vs, t('Delete everything in the trash forever?'), t('This cannot be undone.'), t('Empty Trash')))) return;
        await host.api().emptyTrash();
        host.provider.refresh(host.model().section('trash'));
      }, { action: t('Could not empty the trash'), retry: true }),
  };
}
