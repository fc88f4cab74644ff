/** The message row every Desk tree shows (nothing here, could not load): an info icon, or an error that retries on click. */
import type * as vscode from 'vscode';

export interface TreeMessage {
  readonly label: string;
  readonly error: boolean;
  /** The feature's refresh command, run with `retryArguments` when an error row is clicked. */
  readonly retryCommand: string;
  readonly retryArguments: readonly unknown[];
}

/** The row's TreeItem; the caller sets its id and contextValue. */
export function messageTreeItem(vs: typeof vscode, message: TreeMessage): vscode.TreeItem {
  const item = new vs.TreeItem(message.label, vs.TreeItemCollapsibleState.None);
  item.iconPath = new vs.ThemeIcon(message.error ? 'error' : 'info');
  if (message.error) {
    item.command = { command: message.retryCommand, title: vs.l10n.t('Retry'), arguments: [...message.retryArguments] };
    item.tooltip = vs.l10n.t('{0} Click to try again.', message.label);
  }
  return item;
}
