import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import { DUE_INPUT_HELP, dueDateOf, parseDueInput, toDueTimestamp } from '../../../core/dates';
import { SETTING } from '../../../core/settings';
import type { Task, TaskList, TaskWrite } from '../../../shared/schemas/tasks';
import type { MoveRequest } from '../tree/dropPlan';
import { flattenTree } from '../tree/model';
import { TaskListNode, TaskNode, TasksNode } from '../tree/nodes';
import { taskLabel } from '../tree/presentation';
import type { TasksApi, TasksTreeProvider } from '../tree/treeProvider';
import { confirmModal } from '../../../core/confirm';

export const TASK_DETAILS_SCHEME = 'desk-task';
export const SHOW_COMPLETED_CONTEXT_KEY = 'desk:tasks.showCompleted';

/** A task as the commands address it (a tree row, or what the user picked in the palette). */
interface TaskTarget {
  readonly listId: string;
  readonly listTitle: string;
  readonly task: Task;
}

/** What the user typed in an edit that failed: offered again next time, so nothing typed is lost. */
interface TaskDraft {
  title: string;
  notes: string;
  due: string;
}

/**
 * The palette and tree commands of the Tasks view. Each asks what it needs (a quick pick when run from the
 * palette without a row), calls the API, and refreshes only the list it changed. Every Tasks operation is
 * reachable here: lists (list via the tree, get, insert, update, patch, delete) and tasks (list via the
 * tree, get, insert, update, patch, delete, clear, move).
 */
export class TaskCommands {
  private readonly drafts = new Map<string, TaskDraft>();

  constructor(
    private readonly desk: DeskContext,
    private readonly api: TasksApi,
    private readonly tree: TasksTreeProvider,
    private readonly view: vscode.TreeView<TasksNode>,
  ) {}

  private get vs(): typeof vscode {
    return this.desk.vs;
  }

  private t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  register(): vscode.Disposable[] {
    const vs = this.vs;
    // Each command resolves to what it created or changed (undefined when cancelled or failed): tests and
    // other commands can chain on it.
    const command = (id: string, run: (node?: TasksNode) => Promise<unknown>): vscode.Disposable =>
      vs.commands.registerCommand(id, async (node?: unknown) => {
        try {
          return await run(isTasksNode(node) ? node : undefined);
        } catch (error) {
          void this.desk.showError(error);
          return undefined;
        }
      });
    return [
      command('desk.tasks.refresh', async (node) => this.refresh(node)),
      command('desk.tasks.createList', async () => this.createList()),
      command('desk.tasks.renameList', async (node) => this.renameList(node)),
      command('desk.tasks.editList', async (node) => this.editList(node)),
      command('desk.tasks.deleteList', async (node) => this.deleteList(node)),
      command('desk.tasks.addTask', async (node) => this.addTask(node)),
      command('desk.tasks.addSubtask', async (node) => this.addSubtask(node)),
      command('desk.tasks.editTask', async (node) => this.editTask(node)),
      command('desk.tasks.completeTask', async (node) => this.setCompleted(node, true)),
      command('desk.tasks.reopenTask', async (node) => this.setCompleted(node, false)),
      command('desk.tasks.deleteTask', async (node) => this.deleteTask(node)),
      command('desk.tasks.clearCompleted', async (node) => this.clearCompleted(node)),
      command('desk.tasks.moveTask', async (node) => this.moveTask(node)),
      command('desk.tasks.showCompleted', async () => this.setShowCompleted(true)),
      command('desk.tasks.hideCompleted', async () => this.setShowCompleted(false)),
      command('desk.tasks.getTask', async (node) => this.openDetails(node)),
    ];
  }

  // ---- lists

  refresh(node?: TasksNode): void {
    if (node?.kind === 'list') this.tree.refreshList(node.listId);
    else if (node?.kind === 'task') this.tree.refreshList(node.listId);
    else if (node?.kind === 'message' && node.parent) this.tree.refreshList(node.parent.listId);
    else this.tree.refreshAll();
  }

