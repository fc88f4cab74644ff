/**
 * Renders the Tasks tree model (model.ts): list rows with their "N open", task rows with a checkbox and due date,
 * message rows with a retry. Hovers are built in resolveTreeItem, only when shown. It also keeps VS Code from being
 * asked to redraw a list while it still waits for that list's rows.
 */
import type * as vscode from 'vscode';
import { TASKS_COMMAND } from '../../../config/commandIds';
import { Disposable } from '../../../core/disposable';
import { messageTreeItem } from '../../../core/ui/treeMessage';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import type { TasksApi } from '../port';
import { sourceOf } from '../todo/todoParser';
import type { ViewSnapshotStore } from '../../../core/storage/viewCache';
import { TasksTreeModel, TaskTreeEntry } from './model';
import type { TasksSnapshot } from './snapshot';
import { TaskListNode, TaskNode, TasksNode } from './nodes';
import { listTooltip, taskDescription, taskLabel, taskTooltip } from './presentation';

export interface TasksTreeOptions {
  readonly api: TasksApi;
  readonly showCompleted: () => boolean;
  readonly pageSize: () => number;
  /** Shows progress on the view while `work` runs. */
  readonly withProgress: <T>(work: () => Promise<T>) => Promise<T>;
  readonly isSignedIn: () => Promise<boolean>;
  readonly log: (message: string) => void;
  readonly today?: () => Date;
  /** How a day reads in hovers ("Fri 27 Nov"): the DeskClock's `day`. */
  readonly day?: (ms: number) => string;
  /** The data was refreshed (a change here or a reload): other views showing tasks read them again. */
  readonly onRefresh?: () => void;
  /** What the view showed last (core/storage/viewCache.ts), shown at the first start until the lists come. */
  readonly cache?: ViewSnapshotStore<TasksSnapshot>;
  /** The lists the user left open (kept across windows and workspaces; VS Code keeps a tree's state per workspace). */
  readonly expandedLists?: { has(listId: string): boolean };
}

/**
 * Task lists → tasks → subtasks, over the vscode-free model: nothing loads until the view asks (no network during
 * activation), and refreshes touch only the list that changed.
 */
export class TasksTreeProvider extends Disposable implements vscode.TreeDataProvider<TasksNode> {
  private readonly changeEmitter: vscode.EventEmitter<TasksNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<TasksNode | undefined>;
  readonly model: TasksTreeModel;

  /** Lists whose children VS Code is waiting for, and lists to redraw once it has them. */
  private readonly fetching = new Map<string, number>();
  private readonly redrawWanted = new Set<string>();

  constructor(private readonly vs: typeof vscode, private readonly options: TasksTreeOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<TasksNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.model = new TasksTreeModel({
      api: options.api,
      showCompleted: options.showCompleted,
      pageSize: options.pageSize,
      withProgress: options.withProgress,
      log: options.log,
      onListLoaded: (listId) => { this.redrawList(listId); },
      cache: options.cache,
      onRefreshed: () => { this.changeEmitter.fire(undefined); },
      t: vs.l10n.t,
    });
  }

  private get today(): Date {
    return this.options.today?.() ?? new Date();
  }

  // ---- refresh

  /** Everything again (sign-in, backend change, "Refresh"); what was shown stays for offline unless `accountChanged`. */
  refreshAll(options: { accountChanged?: boolean } = {}): void {
    this.model.reset(options);
    this.changeEmitter.fire(undefined);
    this.options.onRefresh?.();
  }

  /** Only the rows of one list (after a change to it); the list row itself keeps its place and expansion. */
  refreshList(listId: string): void {
    this.model.invalidateList(listId);
    this.changeEmitter.fire(this.model.listNode(listId));
    this.options.onRefresh?.();
  }

  /**
   * A task Desk itself changed, from the write's answer: its row updates in place when its list is loaded (one round
   * trip for the change, none to reload), else the list reloads.
   */
  updateTask(listId: string, task: Task): void {
    if (!this.model.applyTask(listId, task)) {
      this.refreshList(listId);
      return;
    }
    this.redrawList(listId);
    this.options.onRefresh?.();
  }

  /** A change made offline, shown at once without a request (the write queue sends it later). */
  applyLocalTask(listId: string, task: Task): void {
    if (this.model.applyLocalTask(listId, task)) this.redrawList(listId);
  }

  /** A task added offline, shown at once at its place. */
  addLocalTask(listId: string, task: Task, previous?: string): void {
    if (this.model.addLocalTask(listId, task, previous)) this.redrawList(listId);
  }

  /** A task deleted offline leaves its list at once (with its subtasks). */
  removeLocalTask(listId: string, taskId: string): void {
    if (this.model.removeLocalTask(listId, taskId)) this.redrawList(listId);
  }

  /** A task moved offline shows at its new place at once. */
  moveLocalTask(listId: string, taskId: string, place: { parent?: string; previous?: string; toListId: string }): void {
    if (!this.model.moveLocalTask(listId, taskId, place)) return;
    this.redrawList(listId);
    if (place.toListId !== listId) this.redrawList(place.toListId);
  }

  /** A task added offline has its service id now (its add was replayed). */
  replaceLocalTask(listId: string, localId: string, task: Task): void {
    this.model.replaceLocalTask(listId, localId, task);
    this.redrawList(listId);
  }

  /** The list set changed (created, renamed, deleted): reload the lists but keep loaded tasks. */
  refreshLists(): void {
    this.model.invalidateLists();
    this.changeEmitter.fire(undefined);
    this.options.onRefresh?.();
  }

