/**
 * Showing one task in the Tasks view: focus the view, find the task's row (loading the whole list when it is beyond the
 * first page), select it, and optionally open its details. Used by TODO markers, the Desk search and the Calendar's due
 * tasks (TASKS_COMMAND.revealTask).
 */
import type * as vscode from 'vscode';
import { TASKS_VIEW_ID, TaskNode, TasksNode } from './tree/nodes';
import type { TasksTreeProvider } from './tree/treeProvider';

export interface RevealHost {
  readonly vs: typeof vscode;
  readonly tree: TasksTreeProvider;
  readonly view: vscode.TreeView<TasksNode>;
}

/** The task's row, selected and focused in the Tasks view; undefined (with a message) when the view does not show it. */
export async function revealTask(host: RevealHost, listId: string, taskId: string, title?: string): Promise<TaskNode | undefined> {
  const { vs, tree, view } = host;
  await vs.commands.executeCommand(`${TASKS_VIEW_ID}.focus`);
  // A view opened by the focus above (never shown in this window) becomes visible a moment after the command answers;
  // a reveal before that shows the row but selects nothing.
  await whenVisible(view);
  await tree.getChildren(); // the list rows must exist before one of their tasks can be found
  let node = await tree.findTaskNode(listId, taskId);
  if (!node) {
    // Beyond the first page, or hidden by "hide completed": wait for the whole list once.
    await tree.allTasks(listId).catch(() => undefined);
    node = await tree.findTaskNode(listId, taskId);
  }
  if (!node) {
    // Made elsewhere since the list was loaded (the search asks the service, not the tree): load the list again once.
    tree.refreshList(listId);
    await tree.allTasks(listId).catch(() => undefined);
    node = await tree.findTaskNode(listId, taskId);
  }
  if (!node) {
    const name = title ?? vs.l10n.t('The task');
    void vs.window.showInformationMessage(vs.l10n.t('Desk: "{0}" is not shown in the Tasks view (completed tasks may be hidden).', name));
    return undefined;
  }
  await view.reveal(node, { select: true, focus: true, expand: true });
  return node;
}

/** How long a reveal waits for the Tasks view to become visible before trying anyway (it never waits for nothing). */
const VISIBLE_WAIT_MS = 3000;

function whenVisible(view: vscode.TreeView<TasksNode>): Promise<void> {
  if (view.visible) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, VISIBLE_WAIT_MS);
    const listener = view.onDidChangeVisibility((event) => {
      if (event.visible) done();
    });
  });
}
