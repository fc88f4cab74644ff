/**
 * Showing one Drive file in the Drive view: find its row (My Drive, Shared with me or the trash), select and focus it,
 * and open it when asked (a folder is expanded instead). Used by the Desk search and the change announcements
 * (DRIVE_COMMAND.revealFile).
 */
import type * as vscode from 'vscode';
import { isFolder } from '../../../shared/schemas/drive';
import { driveUri } from '../fs/driveFileSystem';
import { DriveNode, DriveTreeModel, folderTitles } from './model';

export interface RevealHost {
  readonly vs: typeof vscode;
  readonly model: DriveTreeModel;
  readonly view: vscode.TreeView<DriveNode>;
  /** The account whose Drive the view shows (the authority of the URI a file opens at). */
  readonly account: () => string;
  /** Redraws a container whose rows the search for the file completed. */
  readonly redraw: (container: DriveNode) => void;
}

export async function revealDriveFile(host: RevealHost, fileId: string, options: { open?: boolean } = {}): Promise<void> {
  const { vs, model, view } = host;
  const node = await model.findNode(fileId, { onPlaced: (container) => { host.redraw(container); } });
  if (!node) {
    void vs.window.showInformationMessage(vs.l10n.t('That file is not in My Drive, Shared with me or the trash any more.'));
    return;
  }
  await view.reveal(node, { select: true, focus: true, expand: isFolder(node.item) });
  if (options.open && !isFolder(node.item)) await vs.commands.executeCommand('vscode.open', driveUri(vs, host.account(), node.item, folderTitles(node)), { preview: true });
}
