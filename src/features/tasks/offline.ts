/**
 * Tasks writes made while the service cannot be reached: kept in Desk's write queue as the user's intent (complete
 * this task, add a task titled X, these notes for that task), shown in the view at once, and replayed in order when
 * the service is back. A task added offline has an id of Desk's own until its insert is replayed; later changes to it
 * are sent to the id the service gave it. Before an add is repeated, the list is searched for it (an add whose answer
 * was lost may have landed); a change that meets notes changed elsewhere asks Compare / Overwrite / Cancel.
 */
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import { askOverwriteKept } from '../../core/ui/saveConflict';
import { ReplayTable } from '../../core/offline/replayTable';
import type { QueuedChange, ReplayOutcome } from '../../core/offline/writeQueue';
import type { Task, TaskWrite } from '../../shared/schemas/tasks';
import type { TasksApi } from './port';
import type { TasksTreeProvider } from './tree/treeProvider';

/** Ids of tasks added offline start with this (never one of Google's). */
export const LOCAL_TASK_PREFIX = 'desk-local-';

/** How far before the queued moment an add replayed is looked for (clocks of client and service differ a little). */
const LOOK_BACK_MS = 5 * 60_000;

interface StatusIntent { readonly listId: string; readonly taskId: string; readonly completed: boolean }
interface InsertIntent { readonly listId: string; readonly localId: string; readonly title: string; readonly parent?: string; readonly previous?: string }
interface MoveIntent { readonly listId: string; readonly taskId: string; readonly parent?: string; readonly previous?: string; readonly destinationTasklist?: string }
interface DeleteIntent { readonly listId: string; readonly taskId: string }
interface FieldsIntent { readonly listId: string; readonly taskId: string; readonly title: string; readonly fields: TaskWrite; readonly baseEtag?: string; readonly baseNotes?: string | null }

/** Each kind of Tasks change and its intent (queued as `tasks.<kind>`). */
interface TasksIntents { setStatus: StatusIntent; insert: InsertIntent; update: FieldsIntent; notes: FieldsIntent; move: MoveIntent; delete: DeleteIntent }

export interface TasksOfflineHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log' | 'showError'>;
  readonly api: Pick<TasksApi, 'getTask' | 'patchTask' | 'insertTask' | 'listTasks' | 'moveTask' | 'deleteTask'>;
  readonly tree: Pick<TasksTreeProvider, 'applyLocalTask' | 'addLocalTask' | 'replaceLocalTask' | 'removeLocalTask' | 'moveLocalTask'>;
  /** A notes document's version after a replayed save (the notes file system pins it). */
  readonly onNotesSaved?: (listId: string, task: Task) => void;
  readonly now?: () => number;
}

export class TasksOfflineWrites {
  /** Ids of tasks added offline → the ids the service gave them, once replayed. */
  private readonly localIds = new Map<string, string>();
  private counter = 0;
  private readonly changes: ReplayTable<TasksIntents>;

  constructor(private readonly host: TasksOfflineHost) {
    this.changes = new ReplayTable<TasksIntents>(() => host.desk.offlineQueue, 'tasks', {
      setStatus: (intent, change) => this.replayStatus(intent, change),
      insert: (intent, change) => this.replayInsert(intent, change),
      update: (intent, change) => this.replayFields(intent, change),
      notes: (intent, change) => this.replayFields(intent, change),
      move: (intent, change) => this.replayMove(intent, change),
      delete: (intent) => this.replayDelete(intent),
    });
  }

  private get vs(): typeof vscode {
    return this.host.desk.vs;
  }

  private now(): number {
    return this.host.now?.() ?? Date.now();
  }

  /** The replayers of the Tasks changes. */
  register(): DisposableLike[] {
    return this.changes.register();
  }

  /**
   * Runs `write`; when the service cannot be reached, `keep` queues the change instead and answers in its place
   * (`mayHaveLanded`: the failed request may have reached the service). While changes wait, a new one waits behind
   * them without being sent: sent at once, it could be overtaken by an older change to the same task.
   */
  async orKeep<T>(write: () => Promise<T>, keep: (mayHaveLanded: boolean) => Promise<T>): Promise<{ value: T; kept: boolean }> {
    const queue = this.host.desk.offlineQueue;
    if (queue.size > 0) {
      const value = await keep(false);
      void queue.replay();
      return { value, kept: true };
    }
    try {
      return { value: await write(), kept: false };
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      return { value: await keep(!(error as ServiceUnreachableError).notSent), kept: true };
    }
  }

  // ---- keeping

  async setStatus(listId: string, task: Task, completed: boolean): Promise<Task> {
    const t = this.vs.l10n.t;
    const intent: StatusIntent = { listId, taskId: task.id, completed };
    await this.changes.keep('setStatus', completed ? t('Complete “{0}”', task.title) : t('Reopen “{0}”', task.title), intent);
    const local: Task = completed ? { ...task, status: 'completed', completed: new Date(this.now()).toISOString() } : { ...task, status: 'needsAction', completed: undefined };
    this.host.tree.applyLocalTask(listId, local);
    return local;
  }

