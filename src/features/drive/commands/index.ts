import type * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CancelledError } from '../../../api/errors';
import type { ServiceEndpoints } from '../../../config/endpoints';
import type { DeskContext } from '../../../core/deskContext';
import { driveUri } from '../fs/driveFileSystem';
import { DriveAboutInfo, DriveApi, DriveItem, FOLDER_MIME, isFolder, isNative, titleSearchQuery } from '../port';
import { DropPlan, folderIdOf } from '../tree/dnd';
import { formatBytes, kindLabel } from '../tree/presentation';
import { ContainerNode, DriveNode, DriveTreeModel, FileNode, LoadMoreNode, sectionOf } from '../tree/treeModel';
import type { DriveTreeProvider } from '../tree/treeProvider';
import { confirmModal } from '../../../core/confirm';

export const PROPERTIES_SCHEME = 'desk-drive-properties';
export const APP_DETAILS_SCHEME = 'desk-drive-app';

/**
 * The properties document: the file resource, the folders it is in (parents.list, titled where readable) and,
 * for a folder, how many entries it holds (children.list over every page).
 */
export async function propertiesDocument(api: DriveApi, fileId: string, rootTitle: string): Promise<string> {
  const [file, parents] = await Promise.all([api.getFile(fileId), api.listParents(fileId)]);
  const inFolders = await Promise.all(parents.map(async (parent) => ({
    id: parent.id,
    title: parent.isRoot ? rootTitle : (await api.getFile(parent.id).catch(() => undefined))?.title,
  })));
  let childCount: number | undefined;
  if (isFolder(file)) {
    childCount = 0;
    let pageToken: string | undefined;
    do {
      const page = await api.listChildren(fileId, pageToken);
      childCount += page.ids.length;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }
  return `${JSON.stringify({ ...file, inFolders, ...(childCount !== undefined ? { childCount } : {}) }, null, 2)}\n`;
}

/** An app's details document (apps.get). */
export async function appDocument(api: DriveApi, appId: string): Promise<string> {
  return `${JSON.stringify((await api.getApp(appId)).details, null, 2)}\n`;
}

/** What the commands need from the Drive feature (index.ts builds it). */
export interface DriveCommandHost {
  readonly desk: DeskContext;
  api(): DriveApi;
  model(): DriveTreeModel;
  readonly provider: DriveTreeProvider;
  readonly treeView: vscode.TreeView<DriveNode>;
  about(): Promise<DriveAboutInfo>;
  endpoints(): ServiceEndpoints | undefined;
  /** Records versions Desk wrote, so the change poller does not announce them as news. */
  noteOwnWrite(item: DriveItem): void;
  /** Asks the change poller to look now (Refresh). */
  pollChangesNow(): void;
  /** Reveals (and for files, opens) a file by id. */
  revealFile(fileId: string, options?: { open?: boolean }): Promise<void>;
}

const EXTENSION_TYPES: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.js': 'application/javascript',
  '.ts': 'application/typescript', '.html': 'text/html', '.css': 'text/css', '.csv': 'text/csv', '.xml': 'application/xml',
  '.pdf': 'application/pdf', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.zip': 'application/zip', '.py': 'text/x-python', '.sh': 'application/x-sh', '.yaml': 'text/yaml', '.yml': 'text/yaml',
};

export function mimeTypeForName(name: string): string | undefined {
  return EXTENSION_TYPES[nodePath.extname(name).toLowerCase()];
}

/** A file extension for an export target, for the save dialog. */
export function extensionForType(mimeType: string): string {
  const known: Record<string, string> = {
    'text/plain': 'txt', 'text/html': 'html', 'text/markdown': 'md', 'text/csv': 'csv', 'text/tab-separated-values': 'tsv',
    'application/pdf': 'pdf', 'image/svg+xml': 'svg', 'image/png': 'png', 'image/jpeg': 'jpg', 'application/rtf': 'rtf',
    'application/zip': 'zip', 'application/vnd.oasis.opendocument.text': 'odt',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  };
  return known[mimeType] ?? (mimeType.split('/')[1]?.replace(/[^a-z0-9]+/gi, '') || 'bin');
}