  // ---- data for commands

  taskLists(): Promise<TaskList[]> {
    return this.model.taskLists();
  }

  listNode(listId: string): TaskListNode | undefined {
    return this.model.listNode(listId);
  }

  /** Every task of a list, all pages, as a tree (for pickers). */
  allTasks(listId: string): Promise<TaskTreeEntry[]> {
    return this.model.allTasks(listId);
  }

  /** The title of a task shown now (what a change waiting to be sent names). */
  shownTitle(listId: string, taskId: string): string | undefined {
    return this.model.taskNode(listId, taskId)?.task.title;
  }

  /** The row of a task, once its list is loaded (to reveal it after a change). */
  async findTaskNode(listId: string, taskId: string): Promise<TaskNode | undefined> {
    const listNode = this.model.listNode(listId);
    if (!listNode) return undefined;
    await this.getChildren(listNode);
    return this.model.taskNode(listId, taskId);
  }

  // ---- TreeDataProvider

  async getChildren(element?: TasksNode): Promise<TasksNode[]> {
    // Signed out: the welcome view's sign-in buttons. The cached rows show without waiting for that check.
    if (!element) return (await this.model.startsFromCache()) || (await this.options.isSignedIn()) ? this.model.roots() : [];
    if (element.kind === 'list') return this.listChildren(element);
    if (element.kind === 'task') return this.model.taskChildren(element);
    return [];
  }

  getParent(element: TasksNode): TasksNode | undefined {
    return element.parent;
  }

  getTreeItem(element: TasksNode): vscode.TreeItem {
    const vs = this.vs;
    if (element.kind === 'list') {
      const expanded = this.options.expandedLists?.has(element.listId) ?? false;
      const item = new vs.TreeItem(element.list.title || vs.l10n.t('(untitled list)'), expanded ? vs.TreeItemCollapsibleState.Expanded : vs.TreeItemCollapsibleState.Collapsed);
      item.id = element.id;
      item.contextValue = 'tasklist';
      item.iconPath = new vs.ThemeIcon('checklist');
      const open = this.model.openCount(element.listId);
      if (this.model.refreshing) item.description = vs.l10n.t('refreshing…');
      else if (open !== undefined && !this.model.loadFailed(element.listId)) item.description = vs.l10n.t('{0} open', open);
      return item;
    }
    if (element.kind === 'task') {
      const { task } = element;
      const item = new vs.TreeItem(taskLabel(task, vs.l10n.t), element.hasChildren ? vs.TreeItemCollapsibleState.Expanded : vs.TreeItemCollapsibleState.None);
      item.id = element.id;
      // "from-todo": created from a TODO comment (its notes say `Source: …`), so "Go to TODO Comment" is offered.
      item.contextValue = `${task.status === 'completed' ? 'task-completed' : 'task-open'}${sourceOf(task.notes) ? ' from-todo' : ''}`;
      const completed = task.status === 'completed';
      item.checkboxState = {
        state: completed ? vs.TreeItemCheckboxState.Checked : vs.TreeItemCheckboxState.Unchecked,
        tooltip: completed ? vs.l10n.t('Reopen this task') : vs.l10n.t('Complete this task'),
      };
      const description = taskDescription(task, this.today, vs.l10n.t, vs.env.language);
      if (description) item.description = description;
      item.accessibilityInformation = { label: `${taskLabel(task, vs.l10n.t)}, ${completed ? vs.l10n.t('completed') : vs.l10n.t('open')}${description ? `, ${vs.l10n.t('due {0}', description)}` : ''}` };
      return item;
    }
    const item = messageTreeItem(vs, { label: element.label, error: element.severity === 'error', retryCommand: TASKS_COMMAND.refresh, retryArguments: [element.parent] });
    item.id = element.id;
    item.contextValue = element.severity === 'error' ? 'message-error' : 'message';
    return item;
  }

  /** Hovers are built only when shown: notes can be long and most rows are never hovered. */
  resolveTreeItem(item: vscode.TreeItem, element: TasksNode): vscode.TreeItem {
    if (element.kind === 'task') {
      item.tooltip = new this.vs.MarkdownString(taskTooltip(element.task, element.list.list.title, this.today, this.vs.l10n.t, this.options.day, this.vs.env.language));
    } else if (element.kind === 'list') {
      const open = this.model.openCount(element.listId);
      item.tooltip = new this.vs.MarkdownString(listTooltip(element.list, open, this.vs.l10n.t, this.options.day));
    }
    return item;
  }

  // ---- redraws

  /**
   * Redraws a list row (its "N open", its rows after the last page). Never while VS Code still waits for that
   * list's children: a refresh overlapping a fetch makes VS Code register the same row ids twice.
   */
  private redrawList(listId: string): void {
    const node = this.model.listNode(listId);
    if (!node) return;
    if (this.fetching.get(listId)) this.redrawWanted.add(listId);
    else this.changeEmitter.fire(node);
  }

  private async listChildren(listNode: TaskListNode): Promise<TasksNode[]> {
    const listId = listNode.listId;
    this.fetching.set(listId, (this.fetching.get(listId) ?? 0) + 1);
    try {
      return await this.model.listChildren(listNode);
    } finally {
      const left = (this.fetching.get(listId) ?? 1) - 1;
      if (left > 0) this.fetching.set(listId, left);
      else this.fetching.delete(listId);
      // After VS Code has taken these rows (its handling runs right after this promise settles).
      if (left === 0 && this.redrawWanted.delete(listId)) setTimeout(() => { this.redrawList(listId); }, 0);
    }
  }
}
