/**
 * The account each Drive workspace folder was added as, kept in global state: a path-only `desk-drive:` URI (a
 * workspace saved before Desk put the account in the authority, or an address written by hand) under a folder Desk
 * added resolves in that account, and nowhere else.
 */
import type * as vscode from 'vscode';
import { normalizeAccount } from '../../../core/accounts/accounts';
import { segmentsOf } from '../fs/drivePath';

export const FOLDER_ACCOUNTS_KEY = 'desk.drive.workspaceFolderAccounts';

/** Folder path (as `/My Drive/Projects`) → the account that added it. */
type FolderAccounts = Readonly<Record<string, string>>;

function pathKey(path: string): string {
  return `/${segmentsOf(path).join('/')}`;
}

export function recordFolderAccount(state: vscode.Memento, folderPath: string, account: string): Thenable<void> {
  const recorded = state.get<FolderAccounts>(FOLDER_ACCOUNTS_KEY) ?? {};
  return state.update(FOLDER_ACCOUNTS_KEY, { ...recorded, [pathKey(folderPath)]: normalizeAccount(account) });
}

/** The account of the recorded folder that holds this path (the deepest, if folders nest), or undefined. */
export function recordedAccountOf(state: Pick<vscode.Memento, 'get'>, path: string): string | undefined {
  const recorded = state.get<FolderAccounts>(FOLDER_ACCOUNTS_KEY) ?? {};
  const segments = segmentsOf(path);
  for (let length = segments.length; length > 0; length--) {
    const account = recorded[`/${segments.slice(0, length).join('/')}`];
    if (account) return account;
  }
  return undefined;
}
