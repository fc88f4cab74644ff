/** Task commands: add (task, subtask), edit (and its notes in an editor), complete/reopen, delete, move (command and drag and drop), details. */
import type * as vscode from 'vscode';
import { errorMessage, isUnreachable } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { showDetails } from '../../../core/ui/detailsView';
import { confirmModal } from '../../../core/ui/confirm';
import { dueDateOf, toDueTimestamp } from '../../../core/text/dates';
import type { Task, TaskWrite } from '../../../shared/schemas/tasks';
import type { MoveRequest } from '../tree/dropPlan';
import { flattenTree } from '../tree/model';
import type { TasksNode } from '../tree/nodes';
import { taskDetailsMarkdown, taskLabel } from '../tree/presentation';
import { openNotes } from '../notes/openNotes';
import type { TaskCommandContext } from './context';
import type { TaskTarget } from './prompts';

export const TASK_DETAILS_SCHEME = 'desk-task';

export class TaskItemCommands {
  constructor(private readonly context: TaskCommandContext) {}

  private get desk() { return this.context.desk; }
  private get vs() { return this.context.desk.vs; }
  private get api() { return this.context.api; }
  private get tree() { return this.context.tree; }
  private get view() { return this.context.view; }
  private get prompts() { return this.context.prompts; }
  private get drafts() { return this.context.drafts; }

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  /** A new task at the top of a list (or right after the selected task, as its sibling). */
  async addTask(node?: TasksNode): Promise<Task | undefined> {
    const list = node?.kind === 'task' ? node.list.list : await this.prompts.resolveList(node, this.t('Add a task to which list?'));
    if (!list) return undefined;
    const after = node?.kind === 'task' ? node : undefined;
    const placement = after ? { ...(after.task.parent ? { parent: after.task.parent } : {}), previous: after.task.id } : {};
    return this.insert(list.id, placement, this.t('New task in "{0}"', list.title), list.title);
  }

  async addSubtask(node?: TasksNode): Promise<Task | undefined> {
    const parent = await this.prompts.resolveTask(node, this.t('Add a subtask to which task?'));
    if (!parent) return undefined;
    // New subtasks go last among their siblings, in the order they are added.
    const previous = await this.lastChildOf(parent);
    return this.insert(parent.listId, { parent: parent.task.id, ...(previous ? { previous } : {}) }, this.t('New subtask of "{0}"', taskLabel(parent.task, this.vs.l10n.t)), parent.listTitle);
  }

  /** Edit = tasks.get for the current version, then tasks.update with every writable field. */
  async editTask(node?: TasksNode): Promise<Task | undefined> {
    const target = await this.prompts.resolveTask(node, this.t('Edit which task?'));
    if (!target) return undefined;
    // Offline, the task as the view shows it: the edit is kept and checked against the service's version on replay.
    const current = await this.api.getTask(target.listId, target.task.id).catch((error: unknown) => {
      if (isUnreachable(error)) return target.task;
      throw error;
    });
    // What was typed last time and not saved (Escape on a later step, or a failed save) comes back.
    const draft = this.drafts.open(`edit-task/${target.listId}/${current.id}`, { title: current.title, notes: current.notes ?? '', due: dueDateOf(current.due) ?? '' });

    const title = await this.prompts.askTitle(this.t('Edit task (1/3): title'), this.t('Title of the task'), { draft, field: 'title' });
    if (title === undefined) return undefined;
    const notesStep = await this.prompts.askNotes(this.t('Edit task (2/3): notes'), { draft, field: 'notes' });
    if (notesStep === undefined) return undefined;
    const notes = notesStep.notes;
    const due = await this.prompts.askDue(this.t('Edit task (3/3): due date'), { draft, field: 'due' });
    if (due === undefined) return undefined;
    // The day the box showed, not "fri": after a failed save, the draft must not move to another Friday.
    draft.keep('due', due ?? '');

    const body: TaskWrite = {
      title,
      notes: notes.trim() === '' ? null : notes,
      due: due ? toDueTimestamp(due) : null,
      status: current.status,
      // tasks.update replaces every writable field: status and completion date go back unchanged.
      ...(current.completed ? { completed: current.completed } : {}),
    };
    const saved = await attempt(this.desk, () => this.context.offline.orKeep(() => this.api.updateTask(target.listId, current.id, body), () => this.context.offline.update(target.listId, current, body)), {
      action: this.t('Could not save the task "{0}"', title),
      retry: true,
      onSuccess: async ({ value, kept }) => {
        draft.drop();
        if (!kept) await this.refreshAndReveal(target.listId, value.id);
        if (notesStep.inEditor) await openNotes(this.vs, await this.desk.session.viewAccountNow(), target.listId, target.listTitle, value);
      },
    });
    return saved?.value;
  }