  async createList(): Promise<TaskList | undefined> {
    const title = await this.askTitle(this.t('New task list'), this.t('Name of the new task list'), '');
    if (title === undefined) return undefined;
    return this.withRetry(this.t('Could not create the task list'), () => this.api.insertTaskList(title), () => this.tree.refreshLists());
  }

  /** Rename = tasks.patch: only the title is sent. */
  async renameList(node?: TasksNode): Promise<TaskList | undefined> {
    const list = await this.resolveList(node, this.t('Rename which task list?'));
    if (!list) return undefined;
    const title = await this.askTitle(this.t('Rename task list'), this.t('New name of "{0}"', list.title), list.title);
    if (title === undefined || title === list.title) return undefined;
    return this.withRetry(this.t('Could not rename the task list'), () => this.api.patchTaskList(list.id, { title }), () => this.tree.refreshLists());
  }

  /** Edit = tasklists.get for the current version, then tasklists.update (full replacement). */
  async editList(node?: TasksNode): Promise<TaskList | undefined> {
    const picked = await this.resolveList(node, this.t('Edit which task list?'));
    if (!picked) return undefined;
    const current = await this.api.getTaskList(picked.id);
    const title = await this.askTitle(this.t('Edit task list'), this.t('Title of the list (last updated {0})', current.updated.slice(0, 10)), current.title);
    if (title === undefined) return undefined;
    return this.withRetry(this.t('Could not save the task list'), () => this.api.updateTaskList(current.id, { title }), () => this.tree.refreshLists());
  }

  async deleteList(node?: TasksNode): Promise<boolean> {
    const list = await this.resolveList(node, this.t('Delete which task list?'));
    if (!list) return false;
    if (!(await confirmModal(this.vs, this.t('Delete the task list "{0}" and all its tasks?', list.title), this.t('This cannot be undone.'), this.t('Delete List')))) return false;
    await this.api.deleteTaskList(list.id);
    this.tree.refreshLists();
    return true;
  }

  // ---- tasks

  /** A new task at the top of a list (or right after the selected task, as its sibling). */
  async addTask(node?: TasksNode): Promise<Task | undefined> {
    const list = node?.kind === 'task' ? node.list.list : await this.resolveList(node, this.t('Add a task to which list?'));
    if (!list) return undefined;
    const after = node?.kind === 'task' ? node : undefined;
    const placement = after ? { ...(after.task.parent ? { parent: after.task.parent } : {}), previous: after.task.id } : {};
    return this.insert(list.id, placement, this.t('New task in "{0}"', list.title));
  }

  async addSubtask(node?: TasksNode): Promise<Task | undefined> {
    const parent = await this.resolveTask(node, this.t('Add a subtask to which task?'));
    if (!parent) return undefined;
    // New subtasks go last among their siblings, in the order they are added.
    const previous = await this.lastChildOf(parent);
    return this.insert(parent.listId, { parent: parent.task.id, ...(previous ? { previous } : {}) }, this.t('New subtask of "{0}"', taskLabel(parent.task)));
  }

  /** Edit = tasks.get for the current version, then tasks.update with every writable field. */
  async editTask(node?: TasksNode): Promise<Task | undefined> {
    const target = await this.resolveTask(node, this.t('Edit which task?'));
    if (!target) return undefined;
    const current = await this.api.getTask(target.listId, target.task.id);
    const draftKey = `${target.listId}/${current.id}`;
    const draft = this.drafts.get(draftKey) ?? { title: current.title, notes: current.notes ?? '', due: dueDateOf(current.due) ?? '' };

    const title = await this.askTitle(this.t('Edit task (1/3): title'), this.t('Title of the task'), draft.title);
    if (title === undefined) return undefined;
    const notes = await this.vs.window.showInputBox({ title: this.t('Edit task (2/3): notes'), prompt: this.t('Notes (one line; leave empty for none)'), value: draft.notes, ignoreFocusOut: true });
    if (notes === undefined) return undefined;
    const due = await this.askDue(this.t('Edit task (3/3): due date'), draft.due);
    if (due === undefined) return undefined;

    const edited: TaskDraft = { title, notes, due: due ?? '' };
    const body: TaskWrite = {
      title,
      notes: notes.trim() === '' ? null : notes,
      due: due ? toDueTimestamp(due) : null,
      status: current.status,
      // tasks.update replaces every writable field: status and completion date go back unchanged.
      ...(current.completed ? { completed: current.completed } : {}),
    };
    this.drafts.set(draftKey, edited);
    return this.withRetry(this.t('Could not save the task "{0}"', title), () => this.api.updateTask(target.listId, current.id, body), async (saved) => {
      this.drafts.delete(draftKey);
      await this.refreshAndReveal(target.listId, saved.id);
    });
  }

