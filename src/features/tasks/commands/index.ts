/**
 * The Tasks commands as one id → handler table. Each asks what it needs (a quick pick when run from the palette
 * without a row), calls the API, and refreshes only the list it changed. Every Tasks operation is reachable:
 * lists (list via the tree, get, insert, update, patch, delete) and tasks (list via the tree, get, insert,
 * update, patch, delete, clear, move).
 */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import type { DeskContext } from '../../../core/deskContext';
import { TASKS_SETTING } from '../../../config/settingKeys';
import type { Task } from '../../../shared/schemas/tasks';
import type { MoveRequest } from '../tree/dropPlan';
import { TaskListNode, TaskNode, TasksNode } from '../tree/nodes';
import type { TasksApi } from '../port';
import type { TasksTreeProvider } from '../tree/treeProvider';
import { revealTask } from '../reveal';
import { Drafts } from '../../../core/ui/drafts';
import { TaskListCommands } from './lists';
import { TaskPrompts } from './prompts';
import { TASK_DETAILS_SCHEME, TaskItemCommands } from './tasks';
import { registerAccountDocuments } from '../../../core/accounts/accountDocuments';
import { TASKS_COMMAND } from '../../../config/commandIds';
import type { TasksOfflineWrites } from '../offline';

export { TASK_DETAILS_SCHEME } from './tasks';
export const SHOW_COMPLETED_CONTEXT_KEY = 'desk:tasks.showCompleted';

export class TaskCommands {
  readonly lists: TaskListCommands;
  readonly tasks: TaskItemCommands;

  constructor(private readonly desk: DeskContext, api: TasksApi, private readonly tree: TasksTreeProvider, private readonly view: vscode.TreeView<TasksNode>, offline: TasksOfflineWrites) {
    const context = { desk, api, tree, view, prompts: new TaskPrompts(desk.vs, tree, () => desk.clock.today()), drafts: new Drafts(), offline };
    this.lists = new TaskListCommands(context);
    this.tasks = new TaskItemCommands(context);
    this.refresh = (node) => {
      if (node?.kind === 'list' || node?.kind === 'task') tree.refreshList(node.listId);
      else if (node?.kind === 'message' && node.parent) tree.refreshList(node.parent.listId);
      else tree.refreshAll();
    };
  }

  readonly refresh: (node?: TasksNode) => void;

  /** The commands, and the read-only task details documents they open. */
  register(): vscode.Disposable[] {
    const { lists, tasks } = this;
    const details = registerAccountDocuments(this.desk.vs, this.desk.session, TASK_DETAILS_SCHEME, { provideTextDocumentContent: (uri) => tasks.detailsDocument(uri) });
    // Tree commands get the clicked row; palette commands get nothing (or something that is not a row).
    const row = (run: (node?: TasksNode) => unknown) => (node?: unknown) => run(isTasksNode(node) ? node : undefined);
    return [details, ...registerCommands(this.desk, {
      [TASKS_COMMAND.refresh]: row((node) => { this.refresh(node); }),
      [TASKS_COMMAND.createList]: () => lists.createList(),
      [TASKS_COMMAND.renameList]: row((node) => lists.renameList(node)),
      [TASKS_COMMAND.deleteList]: row((node) => lists.deleteList(node)),
      [TASKS_COMMAND.clearCompleted]: row((node) => lists.clearCompleted(node)),
      [TASKS_COMMAND.addTask]: row((node) => tasks.addTask(node)),
      [TASKS_COMMAND.addSubtask]: row((node) => tasks.addSubtask(node)),
      [TASKS_COMMAND.editTask]: row((node) => tasks.editTask(node)),
      [TASKS_COMMAND.editNotes]: row((node) => tasks.editNotes(node)),
      [TASKS_COMMAND.completeTask]: row((node) => tasks.setCompleted(node, true)),
      [TASKS_COMMAND.reopenTask]: row((node) => tasks.setCompleted(node, false)),
      [TASKS_COMMAND.deleteTask]: row((node) => tasks.deleteTask(node)),
      [TASKS_COMMAND.moveTask]: row((node) => tasks.moveTask(node)),
      [TASKS_COMMAND.getTask]: row((node) => tasks.openDetails(node)),
      [TASKS_COMMAND.showCompleted]: () => this.setShowCompleted(true),
      [TASKS_COMMAND.hideCompleted]: () => this.setShowCompleted(false),
      [TASKS_COMMAND.revealTask]: (listId: unknown, taskId: unknown, options?: { open?: boolean }) => this.revealTask(listId, taskId, options),
        }, {
      // From the palette with several accounts signed in, these pick a list or task of one account: the active task
      // document's, else the one asked for (the selection is not what they act on: they ask which list or task).
      askAccount: [TASKS_COMMAND.createList, TASKS_COMMAND.addTask, TASKS_COMMAND.renameList, TASKS_COMMAND.deleteList, TASKS_COMMAND.clearCompleted, TASKS_COMMAND.addSubtask,
        TASKS_COMMAND.editTask, TASKS_COMMAND.editNotes, TASKS_COMMAND.completeTask, TASKS_COMMAND.reopenTask, TASKS_COMMAND.deleteTask, TASKS_COMMAND.moveTask, TASKS_COMMAND.getTask],
    })];
  }

  /** `desk.tasks.revealTask(listId, taskId, { open })`: the task's row in the view, and its details when asked. */
  async revealTask(listId: unknown, taskId: unknown, options: { open?: boolean } = {}): Promise<boolean> {
    if (typeof listId !== 'string' || typeof taskId !== 'string') return false;
    const node = await revealTask({ vs: this.desk.vs, tree: this.tree, view: this.view }, listId, taskId);
    if (node && options.open) await this.tasks.openDetails(node);
    return node !== undefined;
  }

  /** The tree's checkbox. */
  patchStatus(listId: string, task: Task, completed: boolean): Promise<Task | undefined> {
    return this.tasks.patchStatus(listId, task, completed);
  }

  /** Drag and drop. */
  move(requests: readonly MoveRequest[], lists: readonly string[]): Promise<void> {
    return this.tasks.move(requests, lists);
  }

  async setShowCompleted(show: boolean): Promise<void> {
    await this.desk.vs.workspace.getConfiguration().update(TASKS_SETTING.showCompleted, show, this.desk.vs.ConfigurationTarget.Global);
  }
}

function isTasksNode(value: unknown): value is TasksNode {
  return value instanceof TaskListNode || value instanceof TaskNode || (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'message');
}
