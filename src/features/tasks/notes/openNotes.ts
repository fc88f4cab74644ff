/** Opens a task's notes as a writable markdown document of the desk-tasks: file system. */
import type * as vscode from 'vscode';
import type { Task } from '../../../shared/schemas/tasks';
import { NOTES_SCHEME, notesUriParts } from './notesPath';

/** The notes URI of a task of `account`'s lists (the account is its authority). */
export function notesUri(vs: typeof vscode, account: string, listId: string, listTitle: string, task: Pick<Task, 'id' | 'title'>): vscode.Uri {
  return vs.Uri.from({ scheme: NOTES_SCHEME, ...notesUriParts(account, listId, listTitle, task, vs.l10n.t) });
}

/** The notes in an editor (not a preview tab: they are meant to be edited), as markdown whatever VS Code guessed. */
export async function openNotes(vs: typeof vscode, account: string, listId: string, listTitle: string, task: Pick<Task, 'id' | 'title'>): Promise<vscode.TextEditor> {
  let document = await vs.workspace.openTextDocument(notesUri(vs, account, listId, listTitle, task));
  if (document.languageId !== 'markdown') document = await vs.languages.setTextDocumentLanguage(document, 'markdown');
  return vs.window.showTextDocument(document, { preview: false });
}
