/** The Drive commands on files themselves: refresh, open, new folder, new file, rename, copy, star, touch, open in the browser. */
import { isUnreachable, ServiceUnreachableError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import { driveUri } from '../fs/driveFileSystem';
import { folderIdOf } from '../tree/dragAndDrop';
import { folderTitles, type DriveNode, type FileNode, type LoadMoreNode } from '../tree/model';
import { DriveCommandPart } from './context';

export class DriveFileCommands extends DriveCommandPart {
  private setStarred(starred: boolean, node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      await this.context.changeEach(this.context.requireFiles(node, nodes) ?? [], (file) => this.host.api().patchFile(file.item.id, { labels: { starred } }), { rerender: 'row' });
    }, { action: starred ? this.t('Could not star') : this.t('Could not unstar'), retry: true });
  }

  refresh(node?: DriveNode): void {
    if (node && (node.kind === 'section' || (node.kind === 'file' && this.host.model().isContainer(node)))) this.host.provider.refresh(node);
    else this.host.provider.refresh();
    this.host.pollChangesNow();
  }

  loadMore(node: LoadMoreNode) {
    return attempt(this.desk, async () => {
      await this.host.model().loadMore(node.parent);
      this.host.provider.rerender(node.parent);
    }, { action: this.t('Could not load more files'), retry: true });
  }

  open(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.fileNodes(node).at(0);
      if (!file) return;
      if (isFolder(file.item)) {
        await this.host.treeView.reveal(file, { expand: true, select: true });
        return;
      }
      this.host.knowFile(file.item);
      await this.vs.commands.executeCommand('vscode.open', driveUri(this.vs, await this.desk.session.viewAccountNow(), file.item, folderTitles(file)), { preview: true });
    }, { action: this.t('Could not open the file'), retry: true });
  }

  newFolder(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const container = this.context.targetContainer(node);
      const title = await this.vs.window.showInputBox({
        prompt: this.t('Name of the new folder'),
        value: this.t('New folder'),
        validateInput: (value) => (value.trim() === '' ? this.t('A folder needs a name') : undefined),
      });
      if (title === undefined) return;
      const parentId = await this.context.folderIdFor(container);
      let folder;
      try {
        folder = await this.host.api().insertFolder(title.trim(), parentId);
      } catch (error) {
        // Offline: kept (the folder shows at once) and made when Drive is back; one that may have landed is looked for first.
        const offline = this.host.offlineChanges;
        if (!isUnreachable(error) || !offline) throw error;
        const parentTitle = container.kind === 'file' ? (container.item.title ?? '') : this.t('My Drive');
        await offline.newFolder(title.trim(), parentId, parentTitle, !(error as ServiceUnreachableError).notSent);
        this.offlineNotice(title.trim());
        return;
      }
      this.host.noteOwnWrite(folder);
      this.host.provider.refresh(container);
    }, { action: this.t('Could not create the folder'), retry: true });
  }

  /** New File: a name, an empty file in the folder, opened to type in. Offline it shows at once and is made when Drive is back. */
  newFile(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const container = this.context.targetContainer(node);
      const suggested = this.t('Untitled.md');
      const dot = suggested.lastIndexOf('.');
      const title = await this.vs.window.showInputBox({
        prompt: this.t('Name of the new file'),
        value: suggested,
        // The name selected, not its extension: typing replaces "Untitled" only.
        valueSelection: [0, dot > 0 ? dot : suggested.length],
        validateInput: (value) => (value.trim() === '' ? this.t('A file needs a name') : undefined),
      });
      if (title === undefined) return;
      const parentId = await this.context.folderIdFor(container);
      let file;
      try {
        // An id from generateIds (the client's pool): a repeat after a lost answer cannot make a second file.
        file = await this.host.api().insertEmptyFile(title.trim(), parentId);
      } catch (error) {
        const offline = this.host.offlineChanges;
        if (!isUnreachable(error) || !offline) throw error;
        const parentTitle = container.kind === 'file' ? (container.item.title ?? '') : this.t('My Drive');
        await offline.newFile(title.trim(), parentId, parentTitle);
        void this.vs.window.showInformationMessage(this.t('Desk is offline: “{0}” is made on Drive when it can be reached; open it then to write in it.', title.trim()));
        return;
      }
      this.host.noteOwnWrite(file);
      this.host.provider.refresh(container);
      this.host.knowFile(file);
      await this.vs.commands.executeCommand('vscode.open', driveUri(this.vs, await this.desk.session.viewAccountNow(), file), { preview: false });
    }, { action: this.t('Could not create the file'), retry: true });
  }

  copy(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      if (!files) return;
      await this.context.changeEach(files, async (file: FileNode) => {
        if (isFolder(file.item)) {
          void this.vs.window.showInformationMessage(this.t('Drive copies files, not folders: “{0}” was skipped.', file.item.title ?? file.item.id));
          return undefined;
        }
        const parentId = folderIdOf(file.parent, await this.host.model().rootId());
        return this.host.api().copyFile(file.item.id, { title: this.t('Copy of {0}', file.item.title ?? ''), ...(parentId ? { parents: [{ id: parentId }] } : {}) });
      }, { refresh: files.map((file) => file.parent) });
    }, { action: this.t('Could not copy'), retry: true });
  }

  rename(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.requireFiles(node)?.at(0);
      if (!file) return;
      const title = await this.vs.window.showInputBox({
        prompt: this.t('New name'),
        value: file.item.title,
        validateInput: (value) => (value.trim() === '' ? this.t('A name cannot be empty') : undefined),
      });
      if (title === undefined || title.trim() === file.item.title) return;
      await this.context.changeEach([file], async () => {
        try {
          return await this.host.api().patchFile(file.item.id, { title: title.trim() });
        } catch (error) {
          // Offline: kept (the row shows the new name at once) and sent when Drive is back.
          if (!isUnreachable(error) || !this.host.offlineChanges) throw error;
          await this.host.offlineChanges.rename(file.item, title.trim());
          this.offlineNotice(file.item.title ?? '');
          return undefined;
        }
      }, { rerender: 'parent' });
    }, { action: this.t('Could not rename'), retry: true });
  }

  private offlineNotice(title: string): void {
    void this.vs.window.showInformationMessage(this.t('Desk is offline: the change to “{0}” is kept and sent when Drive can be reached.', title));
  }

  star(node?: DriveNode, nodes?: DriveNode[]) {
    return this.setStarred(true, node, nodes);
  }

  unstar(node?: DriveNode, nodes?: DriveNode[]) {
    return this.setStarred(false, node, nodes);
  }

  touch(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      await this.context.changeEach(this.context.requireFiles(node, nodes) ?? [], (file) => this.host.api().touchFile(file.item.id), { rerender: 'row' });
    }, { action: this.t('Could not update the modified time'), retry: true });
  }

  openInBrowser(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.requireFiles(node)?.at(0);
      const endpoints = this.host.endpoints();
      if (!file || !endpoints) return;
      await this.vs.env.openExternal(this.vs.Uri.parse(endpoints.driveWebUrl(file.item.id)));
    }, { action: this.t('Could not open in the browser'), retry: true });
  }

  revealFile(fileId: string, options?: { open?: boolean }) {
    return attempt(this.desk, () => this.host.revealFile(fileId, { open: options?.open === true }), { action: this.t('Could not show the file'), retry: true });
  }
}
