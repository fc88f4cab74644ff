/** The Drive commands around the trash: trash (with Undo), restore, delete forever, empty the trash. */
import { isUnreachable } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { DriveItem } from '../port';
import { driveAsItem } from '../sharedDrives/port';
import { myDriveRole } from '../sharedDrives/nodes';
import type { DriveNode, SectionNode } from '../tree/model';
import { DriveCommandPart } from './context';

export class DriveTrashCommands extends DriveCommandPart {
  /**
   * From the palette: the user's trash, or the Trash of a shared drive they organize (only organizers empty one).
   * Without such a drive there is nothing to choose.
   */
  private async pickTrash(): Promise<SectionNode | undefined> {
    const model = this.host.model();
    const organized: DriveItem[] = [];
    for await (const drive of this.host.resources().allDrives({})) {
      const item = driveAsItem(drive);
      if (myDriveRole(item) === 'organizer') organized.push(item);
    }
    if (organized.length === 0) return model.section('trash');
    const mine = { label: `$(trash) ${this.t('Your trash')}`, trash: model.section('trash') };
    const drives = organized.map((drive) => ({ label: `$(library) ${this.t('Trash of “{0}”', drive.title ?? drive.id)}`, trash: model.driveTrashOfDrive(drive) }));
    const picked = await this.vs.window.showQuickPick([mine, ...drives], { placeHolder: this.t('Which trash to empty?') });
    return picked?.trash;
  }

  trash(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      if (!files) return;
      // A shared drive's item goes to that drive's Trash, anything else to the user's.
      const shownIn = () => [...files.map((file) => file.parent), ...files.flatMap((file) => this.host.model().trashFor(file.item))];
      // One batch request for the selection: the files that could not be trashed are named, Retry sends only those.
      let trashed;
      try {
        trashed = await this.context.changeAll(files, (targets) => this.host.api().trashFiles(targets.map((file) => file.item.id)), shownIn());
      } catch (error) {
        // Offline: kept (the rows leave at once) and sent when Drive is back; a trash repeated changes nothing.
        const offline = this.host.offlineChanges;
        if (!isUnreachable(error) || !offline) throw error;
        for (const file of files) await offline.trash(file.item);
        void this.vs.window.showInformationMessage(this.t('Desk is offline: {0} item(s) go to the trash when Drive can be reached.', files.length));
        return;
      }
      const undo = this.t('Undo');
      const choice = await this.vs.window.showInformationMessage(this.t('Moved {0} item(s) to the trash.', trashed.length), undo);
      if (choice === undo) await this.context.changeAll(trashed.map(({ item }) => item), (targets) => this.host.api().untrashFiles(targets.map((file) => file.item.id)), shownIn());
    }, { action: this.t('Could not move to the trash'), retry: true });
  }

  untrash(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      if (!files) return;
      // Back where it was: My Drive, or the shared drive's row (which reloads its folders and its Trash).
      const driveRows = files.flatMap((file) => (file.parent.kind === 'section' && file.parent.parent ? [file.parent.parent] : []));
      const restored = await this.context.changeAll(files, (targets) => this.host.api().untrashFiles(targets.map((file) => file.item.id)), [this.host.model().section('trash'), this.host.model().section('myDrive'), ...driveRows]);
      // The row leaves the Trash; say where the file went (back to the folder it was trashed from).
      const only = restored.at(0);
      if (restored.length === 1 && only) void this.vs.window.showInformationMessage(this.t('Restored “{0}” to the folder it was in.', this.titleOf(only.item.item)));
      else if (restored.length > 1) void this.vs.window.showInformationMessage(this.t('Restored {0} items to the folders they were in.', restored.length));
    }, { action: this.t('Could not restore from the trash'), retry: true });
  }

  delete(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      if (!files) return;
      const one = files.at(0);
      const names = files.length === 1 && one ? `“${this.titleOf(one.item)}”` : this.t('{0} items', files.length);
      const detail = this.t('This skips the trash and cannot be undone. Folders are deleted with everything in them.');
      if (!(await confirmModal(this.vs, this.t('Delete {0} forever?', names), detail, this.t('Delete Forever')))) return;
      await this.context.changeAll(files, (targets) => this.host.api().deleteFiles(targets.map((file) => file.item.id)), (deleted) => deleted.map((file) => file.parent));
    }, { action: this.t('Could not delete'), retry: true });
  }

  emptyTrash(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const trash = node?.kind === 'section' && node.section === 'trash' ? node : await this.pickTrash();
      if (!trash) return;
      const driveName = trash.parent ? this.titleOf(trash.parent.item) : undefined;
      const question = driveName === undefined ? this.t('Delete everything in the trash forever?') : this.t('Delete everything in the trash of “{0}” forever?', driveName);
      const detail = driveName === undefined ? this.t('This cannot be undone.') : this.t('This cannot be undone, and it deletes the items for every member of the shared drive.');
      if (!(await confirmModal(this.vs, question, detail, this.t('Empty Trash')))) return;
      await this.host.api().emptyTrash(trash.driveId);
      this.host.provider.refresh(trash);
    }, { action: this.t('Could not empty the trash'), retry: true });
  }
}
