import type * as vscode from 'vscode';

/**
 * Asks before something that cannot be undone: a modal warning whose only action is `action` (VS Code adds
 * Cancel). True when the user chose the action; false on Cancel, Escape or closing the dialog.
 */
export async function confirmModal(vs: typeof vscode, message: string, detail: string, action: string): Promise<boolean> {
  return (await vs.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
}
