import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { TasksApi } from '../port';
import { Disposable } from '../../../core/disposable';
import { NotSignedInError } from '../../../core/session';
import type { Task, TaskList, TasksPage } from '../../../shared/schemas/tasks';
import { buildTaskTree, TaskTreeEntry } from './model';
import { MessageNode, TaskListNode, TaskNode, TasksNode } from './nodes';
import { listTooltip, taskDescription, taskLabel, taskTooltip } from './presentation';
import { sourceOf } from '../todo/todoParser';
import { messageTreeItem } from '../../../core/treeMessage';
import { TASKS_COMMAND } from '../../../config/commandIds';


export interface TasksTreeOptions {
  readonly api: TasksApi;
  readonly showCompleted: () => boolean;
  readonly pageSize: () => number;
  /** Shows progress on the view while `work` runs. */
  readonly withProgress: <T>(work: () => Promise<T>) => Promise<T>;
  readonly isSignedIn: () => Promise<boolean>;
  readonly log: (message: string) => void;
  readonly today?: () => Date;
}

/** What is loaded of one list: the first page is awaited, the rest arrives in the background. */
interface ListState {
  readonly tasks: Task[];
  complete: boolean;
  error: unknown;
  firstPage: Promise<void>;
  readonly rest: Promise<void>;
}

/** Every page of a list's tasks, lazily: the first one renders before the others are fetched. */
export async function* taskPages(api: TasksApi, listId: string, options: { showCompleted: boolean; maxResults: number }): AsyncGenerator<TasksPage> {
  let pageToken: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await api.listTasks(listId, { showCompleted: options.showCompleted, showHidden: false, maxResults: options.maxResults, pageToken });
    yield page;
    pageToken = page.nextPageToken || undefined;
    if (pageToken && seen.has(pageToken)) return; // a server repeating a token would loop forever
    if (pageToken) seen.add(pageToken);
  } while (pageToken);
}

/**
 * Task lists → tasks → subtasks. Nothing loads until the view asks (no network during activation); a list
 * loads when first expanded, shows its first page at once and fills in the rest; refreshes touch only the
 * list that changed.
 */
export class TasksTreeProvider extends Disposable implements vscode.TreeDataProvider<TasksNode> {
  private readonly changeEmitter: vscode.EventEmitter<TasksNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<TasksNode | undefined>;

  private lists: Promise<TaskList[]> | undefined;
  private readonly listStates = new Map<string, ListState>();
  private readonly listNodes = new Map<string, TaskListNode>();
  /** Children of task rows, from the last build of their list. */
  private readonly childNodes = new Map<string, TaskNode[]>();
  private readonly taskNodes = new Map<string, TaskNode>();
  /** Lists whose children VS Code is waiting for, and lists to redraw once it has them. */
  private readonly fetching = new Map<string, number>();
  private readonly redrawWanted = new Set<string>();

  constructor(private readonly vs: typeof vscode, private readonly options: TasksTreeOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<TasksNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
  }

  private get today(): Date {
    return this.options.today?.() ?? new Date();
  }

  // ---- refresh

  /** Everything again (sign-in, backend change, "Refresh"). */
  refreshAll(): void {
    this.lists = undefined;
    this.listStates.clear();
    this.childNodes.clear();
    this.taskNodes.clear();
    this.changeEmitter.fire(undefined);
  }

  /** Only the rows of one list (after a change to it); the list row itself keeps its place and expansion. */
  refreshList(listId: string): void {
    this.listStates.delete(listId);
    const node = this.listNodes.get(listId);
    this.changeEmitter.fire(node);
  }

  /** The list set changed (created, renamed, deleted): reload the lists but keep loaded tasks. */
  refreshLists(): void {
    this.lists = undefined;
    this.changeEmitter.fire(undefined);
  }

  // ---- data for commands

  async taskLists(): Promise<TaskList[]> {
    this.lists ??= this.loadLists();
    return this.lists;
  }

  listNode(listId: string): TaskListNode | undefined {
    return this.listNodes.get(listId);
  }

