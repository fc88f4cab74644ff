/** What every Tasks command part shares: the desk, the Tasks port, the tree and view, the prompts and unsaved drafts. */
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import type { Drafts } from '../../../core/ui/drafts';
import type { TasksNode } from '../tree/nodes';
import type { TasksApi } from '../port';
import type { TasksTreeProvider } from '../tree/treeProvider';
import type { TaskPrompts } from './prompts';
import type { TasksOfflineWrites } from '../offline';

export interface TaskCommandContext {
  readonly desk: DeskContext;
  readonly api: TasksApi;
  readonly tree: TasksTreeProvider;
  readonly view: vscode.TreeView<TasksNode>;
  readonly prompts: TaskPrompts;
  /** What the user typed in Add / Edit Task and did not save (Escape, a failed save): offered again next time. */
  readonly drafts: Drafts;
  /** Writes that cannot reach the service are kept and replayed (see ../offline.ts). */
  readonly offline: TasksOfflineWrites;
}
