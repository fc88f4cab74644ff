/**
 * "Add to Workspace" on My Drive, a folder or a shared drive: the folder becomes a workspace folder over the desk-drive:
 * file system, so the Explorer lists it (lazily, each folder when opened) and its create, rename, move, copy, delete,
 * open and save go through the Drive API like the tree's. A folder the path form cannot reach (Shared with me) is named
 * by its id. The folder's URI names its account (`desk-drive://alice@example.com/My Drive/Projects`), and the account
 * is recorded for its path too (folderAccounts.ts): opened while another account is signed in, the Explorer shows
 * Desk's refusal, never the other account's folder of the same name.
 */
import type * as vscode from 'vscode';
import { isFolder } from '../../../shared/schemas/drive';
import { DRIVE_SCHEME, MY_DRIVE_SEGMENT, sanitizeTitle, SHARED_DRIVES_SEGMENT } from '../fs/drivePath';
import { DriveNode, folderTitles } from '../tree/model';
import { recordFolderAccount } from './folderAccounts';

export interface DriveWorkspaceFolder {
  readonly uri: vscode.Uri;
  readonly name: string;
}

/** The workspace folder a row of `account`'s Drive stands for; undefined for rows that are not folders. */
export function workspaceFolderFor(vs: typeof vscode, account: string, node: DriveNode | undefined): DriveWorkspaceFolder | undefined {
  if (node?.kind === 'section' && node.section === 'myDrive' && !node.parent) return { uri: vs.Uri.from({ scheme: DRIVE_SCHEME, authority: account, path: `/${MY_DRIVE_SEGMENT}` }), name: node.label };
  if (node?.kind !== 'file' || !isFolder(node.item)) return undefined;
  const title = node.item.title ?? node.item.id;
  const titles = folderTitles(node);
  const reachable = titles[0] === MY_DRIVE_SEGMENT || titles[0] === SHARED_DRIVES_SEGMENT;
  const path = reachable ? `/${[...titles, title].map(sanitizeTitle).join('/')}` : `/${node.item.id}`;
  return { uri: vs.Uri.from({ scheme: DRIVE_SCHEME, authority: account, path }), name: title };
}

/** Adds the row's folder after the workspace's folders (or shows it in the Explorer if it is one already). */
export async function addToWorkspace(vs: typeof vscode, account: string, state: vscode.Memento, node: DriveNode | undefined): Promise<boolean> {
  const folder = workspaceFolderFor(vs, account, node);
  if (!folder) {
    void vs.window.showInformationMessage(vs.l10n.t('Desk: choose My Drive, a folder or a shared drive in the Drive view to add it to the workspace.'));
    return false;
  }
  const existing = vs.workspace.workspaceFolders ?? [];
  if (existing.some((candidate) => candidate.uri.toString() === folder.uri.toString())) {
    await vs.commands.executeCommand('revealInExplorer', folder.uri);
    return true;
  }
  await recordFolderAccount(state, folder.uri.path, account);
  return vs.workspace.updateWorkspaceFolders(existing.length, 0, folder);
}