/** Uploads above this size are streamed from disk rather than read into memory (the client goes resumable). */
const STREAM_THRESHOLD = 5 * 1024 * 1024;

export interface DriveCommands {
  readonly disposables: vscode.Disposable[];
  /** Uploads files or folders (from a dialog, the OS or the Explorer) into a folder of the tree. */
  uploadUris(uris: readonly vscode.Uri[], container: ContainerNode): Promise<void>;
}

export function registerDriveCommands(host: DriveCommandHost): DriveCommands {
  const { desk } = host;
  const vs = desk.vs;
  const t = vs.l10n.t;

  const fileNodes = (node?: DriveNode, nodes?: readonly DriveNode[]): FileNode[] => {
    const chosen = nodes && nodes.length > 0 ? nodes : node ? [node] : host.treeView.selection;
    return chosen.filter((candidate): candidate is FileNode => candidate.kind === 'file');
  };

  const requireFiles = (node?: DriveNode, nodes?: readonly DriveNode[]): FileNode[] | undefined => {
    const files = fileNodes(node, nodes);
    if (files.length === 0) void vs.window.showInformationMessage(t('Select a file in the Drive view first.'));
    return files.length > 0 ? files : undefined;
  };

  /** The folder a "new folder"/"upload" goes into: the folder clicked, the folder of the file clicked, or My Drive. */
  const targetContainer = (node?: DriveNode): ContainerNode => {
    const candidate = node ?? host.treeView.selection[0];
    const model = host.model();
    if (!candidate) return model.section('myDrive');
    if (candidate.kind === 'section') return candidate.section === 'myDrive' ? candidate : model.section('myDrive');
    if (candidate.kind === 'file' && model.isContainer(candidate) && sectionOf(candidate) !== 'trash') return candidate;
    const parent = candidate.parent;
    return parent.kind === 'section' && parent.section !== 'myDrive' ? model.section('myDrive') : parent;
  };

  const folderIdFor = async (container: ContainerNode): Promise<string> => {
    const rootId = await host.model().rootId();
    return folderIdOf(container, rootId) ?? rootId;
  };

  /** Reloads the listings a set of files now appears in or just left. */
  const refreshFor = async (items: readonly DriveItem[], extra: readonly ContainerNode[] = []): Promise<void> => {
    const model = host.model();
    const containers = new Map<string, ContainerNode>();
    for (const container of extra) containers.set(container.id, container);
    for (const container of await model.containersAffectedBy(items.map((item) => ({ fileId: item.id, item, removed: false })))) containers.set(container.id, container);
    for (const container of containers.values()) host.provider.refresh(container);
  };

  /** Runs a command body; errors become one clear notification (with Retry where the input is kept). */
  const run = (action: string, work: () => Promise<void>): Promise<void> =>
    work().catch((error: unknown) => {
      if (error instanceof CancelledError) return;
      return desk.showError(error, { action, retry: () => run(action, work) });
    });

  const withProgress = <T>(title: string, work: (progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal) => Promise<T>): Thenable<T> =>
    vs.window.withProgress({ location: vs.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return work(progress, controller.signal);
    });

  const uploadOne = async (source: vscode.Uri, parentId: string, progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal, share: number): Promise<DriveItem> => {
    const title = nodePath.basename(source.path);
    const mimeType = mimeTypeForName(title);
    let content: Buffer | fs.ReadStream;
    let size: number;
    if (source.scheme === 'file') {
      size = (await fs.promises.stat(source.fsPath)).size;
      content = size > STREAM_THRESHOLD ? fs.createReadStream(source.fsPath) : await fs.promises.readFile(source.fsPath);
    } else {
      const bytes = Buffer.from(await vs.workspace.fs.readFile(source));
      size = bytes.length;
      content = bytes;
    }
    let reported = 0;
    const item = await host.api().uploadFile({ title, parents: [{ id: parentId }], ...(mimeType ? { mimeType } : {}) }, content, {
      size,
      signal,
      onProgress: (sent) => {
        const fraction = size > 0 ? Math.min(1, sent / size) : 1;
        progress.report({ message: title, increment: (fraction - reported) * share });
        reported = fraction;
      },
    });
    if (reported < 1) progress.report({ increment: (1 - reported) * share });
    host.noteOwnWrite(item);
    return item;
  };

  const uploadUris = async (uris: readonly vscode.Uri[], container: ContainerNode): Promise<void> => {
    const parentId = await folderIdFor(container);
    const uploaded: DriveItem[] = [];
    try {
      await withProgress(t('Uploading to Drive'), async (progress, signal) => {
        for (const uri of uris) {
          if (signal.aborted) throw new CancelledError();
          const stat = await vs.workspace.fs.stat(uri);
          if (stat.type & vs.FileType.Directory) uploaded.push(...(await uploadTree(uri, parentId, progress, signal, 100 / uris.length)));
          else uploaded.push(await uploadOne(uri, parentId, progress, signal, 100 / uris.length));
        }
      });
    } finally {
      // What arrived stays arrived: show it even when a later file failed or the user cancelled.
      if (uploaded.length > 0) host.provider.refresh(container);
    }
    if (uploaded.length > 0) vs.window.setStatusBarMessage(t('Uploaded {0} file(s) to Drive', uploaded.length), 4000);
  };

  const uploadTree = async (folder: vscode.Uri, parentId: string, progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal, share: number): Promise<DriveItem[]> => {
    const created = await host.api().insertFolder(nodePath.basename(folder.path), parentId);
    host.noteOwnWrite(created);
    const entries = await vs.workspace.fs.readDirectory(folder);
    const results: DriveItem[] = [created];
    for (const [name, type] of entries) {
      if (signal.aborted) throw new CancelledError();
      const child = vs.Uri.joinPath(folder, name);
      const childShare = share / Math.max(1, entries.length);
      if (type & vs.FileType.Directory) results.push(...(await uploadTree(child, created.id, progress, signal, childShare)));
      else if (type & vs.FileType.File) results.push(await uploadOne(child, created.id, progress, signal, childShare));
    }
    return results;
  };

  const pickFolder = async (placeHolder: string, exclude: ReadonlySet<string> = new Set()): Promise<{ id: string; title: string } | undefined> => {
    const rootId = await host.model().rootId();
    const folders: { id: string; title: string }[] = [{ id: rootId, title: t('My Drive') }];
    let pageToken: string | undefined;
    do {
      const page = await host.api().listFiles({ q: `mimeType = '${FOLDER_MIME}' and trashed = false`, orderBy: 'title', maxResults: 1000, pageToken });
      for (const item of page.items) folders.push({ id: item.id, title: item.title ?? item.id });
      pageToken = page.nextPageToken;
    } while (pageToken && folders.length < 5000);
    const picked = await vs.window.showQuickPick(
      folders.filter((folder) => !exclude.has(folder.id)).map((folder) => ({ label: `$(folder) ${folder.title}`, folder })),
      { placeHolder, matchOnDescription: true },
    );
    return picked?.folder;
  };

  const register = (id: string, handler: (...args: never[]) => unknown): vscode.Disposable => vs.commands.registerCommand(id, handler as (...args: unknown[]) => unknown);

  const disposables = [
    register('desk.drive.refresh', (node?: DriveNode) => {
      if (node && (node.kind === 'section' || (node.kind === 'file' && host.model().isContainer(node)))) host.provider.refresh(node);
      else host.provider.refresh();
      host.pollChangesNow();
    }),

    register('desk.drive.loadMore', (node: LoadMoreNode) =>
      run(t('Could not load more files'), async () => {
        await host.model().loadMore(node.parent);
        host.provider.rerender(node.parent);
      })),

    register('desk.drive.open', (node?: DriveNode) =>
      run(t('Could not open the file'), async () => {
        const [file] = fileNodes(node);
        if (!file) return;
        if (isFolder(file.item)) {
          await host.treeView.reveal(file, { expand: true, select: true });
          return;
        }
        await vs.commands.executeCommand('vscode.open', driveUri(vs, file.item), { preview: true });
      })),

    register('desk.drive.newFolder', (node?: DriveNode) =>
      run(t('Could not create the folder'), async () => {
        const container = targetContainer(node);
        const title = await vs.window.showInputBox({
          prompt: t('Name of the new folder'),
          value: t('New folder'),
          validateInput: (value) => (value.trim() === '' ? t('A folder needs a name') : undefined),
        });
        if (title === undefined) return;
        const folder = await host.api().insertFolder(title.trim(), await folderIdFor(container));
        host.noteOwnWrite(folder);
        host.provider.refresh(container);
      })),

    register('desk.drive.uploadFiles', (node?: DriveNode) =>
      run(t('Could not upload'), async () => {
        const uris = await vs.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: false, canSelectMany: true, openLabel: t('Upload to Drive'), defaultUri: vs.workspace.workspaceFolders?.[0]?.uri });
        if (uris && uris.length > 0) await uploadUris(uris, targetContainer(node));
      })),

    register('desk.drive.uploadFolder', (node?: DriveNode) =>
      run(t('Could not upload the folder'), async () => {
        const uris = await vs.window.showOpenDialog({ canSelectFiles: false, canSelectFolders: true, canSelectMany: false, openLabel: t('Upload to Drive'), defaultUri: vs.workspace.workspaceFolders?.[0]?.uri });
        if (uris && uris.length > 0) await uploadUris(uris, targetContainer(node));
      })),

    register('desk.drive.download', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not download'), async () => {
        const files = requireFiles(node, nodes);
        const file = files?.[0];
        if (!file) return;
        if (isFolder(file.item)) {
          void vs.window.showInformationMessage(t('Folders cannot be downloaded as one file; download the files inside.'));
          return;
        }
        if (isNative(file.item)) {
          await vs.commands.executeCommand('desk.drive.export', file);
          return;
        }
        const base = vs.workspace.workspaceFolders?.[0]?.uri;
        const target = await vs.window.showSaveDialog({ defaultUri: base ? vs.Uri.joinPath(base, file.item.title ?? file.item.id) : undefined, saveLabel: t('Download') });
        if (!target) return;
        await withProgress(t('Downloading {0}', file.item.title ?? file.item.id), async (progress, signal) => {
          const download = await host.api().download(file.item.id, { signal });
          if (target.scheme === 'file') {
            // Stream to a temporary name and rename at the end: a cancelled download never leaves half a file.
            const partial = `${target.fsPath}.desk-partial`;
            const total = download.size ?? Number(file.item.fileSize ?? 0);
            let received = 0;
            download.stream.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (total > 0) progress.report({ increment: (chunk.length / total) * 100 });
            });
            try {
              await pipeline(download.stream, fs.createWriteStream(partial), { signal });
              await fs.promises.rename(partial, target.fsPath);
            } catch (error) {
              await fs.promises.rm(partial, { force: true });
              throw signal.aborted ? new CancelledError() : error;
            }
            void received;
          } else {
            const chunks: Buffer[] = [];
            for await (const chunk of download.stream as AsyncIterable<Buffer>) chunks.push(chunk);
            await vs.workspace.fs.writeFile(target, Buffer.concat(chunks));
          }
        });
        vs.window.setStatusBarMessage(t('Downloaded {0}', file.item.title ?? file.item.id), 4000);
      })),

    register('desk.drive.copy', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not copy'), async () => {
        const files = requireFiles(node, nodes);
        if (!files) return;
        const copies: DriveItem[] = [];
        for (const file of files) {
          if (isFolder(file.item)) {
            void vs.window.showInformationMessage(t('Drive copies files, not folders: “{0}” was skipped.', file.item.title ?? file.item.id));
            continue;
          }
          const parentId = folderIdOf(file.parent, await host.model().rootId());
          const copy = await host.api().copyFile(file.item.id, { title: t('Copy of {0}', file.item.title ?? ''), ...(parentId ? { parents: [{ id: parentId }] } : {}) });
          host.noteOwnWrite(copy);
          copies.push(copy);
        }
        await refreshFor(copies, files.map((file) => file.parent));
      })),

    register('desk.drive.rename', (node?: DriveNode) =>
      run(t('Could not rename'), async () => {
        const [file] = requireFiles(node) ?? [];
        if (!file) return;
        const title = await vs.window.showInputBox({
          prompt: t('New name'),
          value: file.item.title,
          validateInput: (value) => (value.trim() === '' ? t('A name cannot be empty') : undefined),
        });
        if (title === undefined || title.trim() === file.item.title) return;
        const renamed = await host.api().patchFile(file.item.id, { title: title.trim() });
        host.noteOwnWrite(renamed);
        for (const updated of host.model().updateItem(renamed)) host.provider.rerender(updated.parent);
      })),

    register('desk.drive.move', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not move'), async () => {
        const files = requireFiles(node, nodes);
        if (!files) return;
        const target = await pickFolder(t('Move to which folder?'), new Set(files.map((file) => file.item.id)));
        if (!target) return;
        const rootId = await host.model().rootId();
        const moved: DriveItem[] = [];
        for (const file of files) {
          const from = folderIdOf(file.parent, rootId);
          const current = (file.item.parents ?? []).map((parent) => parent.id);
          const removeParents = from && current.includes(from) ? [from] : [];
          const item = await host.api().patchFile(file.item.id, {}, { addParents: [target.id], removeParents });
          host.noteOwnWrite(item);
          moved.push(item);
        }
        await refreshFor(moved, files.map((file) => file.parent));
      })),

    register('desk.drive.addParent', (node?: DriveNode) =>
      run(t('Could not add the file to a folder'), async () => {
        const [file] = requireFiles(node) ?? [];
        if (!file) return;
        const target = await pickFolder(t('Also show “{0}” in which folder?', file.item.title ?? ''), new Set([file.item.id, ...(file.item.parents ?? []).map((parent) => parent.id)]));
        if (!target) return;
        await host.api().insertParent(file.item.id, target.id);
        const item = await host.api().getFile(file.item.id);
        host.noteOwnWrite(item);
        await refreshFor([item]);
      })),

    register('desk.drive.removeParent', (node?: DriveNode) =>
      run(t('Could not remove the file from a folder'), async () => {
        const [file] = requireFiles(node) ?? [];
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
        await host.api().deleteParent(file.item.id, picked.id);
        const item = await host.api().getFile(file.item.id);
        host.noteOwnWrite(item);
        await refreshFor([item], [file.parent]);
      })),

    register('desk.drive.addExistingFile', (node?: DriveNode) =>
      run(t('Could not add the file to the folder'), async () => {
        const container = targetContainer(node);
        const folderId = await folderIdFor(container);
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
          candidates.map((item) => ({ label: `${isFolder(item) ? '$(folder)' : '$(file)'} ${item.title ?? item.id}`, description: kindLabel(item.mimeType), item })),
          { placeHolder: t('Which file should also appear in this folder?'), matchOnDescription: true },
        );
        if (!picked) return;
        await host.api().insertChild(folderId, picked.item.id);
        const item = await host.api().getFile(picked.item.id);
        host.noteOwnWrite(item);
        await refreshFor([item], [container]);
      })),

    register('desk.drive.apps', () =>
      run(t('Could not list the Drive apps'), async () => {
        const apps = await host.api().listApps();
        if (apps.length === 0) {
          void vs.window.showInformationMessage(t('No Drive apps are installed for this account.'));
          return;
        }
        const picked = await vs.window.showQuickPick(
          apps.map((app) => ({ label: app.name ?? app.id, description: app.shortDescription, app })),
          { placeHolder: t('Installed Drive apps: choose one to see its details') },
        );
        if (!picked) return;
        const uri = vs.Uri.from({ scheme: APP_DETAILS_SCHEME, path: `/${picked.app.id}/${(picked.app.name ?? picked.app.id).replace(/\//g, '∕')}.json` });
        const doc = await vs.workspace.openTextDocument(uri);
        await vs.languages.setTextDocumentLanguage(doc, 'json');
        await vs.window.showTextDocument(doc, { preview: true });
      })),

    ...(['star', 'unstar'] as const).map((verb) =>
      register(`desk.drive.${verb}`, (node?: DriveNode, nodes?: DriveNode[]) =>
        run(verb === 'star' ? t('Could not star') : t('Could not unstar'), async () => {
          for (const file of requireFiles(node, nodes) ?? []) {
            const item = await host.api().patchFile(file.item.id, { labels: { starred: verb === 'star' } });
            host.noteOwnWrite(item);
            for (const updated of host.model().updateItem(item)) host.provider.rerender(updated);
          }
        }))),

    register('desk.drive.trash', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not move to the trash'), async () => {
        const files = requireFiles(node, nodes);
        if (!files) return;
        const trashed: DriveItem[] = [];
        for (const file of files) {
          const item = await host.api().trashFile(file.item.id);
          host.noteOwnWrite(item);
          trashed.push(item);
        }
        await refreshFor(trashed, [...files.map((file) => file.parent), host.model().section('trash')]);
        const undo = t('Undo');
        const choice = await vs.window.showInformationMessage(t('Moved {0} item(s) to the trash.', trashed.length), undo);
        if (choice === undo) {
          const restored = await Promise.all(trashed.map((item) => host.api().untrashFile(item.id)));
          restored.forEach((item) => host.noteOwnWrite(item));
          await refreshFor(restored, [...files.map((file) => file.parent), host.model().section('trash')]);
        }
      })),

    register('desk.drive.untrash', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not restore from the trash'), async () => {
        const files = requireFiles(node, nodes);
        if (!files) return;
        const restored: DriveItem[] = [];
        for (const file of files) {
          const item = await host.api().untrashFile(file.item.id);
          host.noteOwnWrite(item);
          restored.push(item);
        }
        await refreshFor(restored, [host.model().section('trash'), host.model().section('myDrive')]);
      })),

    register('desk.drive.delete', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not delete'), async () => {
        const files = requireFiles(node, nodes);
        if (!files) return;
        const names = files.length === 1 ? `“${files[0]?.item.title ?? ''}”` : t('{0} items', files.length);
        const detail = t('This skips the trash and cannot be undone. Folders are deleted with everything in them.');
        if (!(await confirmModal(vs, t('Delete {0} forever?', names), detail, t('Delete Forever')))) return;
        for (const file of files) await host.api().deleteFile(file.item.id);
        for (const file of files) host.provider.refresh(file.parent);
      })),

    register('desk.drive.emptyTrash', () =>
      run(t('Could not empty the trash'), async () => {
        if (!(await confirmModal(vs, t('Delete everything in the trash forever?'), t('This cannot be undone.'), t('Empty Trash')))) return;
        await host.api().emptyTrash();
        host.provider.refresh(host.model().section('trash'));
      })),

    register('desk.drive.export', (node?: DriveNode) =>
      run(t('Could not export'), async () => {
        const [file] = requireFiles(node) ?? [];
        if (!file) return;
        const about = await host.about();
        const targets = about.exportFormats.find((format) => format.source === file.item.mimeType)?.targets ?? [];
        if (targets.length === 0) {
          void vs.window.showInformationMessage(t('“{0}” ({1}) has no export formats; download it instead.', file.item.title ?? '', kindLabel(file.item.mimeType)));
          return;
        }
        const picked = await vs.window.showQuickPick(targets.map((type) => ({ label: type, description: `.${extensionForType(type)}` })), { placeHolder: t('Export “{0}” as', file.item.title ?? '') });
        if (!picked) return;
        const base = vs.workspace.workspaceFolders?.[0]?.uri;
        const name = `${file.item.title ?? file.item.id}.${extensionForType(picked.label)}`;
        const target = await vs.window.showSaveDialog({ defaultUri: base ? vs.Uri.joinPath(base, name) : undefined, saveLabel: t('Export') });
        if (!target) return;
        const bytes = await host.api().exportFile(file.item.id, picked.label);
        await vs.workspace.fs.writeFile(target, bytes);
        vs.window.setStatusBarMessage(t('Exported {0}', name), 4000);
      })),

    register('desk.drive.touch', (node?: DriveNode, nodes?: DriveNode[]) =>
      run(t('Could not update the modified time'), async () => {
        for (const file of requireFiles(node, nodes) ?? []) {
          const item = await host.api().touchFile(file.item.id);
          host.noteOwnWrite(item);
          for (const updated of host.model().updateItem(item)) host.provider.rerender(updated);
        }
      })),

    register('desk.drive.properties', (node?: DriveNode) =>
      run(t('Could not show the properties'), async () => {
        const [file] = requireFiles(node) ?? [];
        if (!file) return;
        const uri = vs.Uri.from({ scheme: PROPERTIES_SCHEME, path: `/${file.item.id}/${(file.item.title ?? file.item.id).replace(/\//g, '∕')}.json` });
        const doc = await vs.workspace.openTextDocument(uri);
        await vs.languages.setTextDocumentLanguage(doc, 'json');
        await vs.window.showTextDocument(doc, { preview: true });
      })),

    register('desk.drive.about', () =>
      run(t('Could not read the Drive account'), async () => {
        const about = await host.about();
        const used = Number(about.quotaBytesUsed ?? NaN);
        const total = Number(about.quotaBytesTotal ?? NaN);
        const quota = Number.isFinite(used)
          ? Number.isFinite(total) && total > 0
            ? t('{0} of {1} used ({2}%)', formatBytes(used), formatBytes(total), Math.round((used / total) * 100))
            : t('{0} used (no limit)', formatBytes(used))
          : t('quota unknown');
        const account = [about.userName, about.userEmail && `<${about.userEmail}>`].filter(Boolean).join(' ');
        const trash = about.quotaBytesUsedInTrash ? t(', {0} in the trash', formatBytes(Number(about.quotaBytesUsedInTrash))) : '';
        await vs.window.showInformationMessage(t('Drive: {0} · {1}{2} · {3}', account || t('unknown account'), quota, trash, host.endpoints()?.kind === 'emulator' ? t('local emulator') : 'Google'));
      })),

    register('desk.drive.openInBrowser', (node?: DriveNode) =>
      run(t('Could not open in the browser'), async () => {
        const [file] = requireFiles(node) ?? [];
        const endpoints = host.endpoints();
        if (!file || !endpoints) return;
        await vs.env.openExternal(vs.Uri.parse(endpoints.driveWebUrl(file.item.id)));
      })),

    register('desk.drive.revealFile', (fileId: string) => run(t('Could not show the file'), () => host.revealFile(fileId, { open: false }))),
  ];
  return { disposables, uploadUris: (uris, container) => run(t('Could not upload'), () => uploadUris(uris, container)) };
}

