/** The Drive commands on files themselves: refresh, open, new folder, rename, copy, star, touch, open in the browser. */
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import { driveUri } from '../fs/driveFileSystem';
import { folderIdOf } from '../tree/dragAndDrop';
import { folderTitles, type DriveNode, type FileNode, type LoadMoreNode } from '../tree/model';
import type { DriveCommandKit } from './kit';

export function fileCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;

  const setStarred = (starred: boolean, node?: DriveNode, nodes?: DriveNode[]) =>
    attempt(desk, async () => {
      await kit.changeEach(kit.requireFiles(node, nodes) ?? [], (file) => host.api().patchFile(file.item.id, { labels: { starred } }), { rerender: 'row' });
    }, { action: starred ? t('Could not star') : t('Could not unstar'), retry: true });

  return {
    refresh(node?: DriveNode): void {
      if (node && (node.kind === 'section' || (node.kind === 'file' && host.model().isContainer(node)))) host.provider.refresh(node);
      else host.provider.refresh();
      host.pollChangesNow();
    },

    loadMore: (node: LoadMoreNode) =>
      attempt(desk, async () => {
        await host.model().loadMore(node.parent);
        host.provider.rerender(node.parent);
      }, { action: t('Could not load more files'), retry: true }),

    open: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.fileNodes(node);
        if (!file) return;
        if (isFolder(file.item)) {
          await host.treeView.reveal(file, { expand: true, select: true });
          return;
        }
        await vs.commands.executeCommand('vscode.open', driveUri(vs, file.item, folderTitles(file)), { preview: true });
      }, { action: t('Could not open the file'), retry: true }),

    newFolder: (node?: DriveNode) =>
      attempt(desk, async () => {
        const container = kit.targetContainer(node);
        const title = await vs.window.showInputBox({
          prompt: t('Name of the new folder'),
          value: t('New folder'),
          validateInput: (value) => (value.trim() === '' ? t('A folder needs a name') : undefined),
        });
        if (title === undefined) return;
        const folder = await host.api().insertFolder(title.trim(), await kit.folderIdFor(container));
        host.noteOwnWrite(folder);
        host.provider.refresh(container);
      }, { action: t('Could not create the folder'), retry: true }),

    copy: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        const files = kit.requireFiles(node, nodes);
        if (!files) return;
        await kit.changeEach(files, async (file: FileNode) => {
          if (isFolder(file.item)) {
            void vs.window.showInformationMessage(t('Drive copies files, not folders: “{0}” was skipped.', file.item.title ?? file.item.id));
            return undefined;
          }
          const parentId = folderIdOf(file.parent, await host.model().rootId());
          return host.api().copyFile(file.item.id, { title: t('Copy of {0}', file.item.title ?? ''), ...(parentId ? { parents: [{ id: parentId }] } : {}) });
        }, { refresh: files.map((file) => file.parent) });
      }, { action: t('Could not copy'), retry: true }),

    rename: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.requireFiles(node) ?? [];
        if (!file) return;
        const title = await vs.window.showInputBox({
          prompt: t('New name'),
          value: file.item.title,
          validateInput: (value) => (value.trim() === '' ? t('A name cannot be empty') : undefined),
        });
        if (title === undefined || title.trim() === file.item.title) return;
        await kit.changeEach([file], () => host.api().patchFile(file.item.id, { title: title.trim() }), { rerender: 'parent' });
      }, { action: t('Could not rename'), retry: true }),

    star: (node?: DriveNode, nodes?: DriveNode[]) => setStarred(true, node, nodes),
    unstar: (node?: DriveNode, nodes?: DriveNode[]) => setStarred(false, node, nodes),

    touch: (node?: DriveNode, nodes?: DriveNode[]) =>
      attempt(desk, async () => {
        await kit.changeEach(kit.requireFiles(node, nodes) ?? [], (file) => host.api().touchFile(file.item.id), { rerender: 'row' });
      }, { action: t('Could not update the modified time'), retry: true }),

    openInBrowser: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.requireFiles(node) ?? [];
        const endpoints = host.endpoints();
        if (!file || !endpoints) return;
        await vs.env.openExternal(vs.Uri.parse(endpoints.driveWebUrl(file.item.id)));
      }, { action: t('Could not open in the browser'), retry: true }),

    revealFile: (fileId: string, options?: { open?: boolean }) => attempt(desk, () => host.revealFile(fileId, { open: options?.open === true }), { action: t('Could not show the file'), retry: true }),
  };
}