  /** Every task of a list, all pages, as a tree (for pickers). */
  async allTasks(listId: string): Promise<TaskTreeEntry[]> {
    const state = this.stateOf(listId);
    await state.firstPage;
    await state.rest;
    if (state.error) throw state.error;
    return buildTaskTree(state.tasks, { complete: true });
  }

  /** The row of a task, once its list is loaded (to reveal it after a change). */
  async findTaskNode(listId: string, taskId: string): Promise<TaskNode | undefined> {
    const listNode = this.listNodes.get(listId);
    if (!listNode) return undefined;
    await this.getChildren(listNode);
    return this.taskNodes.get(`task/${listId}/${taskId}`);
  }

  // ---- TreeDataProvider

  async getChildren(element?: TasksNode): Promise<TasksNode[]> {
    if (!element) return this.rootChildren();
    if (element.kind === 'list') return this.listChildren(element);
    if (element.kind === 'task') return this.childNodes.get(element.id) ?? [];
    return [];
  }

  getParent(element: TasksNode): TasksNode | undefined {
    return element.parent;
  }

  getTreeItem(element: TasksNode): vscode.TreeItem {
    const vs = this.vs;
    if (element.kind === 'list') {
      const item = new vs.TreeItem(element.list.title || vs.l10n.t('(untitled list)'), vs.TreeItemCollapsibleState.Collapsed);
      item.id = element.id;
      item.contextValue = 'tasklist';
      item.iconPath = new vs.ThemeIcon('checklist');
      const state = this.listStates.get(element.listId);
      if (state?.complete && !state.error) item.description = vs.l10n.t('{0} open', openCount(state.tasks));
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
      item.tooltip = new this.vs.MarkdownString(taskTooltip(element.task, element.list.list.title, this.today, this.vs.l10n.t));
    } else if (element.kind === 'list') {
      const state = this.listStates.get(element.listId);
      const open = state?.complete ? openCount(state.tasks) : undefined;
      item.tooltip = new this.vs.MarkdownString(listTooltip(element.list, open, this.vs.l10n.t));
    }
    return item;
  }

  // ---- loading

  private async rootChildren(): Promise<TasksNode[]> {
    if (!(await this.options.isSignedIn())) return []; // the welcome view shows "sign in" buttons
    try {
      const lists = await this.taskLists();
      return lists.map((list) => {
        const node = new TaskListNode(list);
        this.listNodes.set(list.id, node);
        return node;
      });
    } catch (error) {
      this.lists = undefined;
      if (error instanceof NotSignedInError) return [];
      this.options.log(`Could not load the task lists: ${describe(error)}`);
      return [new MessageNode(undefined, 'error', this.vs.l10n.t('Could not load the task lists: {0}', errorMessage(error, this.vs.l10n.t)), 'error')];
    }
  }

  private loadLists(): Promise<TaskList[]> {
    return this.options.withProgress(async () => {
      const lists: TaskList[] = [];
      for await (const list of this.options.api.allTaskLists()) lists.push(list);
      return lists;
    });
  }

  private stateOf(listId: string): ListState {
    let state = this.listStates.get(listId);
    if (!state) {
      state = this.startLoading(listId);
      this.listStates.set(listId, state);
    }
    return state;
  }