/** Runs a drop plan: each action in turn, then a refresh of the folders involved; skipped items are explained. */
export async function executeDropPlan(host: Pick<DriveCommandHost, 'desk' | 'api' | 'model' | 'provider' | 'noteOwnWrite'>, plan: DropPlan): Promise<void> {
  const vs = host.desk.vs;
  const changed: DriveItem[] = [];
  try {
    for (const action of plan.actions) {
      const item = action.kind === 'trash'
        ? await host.api().trashFile(action.fileId)
        : await host.api().patchFile(action.fileId, {}, { addParents: action.addParents, removeParents: action.removeParents });
      host.noteOwnWrite(item);
      changed.push(item);
    }
  } catch (error) {
    await host.desk.showError(error, { action: vs.l10n.t('Could not move') });
  } finally {
    const model = host.model();
    const containers = await model.containersAffectedBy(changed.map((item) => ({ fileId: item.id, item, removed: false })));
    if (plan.actions.some((action) => action.kind === 'trash')) containers.push(model.section('trash'));
    for (const container of containers) host.provider.refresh(container);
  }
  if (plan.skipped.length > 0) {
    const first = plan.skipped[0];
    if (first) void vs.window.showInformationMessage(vs.l10n.t('“{0}” was not moved: {1}.', first.title, first.reason));
  }
}
