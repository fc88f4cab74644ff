/** The Agenda row of a due task: its title with a checkbox, its list (and overdue or completed), a click that shows it in the Tasks view. */
import type * as vscode from 'vscode';
import { CALENDAR_COMMAND } from '../../../config/commandIds';
import { contextValueFor, DueTaskNode } from '../tree/model';
import { dueTaskDescription, isCompleted } from './dueTasks';

export function dueTaskTreeItem(vs: typeof vscode, node: DueTaskNode, todayKey: string): vscode.TreeItem {
  const { dueTask } = node;
  const title = dueTask.task.title || vs.l10n.t('(untitled task)');
  const item = new vs.TreeItem(title, vs.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.contextValue = contextValueFor(node);
  item.checkboxState = isCompleted(dueTask)
    ? { state: vs.TreeItemCheckboxState.Checked, tooltip: vs.l10n.t('Reopen this task') }
    : { state: vs.TreeItemCheckboxState.Unchecked, tooltip: vs.l10n.t('Complete this task') };
  item.description = dueTaskDescription(dueTask, todayKey, vs.l10n.t);
  item.iconPath = new vs.ThemeIcon('tasklist');
  item.tooltip = dueTask.task.notes ? new vs.MarkdownString().appendText(dueTask.task.notes) : undefined;
  item.accessibilityInformation = { label: vs.l10n.t('Task {0}, {1}', title, item.description) };
  item.command = { command: CALENDAR_COMMAND.showTaskInTasks, title: vs.l10n.t('Show in Tasks View'), arguments: [node] };
  return item;
}