  /** `mayHaveLanded`: the failed request may have reached the service (its answer was lost): the replay looks first. */
  async insert(listId: string, listTitle: string, title: string, placement: { parent?: string; previous?: string }, mayHaveLanded: boolean): Promise<Task> {
    const localId = `${LOCAL_TASK_PREFIX}${this.now().toString(36)}-${(this.counter++).toString(36)}`;
    const intent: InsertIntent = { listId, localId, title, ...placement };
    await this.changes.keep('insert', this.vs.l10n.t('Add “{0}” to {1}', title, listTitle), intent, { attempted: mayHaveLanded });
    const local: Task = {
      kind: 'tasks#task', id: localId, etag: '', title, updated: new Date(this.now()).toISOString(), selfLink: '', position: '', status: 'needsAction', links: [],
      ...(placement.parent ? { parent: placement.parent } : {}),
    };
    this.host.tree.addLocalTask(listId, local, placement.previous);
    return local;
  }

  /** Title, notes, due (Edit Task): the fields as typed, checked against the version they were edited from. */
  async update(listId: string, current: Task, fields: TaskWrite): Promise<Task> {
    const intent: FieldsIntent = { listId, taskId: current.id, title: fields.title ?? current.title, fields, ...(current.etag ? { baseEtag: current.etag } : {}), baseNotes: current.notes ?? null };
    await this.changes.keep('update', this.vs.l10n.t('Edit “{0}”', intent.title), intent);
    const local = { ...current, ...withoutNulls(fields) };
    this.host.tree.applyLocalTask(listId, local);
    return local;
  }

  /** A save of a notes document (desk-tasks:): accepted, kept, sent when the service is back. */
  async saveNotes(listId: string, pinned: Task, notes: string | null): Promise<Task> {
    const intent: FieldsIntent = { listId, taskId: pinned.id, title: pinned.title, fields: { notes }, ...(pinned.etag ? { baseEtag: pinned.etag } : {}), baseNotes: pinned.notes ?? null };
    await this.changes.keep('notes', this.vs.l10n.t('Save the notes of “{0}”', pinned.title), intent);
    const local: Task = { ...pinned, notes: notes ?? undefined, updated: new Date(this.now()).toISOString() };
    this.host.tree.applyLocalTask(listId, local);
    return local;
  }

  /** A move (the Move command, or one drop of drag and drop): the place as the user chose it, by ids. */
  async move(title: string, intent: MoveIntent): Promise<void> {
    const toListId = intent.destinationTasklist ?? intent.listId;
    await this.changes.keep('move', this.vs.l10n.t('Move “{0}”', title), withoutUndefined(intent));
    this.host.tree.moveLocalTask(intent.listId, intent.taskId, { ...(intent.parent ? { parent: intent.parent } : {}), ...(intent.previous ? { previous: intent.previous } : {}), toListId });
  }

  async delete(listId: string, task: Task): Promise<void> {
    const intent: DeleteIntent = { listId, taskId: task.id };
    await this.changes.keep('delete', this.vs.l10n.t('Delete “{0}”', task.title), intent);
    this.host.tree.removeLocalTask(listId, task.id);
  }

  // ---- replaying

  /** tasks.move lands in the same place when repeated (across lists the API client looks in the destination first). */
  private async replayMove(intent: MoveIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const taskId = this.taskIdOf(intent.taskId);
    // A task added offline whose add was discarded: nothing to move.
    if (taskId === undefined) return 'applied';
    const parent = intent.parent ? this.taskIdOf(intent.parent) : undefined;
    const previous = intent.previous ? this.taskIdOf(intent.previous) : undefined;
    return this.sendUnlessGone(
      () => this.host.api.moveTask(intent.listId, taskId, withoutUndefined({ parent, previous, destinationTasklist: intent.destinationTasklist })),
      this.vs.l10n.t('“{0}” could not be sent: the task (or the place it was moved to) was deleted elsewhere.', change.summary),
    );
  }

  /** A delete repeated, or of a task deleted elsewhere, finds it gone: that is what the user wanted. */
  private async replayDelete(intent: DeleteIntent): Promise<ReplayOutcome> {
    const taskId = this.taskIdOf(intent.taskId);
    if (taskId === undefined) return 'applied';
    try {
      await this.host.api.deleteTask(intent.listId, taskId);
    } catch (error) {
      if (!(error instanceof GoogleApiError && error.isNotFound)) throw error;
      this.host.desk.log.info(`Tasks: ${taskId} was deleted already`);
    }
    return 'applied';
  }

  private taskIdOf(id: string): string | undefined {
    if (!id.startsWith(LOCAL_TASK_PREFIX)) return id;
    return this.localIds.get(id);
  }

  private async replayStatus(intent: StatusIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const taskId = this.taskIdOf(intent.taskId);
    // A task added offline whose add was discarded: nothing to complete.
    if (taskId === undefined) return 'applied';
    const body: TaskWrite = intent.completed ? { status: 'completed' } : { status: 'needsAction', completed: null };
    return this.sendUnlessGone(
      () => this.host.api.patchTask(intent.listId, taskId, body),
      this.vs.l10n.t('“{0}” could not be sent: the task was deleted elsewhere.', change.summary),
    );
  }