  /** "Edit Notes": the notes as a markdown document (desk-tasks:), saved back with tasks.patch on every save. */
  async editNotes(node?: TasksNode): Promise<void> {
    const target = await this.prompts.resolveTask(node, this.t('Edit the notes of which task?'));
    if (!target) return;
    await openNotes(this.vs, await this.desk.session.viewAccountNow(), target.listId, target.listTitle, target.task);
  }

  /** Complete or reopen = tasks.patch of the status (reopening clears the completion date). */
  async setCompleted(node: TasksNode | undefined, completed: boolean): Promise<Task | undefined> {
    const target = await this.prompts.resolveTask(node, completed ? this.t('Complete which task?') : this.t('Reopen which task?'), (task) => (task.status === 'completed') !== completed);
    if (!target) return undefined;
    return this.patchStatus(target.listId, target.task, completed);
  }

  async patchStatus(listId: string, task: Task, completed: boolean): Promise<Task | undefined> {
    const body: TaskWrite = completed ? { status: 'completed' } : { status: 'needsAction', completed: null };
    const action = completed ? this.t('Could not complete "{0}"', taskLabel(task, this.vs.l10n.t)) : this.t('Could not reopen "{0}"', taskLabel(task, this.vs.l10n.t));
    // The answer is the task's new state, shown in place; after a failure the list reloads to put the checkbox back.
    // Offline, the change is kept (shown at once) and sent when the service is back.
    const patched = await attempt(this.desk, () => this.context.offline.orKeep(() => this.api.patchTask(listId, task.id, body), () => this.context.offline.setStatus(listId, task, completed)), {
      action,
      retry: true,
      onSuccess: (answer) => { if (!answer.kept) this.tree.updateTask(listId, answer.value); },
    });
    if (!patched) this.tree.refreshList(listId);
    return patched?.value;
  }

  async deleteTask(node?: TasksNode): Promise<boolean> {
    const target = await this.prompts.resolveTask(node, this.t('Delete which task?'));
    if (!target) return false;
    const detail = node?.kind === 'task' && node.hasChildren ? this.t('Its subtasks are deleted too.') : this.t('This cannot be undone.');
    if (!(await confirmModal(this.vs, this.t('Delete the task "{0}"?', taskLabel(target.task, this.vs.l10n.t)), detail, this.t('Delete Task')))) return false;
    // Offline, the delete is kept (the row leaves at once) and sent when the service is back.
    const { kept } = await this.context.offline.orKeep(() => this.api.deleteTask(target.listId, target.task.id), () => this.context.offline.delete(target.listId, target.task));
    if (!kept) this.tree.refreshList(target.listId);
    return true;
  }