  /** Complete or reopen = tasks.patch of the status (reopening clears the completion date). */
  async setCompleted(node: TasksNode | undefined, completed: boolean): Promise<Task | undefined> {
    const target = await this.resolveTask(node, completed ? this.t('Complete which task?') : this.t('Reopen which task?'), (task) => (task.status === 'completed') !== completed);
    if (!target) return undefined;
    return this.patchStatus(target.listId, target.task, completed);
  }

  async patchStatus(listId: string, task: Task, completed: boolean): Promise<Task | undefined> {
    const body: TaskWrite = completed ? { status: 'completed' } : { status: 'needsAction', completed: null };
    try {
      return await this.api.patchTask(listId, task.id, body);
    } catch (error) {
      void this.desk.showError(error, {
        action: completed ? this.t('Could not complete "{0}"', taskLabel(task)) : this.t('Could not reopen "{0}"', taskLabel(task)),
        retry: () => this.patchStatus(listId, task, completed),
      });
      return undefined;
    } finally {
      // Always: after success for the new state, after failure to put the checkbox back.
      this.tree.refreshList(listId);
    }
  }

  async deleteTask(node?: TasksNode): Promise<boolean> {
    const target = await this.resolveTask(node, this.t('Delete which task?'));
    if (!target) return false;
    const detail = node?.kind === 'task' && node.hasChildren ? this.t('Its subtasks are deleted too.') : this.t('This cannot be undone.');
    if (!(await confirmModal(this.vs, this.t('Delete the task "{0}"?', taskLabel(target.task)), detail, this.t('Delete Task')))) return false;
    await this.api.deleteTask(target.listId, target.task.id);
    this.tree.refreshList(target.listId);
    return true;
  }

  /** tasks.clear: completed tasks become hidden (they leave the tree). */
  async clearCompleted(node?: TasksNode): Promise<boolean> {
    const list = node?.kind === 'task' ? node.list.list : await this.resolveList(node, this.t('Clear the completed tasks of which list?'));
    if (!list) return false;
    const detail = this.t('They are hidden from the list and no longer shown.');
    if (!(await confirmModal(this.vs, this.t('Clear the completed tasks of "{0}"?', list.title), detail, this.t('Clear Completed')))) return false;
    await this.api.clearTasks(list.id);
    this.tree.refreshList(list.id);
    return true;
  }

