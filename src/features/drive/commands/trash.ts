/** The Drive commands around the trash: trash (with Undo), restore, delete forever, empty the trash. */
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/confirm';
import type { DriveItem } from '../port';
import { driveAsItem } from '../sharedDrives/port';
import { myDriveRole } from '../sharedDrives/nodes';
import type { DriveNode, SectionNode } from '../tree/model';
import type { DriveCommandKit } from './kit';

export function trashCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;

  /**
   * From the palette: the user's trash, or the Trash of a shared drive they organize (only organizers empty one).
   * Without such a drive there is nothing to choose.
   */
  async function pickTrash(): Promise<SectionNode | undefined> {
    const model = host.model();
    const organized: DriveItem[] = [];
    for await (const drive of host.resources().allDrives({})) {
      const item = driveAsItem(drive);
      if (myDriveRole(item) === 'organizer') organized.push(item);
    }
    if (organized.length === 0) return model.section('trash');
    const mine = { label: `$(trash) ${t('Your trash')}`, trash: model.section('trash') };
    const drives = organized.map((drive) => ({ label: `$(library) ${t('Trash of “{0}”', drive.title ?? drive.id)}`, trash: model.driveTrashOfDrive(drive) }));
    const picked = await vs.window.showQuickPick([mine, ...drives], { placeHolder: t('Which trash to empty?') });
    return picked?.trash;
  }

  return {
    trash: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        // A shared drive's item goes to that drive's Trash, anything else to the user's.
        const shownIn = () => [...files.map((file) => file.parent), ...files.flatMap((file) => host.model().trashFor(file.item))];
        // One batch request for the selection: the files that could not be trashed are named, Retry sends only those.
        const trashed = await kit.changeAll(files, (targets) => host.api().trashFiles(targets.map((file) => file.item.id)), shownIn());
        const undo = t('Undo');
        const choice = await vs.window.showInformationMessage(t('Moved {0} item(s) to the trash.', trashed.length), undo);
        if (choice === undo) await kit.changeAll(trashed.map(({ item }) => item), (targets) => host.api().untrashFiles(targets.map((file) => file.item.id)), shownIn());
      }, { action: t('Could not move to the trash'), retry: true }),

    untrash: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        // Back where it was: My Drive, or the shared drive's row (which reloads its folders and its Trash).
        const driveRows = files.flatMap((file) => (file.parent.kind === 'section' && file.parent.parent ? [file.parent.parent] : []));
        await kit.changeAll(files, (targets) => host.api().untrashFiles(targets.map((file) => file.item.id)), [host.model().section('trash'), host.model().section('myDrive'), ...driveRows]);
      }, { action: t('Could not restore from the trash'), retry: true }),

    delete: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        const names = files.length === 1 ? `“${files[0]?.item.title ?? ''}”` : t('{0} items', files.length);
        const detail = t('This skips the trash and cannot be undone. Folders are deleted with everything in them.');
        if (!(await confirmModal(vs, t('Delete {0} forever?', names), detail, t('Delete Forever')))) return;
        await kit.changeAll(files, (targets) => host.api().deleteFiles(targets.map((file) => file.item.id)), (deleted) => deleted.map((file) => file.parent));
      }, { action: t('Could not delete'), retry: true }),

    emptyTrash: (node?: DriveNode) =>
      attempt(desk, async () => {
        const trash = node?.kind === 'section' && node.section === 'trash' ? node : await pickTrash();
        if (!trash) return;
        const driveName = trash.parent ? trash.parent.item.title ?? trash.parent.item.id : undefined;
        const question = driveName === undefined ? t('Delete everything in the trash forever?') : t('Delete everything in the trash of “{0}” forever?', driveName);
        const detail = driveName === undefined ? t('This cannot be undone.') : t('This cannot be undone, and it deletes the items for every member of the shared drive.');
        if (!(await confirmModal(vs, question, detail, t('Empty Trash')))) return;
        await host.api().emptyTrash(trash.driveId);
        host.provider.refresh(trash);
      }, { action: t('Could not empty the trash'), retry: true }),
  };
}