  private startLoading(listId: string): ListState {
    const pages = taskPages(this.options.api, listId, { showCompleted: this.options.showCompleted(), maxResults: this.options.pageSize() });
    const tasks: Task[] = [];
    let resolveRest: () => void = () => undefined;
    const state: ListState = {
      tasks,
      complete: false,
      error: undefined,
      firstPage: Promise.resolve(),
      rest: new Promise<void>((resolve) => {
        resolveRest = resolve;
      }),
    };
    const isCurrent = (): boolean => this.listStates.get(listId) === state;
    const fail = (error: unknown): void => {
      state.error = error;
      state.complete = true;
      this.options.log(`Could not load the tasks of list ${listId}: ${describe(error)}`);
    };
    const firstPage = this.options.withProgress(async () => {
      try {
        const first = await pages.next();
        if (!first.done) tasks.push(...(first.value.items ?? []));
        if (first.done || !first.value.nextPageToken) state.complete = true;
      } catch (error) {
        fail(error);
      }
    });
    state.firstPage = firstPage;
    void firstPage.then(async () => {
      if (state.complete) {
        resolveRest();
        // The list row's "N open" needs the loaded tasks.
        if (isCurrent() && !state.error) this.redrawList(listId);
        return;
      }
      try {
        // The remaining pages load behind the first; the rows update once all are in.
        for await (const page of pages) {
          if (!isCurrent()) return;
          tasks.push(...(page.items ?? []));
        }
        state.complete = true;
      } catch (error) {
        fail(error);
      } finally {
        resolveRest();
        if (isCurrent()) this.redrawList(listId);
      }
    });
    return state;
  }

  /**
   * Redraws a list row (its "N open", its rows after the last page). Never while VS Code still waits for that
   * list's children: a refresh overlapping a fetch makes VS Code register the same row ids twice.
   */
  private redrawList(listId: string): void {
    const node = this.listNodes.get(listId);
    if (!node) return;
    if (this.fetching.get(listId)) this.redrawWanted.add(listId);
    else this.changeEmitter.fire(node);
  }

  private async listChildren(listNode: TaskListNode): Promise<TasksNode[]> {
    const listId = listNode.listId;
    this.fetching.set(listId, (this.fetching.get(listId) ?? 0) + 1);
    try {
      return await this.buildListChildren(listNode);
    } finally {
      const left = (this.fetching.get(listId) ?? 1) - 1;
      if (left > 0) this.fetching.set(listId, left);
      else this.fetching.delete(listId);
      // After VS Code has taken these rows (its handling runs right after this promise settles).
      if (left === 0 && this.redrawWanted.delete(listId)) setTimeout(() => this.redrawList(listId), 0);
    }
  }

  private async buildListChildren(listNode: TaskListNode): Promise<TasksNode[]> {
    const state = this.stateOf(listNode.listId);
    await state.firstPage;
    if (state.error && state.tasks.length === 0) {
      if (state.error instanceof NotSignedInError) return [];
      // Forget the failed load so the retry row (or the next expansion) tries again.
      if (this.listStates.get(listNode.listId) === state) this.listStates.delete(listNode.listId);
      return [new MessageNode(listNode, 'error', this.vs.l10n.t('Could not load the tasks: {0}', errorMessage(state.error, this.vs.l10n.t)), 'error')];
    }
    const entries = buildTaskTree(state.tasks, { complete: state.complete });
    const rows: TasksNode[] = this.toNodes(listNode, listNode, entries);
    if (state.error) {
      if (this.listStates.get(listNode.listId) === state) this.listStates.delete(listNode.listId);
      rows.push(new MessageNode(listNode, 'error', this.vs.l10n.t('Some tasks could not be loaded: {0}', errorMessage(state.error, this.vs.l10n.t)), 'error'));
    } else if (!state.complete) rows.push(new MessageNode(listNode, 'loading', this.vs.l10n.t('Loading more tasks…')));
    else if (rows.length === 0) rows.push(new MessageNode(listNode, 'empty', this.options.showCompleted() ? this.vs.l10n.t('No tasks') : this.vs.l10n.t('No open tasks')));
    return rows;
  }

  private toNodes(listNode: TaskListNode, parent: TaskListNode | TaskNode, entries: readonly TaskTreeEntry[]): TaskNode[] {
    return entries.map((entry) => {
      const node = new TaskNode(listNode.listId, entry.task, parent, entry.children.length > 0);
      this.taskNodes.set(node.id, node);
      this.childNodes.set(node.id, this.toNodes(listNode, node, entry.children));
      return node;
    });
  }
}

function openCount(tasks: readonly Task[]): number {
  return tasks.filter((task) => task.status !== 'completed' && !task.hidden && !task.deleted).length;
}

function describe(error: unknown): string {
  return errorMessage(error);
}
