/** What every Tasks command part shares: the desk, the Tasks port, the tree and view, the prompts and unsaved drafts. */
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import type { TasksNode } from '../tree/nodes';
import type { TasksApi } from '../port';
import type { TasksTreeProvider } from '../tree/treeProvider';
import type { TaskPrompts } from './prompts';

/** What the user typed in an edit that failed: offered again next time, so nothing typed is lost. */
export interface TaskDraft {
  title: string;
  notes: string;
  due: string;
}

export interface TaskCommandContext {
  readonly desk: DeskContext;
  readonly api: TasksApi;
  readonly tree: TasksTreeProvider;
  readonly view: vscode.TreeView<TasksNode>;
  readonly prompts: TaskPrompts;
  readonly drafts: Map<string, TaskDraft>;
}