  /** tasks.move to a place the user picks: the top of a list, or under a task of it. */
  async moveTask(node?: TasksNode): Promise<Task | undefined> {
    const target = await this.resolveTask(node, this.t('Move which task?'));
    if (!target) return undefined;
    const lists = await this.tree.taskLists();
    const ordered = [...lists.filter((list) => list.id === target.listId), ...lists.filter((list) => list.id !== target.listId)];
    const list = await this.pick(
      ordered.map((item) => ({ label: item.title, description: item.id === target.listId ? this.t('current list') : '', value: item })),
      this.t('Move "{0}" to which list?', taskLabel(target.task)),
    );
    if (!list) return undefined;
    const entries = flattenTree(await this.tree.allTasks(list.id));
    // Not under itself or its own subtasks.
    const excluded = new Set<string>(list.id === target.listId ? [target.task.id] : []);
    for (const entry of entries) if (entry.task.parent && excluded.has(entry.task.parent)) excluded.add(entry.task.id);
    type Place = { parent?: string };
    const places: Array<{ label: string; description?: string; value: Place }> = [
      { label: `$(list-unordered) ${this.t('Top of the list')}`, value: {} },
      ...entries.filter((entry) => !excluded.has(entry.task.id)).map((entry) => ({
        label: `${'    '.repeat(entry.depth)}$(indent) ${taskLabel(entry.task)}`,
        description: this.t('as a subtask'),
        value: { parent: entry.task.id },
      })),
    ];
    const place = await this.pick(places, this.t('Where in "{0}"?', list.title));
    if (!place) return undefined;
    const request: MoveRequest = {
      tasklist: target.listId,
      task: target.task.id,
      ...(place.parent ? { parent: place.parent } : {}),
      ...(list.id !== target.listId ? { destinationTasklist: list.id } : {}),
    };
    await this.move([request], [...new Set([target.listId, list.id])]);
    return undefined;
  }

  /** Runs moves in order (drag and drop and the Move command), then refreshes the lists they touched. */
  async move(requests: readonly MoveRequest[], lists: readonly string[]): Promise<void> {
    try {
      for (const request of requests) {
        await this.api.moveTask(request.tasklist, request.task, {
          ...(request.parent ? { parent: request.parent } : {}),
          ...(request.previous ? { previous: request.previous } : {}),
          ...(request.destinationTasklist ? { destinationTasklist: request.destinationTasklist } : {}),
        });
      }
    } catch (error) {
      void this.desk.showError(error, { action: this.t('Could not move the task') });
    } finally {
      for (const list of lists) this.tree.refreshList(list);
    }
  }

  async setShowCompleted(show: boolean): Promise<void> {
    await this.vs.workspace.getConfiguration().update(SETTING.tasksShowCompleted, show, this.vs.ConfigurationTarget.Global);
  }

  /** "Open Task Details": tasks.get rendered as a read-only markdown preview. */
  async openDetails(node?: TasksNode): Promise<void> {
    const target = await this.resolveTask(node, this.t('Show which task?'));
    if (!target) return;
    const uri = this.vs.Uri.from({ scheme: TASK_DETAILS_SCHEME, path: `/${encodeURIComponent(target.listId)}/${encodeURIComponent(target.task.id)}.md`, query: `list=${encodeURIComponent(target.listTitle)}` });
    // A content provider's document is read-only; rendered by the markdown preview where that is installed.
    const document = await this.vs.workspace.openTextDocument(uri);
    await this.vs.window.showTextDocument(document, { preview: true });
    if ((await this.vs.commands.getCommands(true)).includes('markdown.showPreview')) {
      await this.vs.commands.executeCommand('markdown.showPreview', uri);
    }
  }

  // ---- helpers

  private async insert(listId: string, placement: { parent?: string; previous?: string }, prompt: string): Promise<Task | undefined> {
    const draftKey = `new/${listId}/${placement.parent ?? ''}`;
    const title = await this.askTitle(this.t('New task'), prompt, this.drafts.get(draftKey)?.title ?? '');
    if (title === undefined) return undefined;
    this.drafts.set(draftKey, { title, notes: '', due: '' });
    return this.withRetry(this.t('Could not add the task "{0}"', title), () => this.api.insertTask(listId, { title }, placement), async (task) => {
      this.drafts.delete(draftKey);
      await this.refreshAndReveal(listId, task.id);
    });
  }

  private async lastChildOf(parent: TaskTarget): Promise<string | undefined> {
    const entries = flattenTree(await this.tree.allTasks(parent.listId));
    const children = entries.filter((entry) => entry.task.parent === parent.task.id);
    return children[children.length - 1]?.task.id;
  }

