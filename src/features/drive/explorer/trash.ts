/**
 * The Explorer's "Move to Drive's Trash…" on Drive files and folders: a confirmation that says where they go (VS Code's
 * own Delete asks to delete "permanently", having no trash for an extension's file system), then the desk-drive: file
 * system's delete, which trashes on Drive, tells the Explorer, and offers Restore.
 */
import type * as vscode from 'vscode';
import { DRIVE_SCHEME, segmentsOf } from '../fs/drivePath';

/** Explorer context-menu commands get the clicked resource and the whole selection. */
export async function trashInExplorer(vs: typeof vscode, clicked?: vscode.Uri, selected?: readonly vscode.Uri[]): Promise<boolean> {
  const t = vs.l10n.t;
  const chosen = selected && selected.length > 0 ? selected : clicked ? [clicked] : [];
  const uris = chosen.filter((uri) => uri.scheme === DRIVE_SCHEME);
  if (uris.length === 0) {
    void vs.window.showInformationMessage(t('Desk: choose files or folders of a Drive folder in the Explorer to move them to Drive\'s trash.'));
    return false;
  }
  const name = (uri: vscode.Uri): string => segmentsOf(uri.path).at(-1) ?? uri.path;
  const move = t('Move to Trash');
  const question = uris.length === 1 ? t('Move “{0}” to Drive\'s trash?', name(uris[0])) : t('Move {0} items to Drive\'s trash?', uris.length);
  const detail = uris.length === 1 ? t('You can restore it from Drive\'s trash (Drive view) within 30 days.') : t('You can restore them from Drive\'s trash (Drive view) within 30 days.');
  const choice = await vs.window.showWarningMessage(question, { modal: true, detail }, move);
  if (choice !== move) return false;
  for (const uri of uris) await vs.workspace.fs.delete(uri, { recursive: true, useTrash: false });
  return true;
}