  /** tasks.move to a place the user picks: the top of a list, or under a task of it. */
  async moveTask(node?: TasksNode): Promise<Task | undefined> {
    const target = await this.prompts.resolveTask(node, this.t('Move which task?'));
    if (!target) return undefined;
    const lists = await this.tree.taskLists();
    const ordered = [...lists.filter((list) => list.id === target.listId), ...lists.filter((list) => list.id !== target.listId)];
    const list = await this.prompts.pick(
      ordered.map((item) => ({ label: item.title, description: item.id === target.listId ? this.t('current list') : '', value: item })),
      this.t('Move "{0}" to which list?', taskLabel(target.task, this.vs.l10n.t)),
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
        label: `${'    '.repeat(entry.depth)}$(indent) ${taskLabel(entry.task, this.vs.l10n.t)}`,
        description: this.t('as a subtask'),
        value: { parent: entry.task.id },
      })),
    ];
    const place = await this.prompts.pick(places, this.t('Where in "{0}"?', list.title));
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
    // No Retry: a sequence of moves that failed half-way must be looked at again, not replayed.
    // Offline, each move is kept (shown at its place at once) and sent in order when the service is back.
    // Set in attempt()'s work (also when a later move failed), which TypeScript's narrowing does not follow.
    let kept = false as boolean;
    await attempt(this.desk, async () => {
      for (const request of requests) {
        const place = {
          ...(request.parent ? { parent: request.parent } : {}),
          ...(request.previous ? { previous: request.previous } : {}),
          ...(request.destinationTasklist ? { destinationTasklist: request.destinationTasklist } : {}),
        };
        const title = this.tree.shownTitle(request.tasklist, request.task) ?? '';
        const answer = await this.context.offline.orKeep(async () => { await this.api.moveTask(request.tasklist, request.task, place); }, () => this.context.offline.move(title, { listId: request.tasklist, taskId: request.task, ...place }));
        kept ||= answer.kept;
      }
    }, { action: this.t('Could not move the task') });
    if (!kept) for (const list of lists) this.tree.refreshList(list);
  }

  /** "Open Task Details": tasks.get rendered as a read-only markdown preview. */
  async openDetails(node?: TasksNode): Promise<void> {
    const target = await this.prompts.resolveTask(node, this.t('Show which task?'));
    if (!target) return;
    const uri = this.vs.Uri.from({ scheme: TASK_DETAILS_SCHEME, authority: this.desk.session.viewAccount(), path: `/${encodeURIComponent(target.listId)}/${encodeURIComponent(target.task.id)}.md`, query: `list=${encodeURIComponent(target.listTitle)}` });
    // One read-only tab titled with the task (see core/ui/detailsView.ts).
    await showDetails(this.vs, uri, taskLabel(target.task, this.vs.l10n.t));
  }

  /** The details document: desk-task:/<list>/<task>.md → tasks.get, rendered as markdown. */
  async detailsDocument(uri: vscode.Uri): Promise<string> {
    const [listId, taskFile] = uri.path.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
    const listTitle = new URLSearchParams(uri.query).get('list') ?? '';
    if (!listId || !taskFile) return `# ${this.t('Unknown task')}\n`;
    try {
      const task = await this.api.getTask(listId, taskFile.replace(/\.md$/, ''));
      // A subtask's parent by its title (one more tasks.get, for subtasks only); the page still opens if it fails.
      const parent = task.parent ? await this.api.getTask(listId, task.parent).catch(() => undefined) : undefined;
      return taskDetailsMarkdown(task, listTitle, this.desk.clock.today(), this.vs.l10n.t, (ms) => this.desk.clock.dateTime(ms), this.vs.env.language, parent ? taskLabel(parent, this.vs.l10n.t) : undefined);
    } catch (error) {
      void this.desk.showError(error, { action: this.t('Could not open the task') });
      return `# ${this.t('Could not load the task')}\n\n${errorMessage(error, this.vs.l10n.t)}\n`;
    }
  }

  private async insert(listId: string, placement: { parent?: string; previous?: string }, prompt: string, listTitle: string): Promise<Task | undefined> {
    const draft = this.drafts.open(`new-task/${listId}/${placement.parent ?? ''}`, { title: '' });
    const title = await this.prompts.askTitle(this.t('New task'), prompt, { draft, field: 'title' });
    if (title === undefined) return undefined;
    // Offline, the new task is kept (shown at once with an id of Desk's own) and added when the service is back.
    const added = await attempt(this.desk, () => this.context.offline.orKeep(() => this.api.insertTask(listId, { title }, placement), (mayHaveLanded) => this.context.offline.insert(listId, listTitle, title, placement, mayHaveLanded)), {
      action: this.t('Could not add the task "{0}"', title),
      retry: true,
      onSuccess: async ({ value, kept }) => {
        draft.drop();
        if (!kept) await this.refreshAndReveal(listId, value.id);
      },
    });
    return added?.value;
  }

  private async lastChildOf(parent: TaskTarget): Promise<string | undefined> {
    const entries = flattenTree(await this.tree.allTasks(parent.listId));
    const children = entries.filter((entry) => entry.task.parent === parent.task.id);
    return children[children.length - 1]?.task.id;
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
}