  /**
   * Runs a change; on failure shows the error with "Retry" (the same request, nothing retyped). `onSuccess`
   * runs after the first attempt or a retry that succeeds (refresh, forget the draft).
   */
  private async withRetry<T>(action: string, run: () => Promise<T>, onSuccess: (result: T) => unknown): Promise<T | undefined> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      void this.desk.showError(error, { action, retry: () => this.withRetry(action, run, onSuccess) });
      return undefined;
    }
    await onSuccess(result);
    return result;
  }

  private async refreshAndReveal(listId: string, taskId: string): Promise<void> {
    this.tree.refreshList(listId);
    if (!this.view.visible) return;
    try {
      const node = await this.tree.findTaskNode(listId, taskId);
      if (node) await this.view.reveal(node, { select: true, focus: false, expand: false });
    } catch (error) {
      this.desk.log.debug(`reveal failed: ${String(error)}`);
    }
  }

  private async askTitle(title: string, prompt: string, value: string): Promise<string | undefined> {
    const answer = await this.vs.window.showInputBox({
      title,
      prompt,
      value,
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? this.t('A title is required.') : text.length > 1024 ? this.t('At most 1024 characters.') : undefined),
    });
    // The input box refuses empty titles, but a stubbed or programmatic answer must be checked too.
    if (answer === undefined) return undefined;
    if (answer.trim() === '') {
      void this.vs.window.showWarningMessage(this.t('A title is required: nothing was changed.'));
      return undefined;
    }
    return answer.trim();
  }

  /** Returns the date (YYYY-MM-DD), null for "no due date", undefined when cancelled. */
  private async askDue(title: string, value: string): Promise<string | null | undefined> {
    const validate = (text: string): string | undefined => {
      const parsed = parseDueInput(text, new Date());
      return parsed.kind === 'invalid' ? parsed.message : undefined;
    };
    const answer = await this.vs.window.showInputBox({ title, prompt: DUE_INPUT_HELP, value, ignoreFocusOut: true, validateInput: validate });
    if (answer === undefined) return undefined;
    const parsed = parseDueInput(answer, new Date());
    if (parsed.kind === 'invalid') {
      void this.vs.window.showWarningMessage(parsed.message);
      return undefined;
    }
    return parsed.kind === 'date' ? parsed.date : null;
  }

  private async pick<T>(items: Array<{ label: string; description?: string; value: T }>, placeHolder: string): Promise<T | undefined> {
    const picked = await this.vs.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true, matchOnDescription: true });
    return picked?.value;
  }

  private async resolveList(node: TasksNode | undefined, placeHolder: string): Promise<TaskList | undefined> {
    if (node?.kind === 'list') return node.list;
    if (node?.kind === 'task') return node.list.list;
    if (node?.kind === 'message' && node.parent) return node.parent.list;
    const lists = await this.tree.taskLists();
    return this.pick(lists.map((list) => ({ label: list.title, value: list })), placeHolder);
  }

  private async resolveTask(node: TasksNode | undefined, placeHolder: string, filter: (task: Task) => boolean = () => true): Promise<TaskTarget | undefined> {
    if (node?.kind === 'task') return { listId: node.listId, listTitle: node.list.list.title, task: node.task };
    const list = await this.resolveList(node, this.t('Which list?'));
    if (!list) return undefined;
    const entries = flattenTree(await this.tree.allTasks(list.id)).filter((entry) => filter(entry.task));
    if (entries.length === 0) {
      void this.vs.window.showInformationMessage(this.t('There is no matching task in "{0}".', list.title));
      return undefined;
    }
    const task = await this.pick(
      entries.map((entry) => ({
        label: `${'    '.repeat(entry.depth)}${entry.task.status === 'completed' ? '$(pass-filled)' : '$(circle-large-outline)'} ${taskLabel(entry.task)}`,
        description: dueDateOf(entry.task.due) ?? '',
        value: entry.task,
      })),
      placeHolder,
    );
    return task ? { listId: list.id, listTitle: list.title, task } : undefined;
  }
}

function isTasksNode(value: unknown): value is TasksNode {
  return value instanceof TaskListNode || value instanceof TaskNode || (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'message');
}