  /** Sends a kept change; a task deleted elsewhere (404) ends it with `gone` said once, as nothing can be sent. */
  private async sendUnlessGone(send: () => Promise<unknown>, gone: string): Promise<ReplayOutcome> {
    try {
      await send();
    } catch (error) {
      if (!(error instanceof GoogleApiError && error.isNotFound)) throw error;
      void this.vs.window.showWarningMessage(gone);
    }
    return 'applied';
  }

  private async replayInsert(intent: InsertIntent, change: QueuedChange): Promise<ReplayOutcome> {
    // An add whose answer was lost may have landed: look for it before adding again.
    const landed = change.attempted ? await this.findLanded(intent, change.queuedAt) : undefined;
    const placement = { ...(intent.parent ? { parent: this.taskIdOf(intent.parent) } : {}), ...(intent.previous ? { previous: this.taskIdOf(intent.previous) } : {}) };
    const created = landed ?? (await this.host.api.insertTask(intent.listId, { title: intent.title }, withoutUndefined(placement)));
    this.localIds.set(intent.localId, created.id);
    // The changes waiting after it name the service's id from now on (they survive a reload; this map does not).
    await this.host.desk.offlineQueue.rewrite((queued) => (queued.id === change.id ? queued : { ...queued, intent: replaceValue(queued.intent, intent.localId, created.id) }));
    this.host.tree.replaceLocalTask(intent.listId, intent.localId, created);
    return 'applied';
  }

  private async findLanded(intent: InsertIntent, queuedAt: number): Promise<Task | undefined> {
    const page = await this.host.api.listTasks(intent.listId, { showCompleted: true, showHidden: true, updatedMin: new Date(queuedAt - LOOK_BACK_MS).toISOString(), maxResults: 100 });
    return (page.items ?? []).find((task) => task.title === intent.title && !task.deleted && !this.isKnownRemote(task.id));
  }

  private isKnownRemote(taskId: string): boolean {
    return [...this.localIds.values()].includes(taskId);
  }

  /** Edit Task and notes saves: re-read, and ask when the notes changed elsewhere since they were edited. */
  private async replayFields(intent: FieldsIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const taskId = this.taskIdOf(intent.taskId);
    if (taskId === undefined) return 'applied';
    const notes = intent.fields.notes;
    let current: Task;
    try {
      current = await this.host.api.getTask(intent.listId, taskId);
    } catch (error) {
      if (error instanceof GoogleApiError && error.isNotFound) {
        await this.keepText(this.vs.l10n.t('“{0}” could not be sent: the task was deleted elsewhere. Your text is in a new editor.', change.summary), notes);
        return 'applied';
      }
      throw error;
    }
    if (current.deleted) {
      await this.keepText(this.vs.l10n.t('“{0}” could not be sent: the task was deleted elsewhere. Your text is in a new editor.', change.summary), notes);
      return 'applied';
    }
    const changedElsewhere = intent.baseEtag !== undefined && current.etag !== intent.baseEtag && notes !== undefined && (current.notes ?? null) !== (intent.baseNotes ?? null) && (current.notes ?? null) !== (notes ?? null);
    if (changedElsewhere && !(await this.overwriteChosen(change, current, notes ?? null))) return 'applied';
    const saved = await this.host.api.patchTask(intent.listId, taskId, intent.fields);
    this.host.onNotesSaved?.(intent.listId, saved);
    return 'applied';
  }

  /** Compare / Overwrite / Cancel for notes changed elsewhere; Compare and Cancel keep the user's text in an editor. */
  private async overwriteChosen(change: QueuedChange, current: Task, notes: string | null): Promise<boolean> {
    const vs = this.vs;
    const { overwrite, choice } = await askOverwriteKept(vs, {
      message: vs.l10n.t('The notes of “{0}” were changed elsewhere while you were offline.', current.title),
      detail: vs.l10n.t('“{0}” was kept while Desk was offline. Compare their version with yours, overwrite it with yours, or cancel (your text opens in a new editor).', change.summary),
      mine: { content: notes ?? '', language: 'markdown' },
      theirs: () => Promise.resolve({ content: current.notes ?? '', language: 'markdown' }),
      diffTitle: vs.l10n.t('{0} (Tasks) ↔ (yours)', current.title),
    });
    this.host.desk.log.info(`Tasks: replayed notes of ${current.id} met a change elsewhere: ${choice}`);
    return overwrite;
  }

  private async keepText(message: string, notes: string | null | undefined): Promise<void> {
    void this.vs.window.showWarningMessage(message);
    if (!notes) return;
    const document = await this.vs.workspace.openTextDocument({ language: 'markdown', content: notes });
    await this.vs.window.showTextDocument(document, { preview: false });
  }
}

/** An intent with every field that names `from` naming `to` (task ids: taskId, parent, previous). */
function replaceValue(intent: Readonly<Record<string, unknown>>, from: string, to: string): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(intent).map(([key, value]) => [key, value === from ? to : value]));
}

function withoutNulls(fields: TaskWrite): Partial<Task> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value === null ? undefined : value]));
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
