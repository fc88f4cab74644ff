/** The Drive commands that move bytes: upload files and folders (streamed, with progress), download, export native documents. */
import type * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CancelledError } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { kindLabel } from '../tree/presentation';
import type { ContainerNode, DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';
import { DRIVE_COMMAND } from '../../../config/commandIds';
import { appendAll } from '../../../shared/arrays';

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

type Progress = vscode.Progress<{ message?: string; increment?: number }>;

export class DriveContentCommands extends DriveCommandPart {
  private withProgress<T>(title: string, work: (progress: Progress, signal: AbortSignal) => Promise<T>): Thenable<T> {
    return this.vs.window.withProgress({ location: this.vs.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => { controller.abort(); });
      return work(progress, controller.signal);
    });
  }

  private async uploadOne(source: vscode.Uri, parentId: string, progress: Progress, signal: AbortSignal, share: number): Promise<DriveItem> {
    const title = nodePath.basename(source.path);
    const mimeType = mimeTypeForName(title);
    let content: Buffer | fs.ReadStream;
    let size: number;
    if (source.scheme === 'file') {
      size = (await fs.promises.stat(source.fsPath)).size;
      content = size > STREAM_THRESHOLD ? fs.createReadStream(source.fsPath) : await fs.promises.readFile(source.fsPath);
    } else {
      const bytes = Buffer.from(await this.vs.workspace.fs.readFile(source));
      size = bytes.length;
      content = bytes;
    }
    let reported = 0;
    const item = await this.host.api().uploadFile({ title, parents: [{ id: parentId }], ...(mimeType ? { mimeType } : {}) }, content, {
      size,
      signal,
      onProgress: (sent) => {
        const fraction = size > 0 ? Math.min(1, sent / size) : 1;
        progress.report({ message: title, increment: (fraction - reported) * share });
        reported = fraction;
      },
    });
    if (reported < 1) progress.report({ increment: (1 - reported) * share });
    this.host.noteOwnWrite(item);
    return item;
  }

  private async uploadInto(uris: readonly vscode.Uri[], container: ContainerNode): Promise<void> {
    const parentId = await this.context.folderIdFor(container);
    const uploaded: DriveItem[] = [];
    try {
      await this.withProgress(this.t('Uploading to Drive'), async (progress, signal) => {
        for (const uri of uris) {
          if (signal.aborted) throw new CancelledError();
          const stat = await this.vs.workspace.fs.stat(uri);
          if (stat.type & this.vs.FileType.Directory) appendAll(uploaded, await this.uploadTree(uri, parentId, progress, signal, 100 / uris.length));
          else uploaded.push(await this.uploadOne(uri, parentId, progress, signal, 100 / uris.length));
        }
      });
    } finally {
      // What arrived stays arrived: show it even when a later file failed or the user cancelled.
      if (uploaded.length > 0) this.host.provider.refresh(container);
    }
    if (uploaded.length > 0) this.vs.window.setStatusBarMessage(this.t('Uploaded {0} file(s) to Drive', uploaded.length), 4000);
  }

  private async uploadTree(folder: vscode.Uri, parentId: string, progress: Progress, signal: AbortSignal, share: number): Promise<DriveItem[]> {
    const created = await this.host.api().insertFolder(nodePath.basename(folder.path), parentId);
    this.host.noteOwnWrite(created);
    const entries = await this.vs.workspace.fs.readDirectory(folder);
    const results: DriveItem[] = [created];
    for (const [name, type] of entries) {
      if (signal.aborted) throw new CancelledError();
      const child = this.vs.Uri.joinPath(folder, name);
      const childShare = share / Math.max(1, entries.length);
      if (type & this.vs.FileType.Directory) appendAll(results, await this.uploadTree(child, created.id, progress, signal, childShare));
      else if (type & this.vs.FileType.File) results.push(await this.uploadOne(child, created.id, progress, signal, childShare));
    }
    return results;
  }

  private pickAndUpload(node: DriveNode | undefined, folders: boolean) {
    return attempt(this.desk, async () => {
      const uris = await this.vs.window.showOpenDialog({ canSelectFiles: !folders, canSelectFolders: folders, canSelectMany: !folders, openLabel: this.t('Upload to Drive'), defaultUri: this.vs.workspace.workspaceFolders?.[0]?.uri });
      if (uris && uris.length > 0) await this.uploadInto(uris, this.context.targetContainer(node));
    }, { action: folders ? this.t('Could not upload the folder') : this.t('Could not upload'), retry: true });
  }

  /** Uploads files or folders (from a dialog, the OS or the Explorer) into a folder of the tree. */
  uploadUris(uris: readonly vscode.Uri[], container: ContainerNode) {
    return attempt(this.desk, () => this.uploadInto(uris, container), { action: this.t('Could not upload'), retry: true });
  }

  uploadFiles(node?: DriveNode) {
    return this.pickAndUpload(node, false);
  }

  uploadFolder(node?: DriveNode) {
    return this.pickAndUpload(node, true);
  }

  download(node?: DriveNode, nodes?: DriveNode[]) {
    return attempt(this.desk, async () => {
      const files = this.context.requireFiles(node, nodes);
      const file = files?.[0];
      if (!file) return;
      if (isFolder(file.item)) {
        void this.vs.window.showInformationMessage(this.t('Folders cannot be downloaded as one file; download the files inside.'));
        return;
      }
      if (isNative(file.item)) {
        await this.vs.commands.executeCommand(DRIVE_COMMAND.export, file);
        return;
      }
      const base = this.vs.workspace.workspaceFolders?.[0]?.uri;
      const target = await this.vs.window.showSaveDialog({ defaultUri: base ? this.vs.Uri.joinPath(base, file.item.title ?? file.item.id) : undefined, saveLabel: this.t('Download') });
      if (!target) return;
      await this.withProgress(this.t('Downloading {0}', file.item.title ?? file.item.id), async (progress, signal) => {
        const download = await this.host.api().download(file.item.id, { signal });
        if (target.scheme === 'file') {
          // Stream to a temporary name and rename at the end: a cancelled download never leaves half a file.
          const partial = `${target.fsPath}.desk-partial`;
          const total = download.size ?? Number(file.item.fileSize ?? 0);
          download.stream.on('data', (chunk: Buffer) => {
            if (total > 0) progress.report({ increment: (chunk.length / total) * 100 });
          });
          try {
            await pipeline(download.stream, fs.createWriteStream(partial), { signal });
            await fs.promises.rename(partial, target.fsPath);
          } catch (error) {
            await fs.promises.rm(partial, { force: true });
            throw signal.aborted ? new CancelledError() : error;
          }
        } else {
          const chunks: Buffer[] = [];
          for await (const chunk of download.stream as AsyncIterable<Buffer>) chunks.push(chunk);
          await this.vs.workspace.fs.writeFile(target, Buffer.concat(chunks));
        }
      });
      this.vs.window.setStatusBarMessage(this.t('Downloaded {0}', file.item.title ?? file.item.id), 4000);
    }, { action: this.t('Could not download'), retry: true });
  }

  export(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.context.requireFiles(node)?.at(0);
      if (!file) return;
      const about = await this.host.about();
      const targets = about.exportFormats.find((format) => format.source === file.item.mimeType)?.targets ?? [];
      if (targets.length === 0) {
        void this.vs.window.showInformationMessage(this.t('“{0}” ({1}) has no export formats; download it instead.', file.item.title ?? '', kindLabel(file.item.mimeType, this.t)));
        return;
      }
      const picked = await this.vs.window.showQuickPick(targets.map((type) => ({ label: type, description: `.${extensionForType(type)}` })), { placeHolder: this.t('Export “{0}” as', file.item.title ?? '') });
      if (!picked) return;
      const base = this.vs.workspace.workspaceFolders?.[0]?.uri;
      const name = `${file.item.title ?? file.item.id}.${extensionForType(picked.label)}`;
      const target = await this.vs.window.showSaveDialog({ defaultUri: base ? this.vs.Uri.joinPath(base, name) : undefined, saveLabel: this.t('Export') });
      if (!target) return;
      const bytes = await this.host.api().exportFile(file.item.id, picked.label);
      await this.vs.workspace.fs.writeFile(target, bytes);
      this.vs.window.setStatusBarMessage(this.t('Exported {0}', name), 4000);
    }, { action: this.t('Could not export'), retry: true });
  }
}
