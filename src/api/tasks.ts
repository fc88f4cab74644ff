import {
  Task,
  TaskList,
  TaskListsPage,
  TasksPage,
  TaskWrite,
  taskListSchema,
  taskListsPageSchema,
  taskSchema,
  tasksPageSchema,
} from '../shared/schemas/tasks';
import { BATCH_ENDPOINTS, BatchCall, BatchResult, sendBatch } from './batch';
import { HttpClient, path } from './http';
import { GoogleApiError } from './errors';
import { inWindow, SeenIds, windowStart } from './reconcile';

export type { Task, TaskList, TaskListsPage, TasksPage, TaskWrite } from '../shared/schemas/tasks';

export interface PageOptions {
  maxResults?: number;
  pageToken?: string;
  /** Google's partial response: only these fields of the listing (e.g. TASK_ROW_FIELDS). */
  fields?: string;
  signal?: AbortSignal;
}

/** What the views read of a task list (the Tasks tree, the Agenda's due tasks): not kind and selfLink. */
export const TASK_LIST_ROW_FIELDS = 'items(id,etag,title,updated),nextPageToken';
/**
 * What the views read of a task (rows, hovers, the notes editor's version, checkboxes): not kind, selfLink, links and
 * assignmentInfo, which nothing in Desk reads. Editing a task reads it whole first (tasks.get).
 */
export const TASK_ROW_FIELDS = 'items(id,etag,title,updated,parent,position,notes,status,due,completed,deleted,hidden,webViewLink),nextPageToken';

/** tasks.list filters; timestamps are RFC 3339 strings. */
export interface TaskFilterOptions {
  showCompleted?: boolean;
  showHidden?: boolean;
  showDeleted?: boolean;
  updatedMin?: string;
  dueMin?: string;
  dueMax?: string;
  completedMin?: string;
  completedMax?: string;
}

export type ListTasksOptions = TaskFilterOptions & PageOptions;

export interface PlacementOptions {
  /** Parent task id; omitted = top level. */
  parent?: string;
  /** Previous sibling id; omitted = first position. */
  previous?: string;
  signal?: AbortSignal;
}

export interface MoveOptions extends PlacementOptions {
  /** Moves the task (with its subtasks) into another list. */
  destinationTasklist?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Google Tasks API v1: one method per operation; every answer is checked against the shared schemas.
 *
 * Retries (HttpClient owns them; each method says why it is safe):
 * - reads, updates (PUT), deletes, patches and same-list moves are idempotent: repeated after any transient failure;
 * - tasklists.insert, tasks.insert and a move to another list have no idempotency key in this API: after an unclear
 *   failure (5xx, lost answer) the client first looks for the write (`reconcile`), returns it when it landed and
 *   repeats the request only when it did not. A 429 is a refusal before processing, so every method repeats it.
 * The client remembers the ids it has seen (`SeenIds`), so reconciliation never mistakes an older look-alike for the write.
 */
export class TasksClient {
  private readonly seen = new SeenIds();

  constructor(private readonly http: HttpClient) {}

  // ---- tasklists

  listTaskLists(options: PageOptions = {}): Promise<TaskListsPage> {
    return this.http.json(taskListsPageSchema, {
      method: 'GET',
      path: '/tasks/v1/users/@me/lists',
      query: { maxResults: options.maxResults, pageToken: options.pageToken, fields: options.fields },
      signal: options.signal,
      operation: 'tasklists.list',
      // The Tasks view and the Agenda's due tasks both list the lists at a reload: one request serves both.
      shareInFlight: true,
    }).then((page) => this.seen.note(page));
  }

  /** Every task list, following page tokens. */
  allTaskLists(options: Omit<PageOptions, 'pageToken'> = {}): AsyncGenerator<TaskList> {
    return this.http.items((pageToken) => this.listTaskLists({ ...options, pageToken }), (page) => page.items);
  }

  getTaskList(tasklist: string, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'GET',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      signal: options.signal,
      operation: 'tasklists.get',
    }).then((list) => this.seen.note(list));
  }

  /**
   * Creates a list. No idempotency key: after an unclear failure, a list with this title, updated since the first
   * attempt and not seen before it, is the one this call made (returned); otherwise the insert is repeated.
   */
  insertTaskList(title: string, options: CallOptions = {}): Promise<TaskList> {
    const mark = this.seen.mark();
    return this.http.json(taskListSchema, {
      method: 'POST',
      path: '/tasks/v1/users/@me/lists',
      json: { title },
      signal: options.signal,
      operation: 'tasklists.insert',
      reconcile: ({ startedAt }) => this.findInsertedList(title, startedAt, mark, options.signal),
    }).then((list) => this.seen.claim(list));
  }

  /** Replaces the list's writable fields (its title). */
  updateTaskList(tasklist: string, body: { title: string }, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'PUT',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      json: body,
      signal: options.signal,
      operation: 'tasklists.update',
    }).then((list) => this.seen.note(list));
  }

  patchTaskList(tasklist: string, body: { title?: string }, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'PATCH',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      json: body,
      signal: options.signal,
      // Setting the same fields twice gives the same result.
      idempotent: true,
      operation: 'tasklists.patch',
    }).then((list) => this.seen.note(list));
  }

  deleteTaskList(tasklist: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'DELETE',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      signal: options.signal,
      operation: 'tasklists.delete',
    });
  }

  // ---- tasks

  listTasks(tasklist: string, options: ListTasksOptions = {}): Promise<TasksPage> {
    const { signal, ...query } = options;
    return this.http.json(tasksPageSchema, {
      method: 'GET',
      path: path`/tasks/v1/lists/${tasklist}/tasks`,
      query: { ...query },
      signal,
      operation: 'tasks.list',
    }).then((page) => this.seen.note(page));
  }

  /** Every task of a list in tree order (parents by position, each followed by its subtasks). */
  allTasks(tasklist: string, options: Omit<ListTasksOptions, 'pageToken'> = {}): AsyncGenerator<Task> {
    return this.http.items((pageToken) => this.listTasks(tasklist, { ...options, pageToken }), (page) => page.items);
  }

  getTask(tasklist: string, task: string, options: CallOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'GET',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}`,
      signal: options.signal,
      operation: 'tasks.get',
    }).then((task) => this.seen.note(task));
  }

  /**
   * Creates a task. No idempotency key: after an unclear failure, the client lists the target list for tasks updated
   * since the first attempt (`updatedMin`) and takes one with the same title, notes, status, due date and parent that
   * it had not seen before the attempt and no other write of its own returned; found, that is the answer, otherwise
   * the insert is repeated. (Two identical inserts into one parent running at once from this client, one of them
   * failing unclearly while the other's answer is still on its way, could both return the same task.)
   */
  insertTask(tasklist: string, body: TaskWrite, options: PlacementOptions = {}): Promise<Task> {
    const mark = this.seen.mark();
    return this.http.json(taskSchema, {
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/tasks`,
      query: { parent: options.parent, previous: options.previous },
      json: body,
      signal: options.signal,
      operation: 'tasks.insert',
      reconcile: ({ startedAt }) => this.findInsertedTask(tasklist, body, options.parent, { startedAt, mark }, options.signal),
    }).then((task) => this.seen.claim(task));
  }

  /**
   * Creates several tasks at the top of one list in one batch request (or one per 100): a result per task, in order.
   * Without an idempotency key, a task whose call failed unclearly inside the batch is reported failed, not repeated.
   */
  async insertTasks(tasklist: string, bodies: readonly TaskWrite[], options: CallOptions = {}): Promise<BatchResult<Task>[]> {
    const results = await sendBatch(this.http, BATCH_ENDPOINTS.tasks, bodies.map((body): BatchCall<Task> => ({
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/tasks`,
      json: body,
      schema: taskSchema,
      operation: 'tasks.insert',
    })), options.signal);
    return results.map((result) => (result.ok ? { ok: true, value: this.seen.claim(result.value) } : result));
  }

  /** Replaces the task's writable fields: the ones omitted are cleared. */
  updateTask(tasklist: string, task: string, body: TaskWrite, options: CallOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'PUT',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}`,
      json: body,
      signal: options.signal,
      operation: 'tasks.update',
    }).then((task) => this.seen.note(task));
  }

  /** Changes only the fields sent; `null` clears notes or due. */
  patchTask(tasklist: string, task: string, body: TaskWrite, options: CallOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'PATCH',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}`,
      json: body,
      signal: options.signal,
      // Setting the same fields twice gives the same result.
      idempotent: true,
      operation: 'tasks.patch',
    }).then((task) => this.seen.note(task));
  }

  deleteTask(tasklist: string, task: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'DELETE',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}`,
      signal: options.signal,
      operation: 'tasks.delete',
    });
  }

  /** Hides the completed tasks of a list. */
  clearTasks(tasklist: string, options: CallOptions = {}): Promise<void> {
    return this.http.empty({
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/clear`,
      signal: options.signal,
      idempotent: true,
      operation: 'tasks.clear',
    });
  }

  /**
   * Moves a task. Within its list, moving to the same place twice lands in the same place: idempotent. Into another
   * list a repeat of a move that landed would 404 (the task left the source list), so after an unclear failure the
   * client asks the destination list for the task: there, the move happened (answered with it); not there, the move
   * is repeated. A 404 to a repeat is checked the same way.
   */
  moveTask(tasklist: string, task: string, options: MoveOptions = {}): Promise<Task> {
    const destination = options.destinationTasklist;
    const crossList = destination !== undefined && destination !== tasklist;
    const inDestination = (): Promise<Task | undefined> => this.findTaskIn(destination as string, task, options.signal);
    return this.http.json(taskSchema, {
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}/move`,
      query: { parent: options.parent, previous: options.previous, destinationTasklist: destination },
      signal: options.signal,
      idempotent: !crossList,
      ...(crossList ? { reconcile: inDestination, alreadyApplied: (error: GoogleApiError) => (error.isNotFound ? inDestination() : Promise.resolve(undefined)) } : {}),
      operation: 'tasks.move',
    }).then((moved) => this.seen.note(moved));
  }

  // ---- reconciliation (see the class comment)

  private async findInsertedList(title: string, startedAt: number, mark: number, signal: AbortSignal | undefined): Promise<TaskList | undefined> {
    for await (const list of this.allTaskLists({ maxResults: 100, signal })) {
      if (list.title === title && inWindow(list.updated, startedAt) && this.seen.mayBeNewSince(list.id, mark)) return list;
    }
    return undefined;
  }

  private async findInsertedTask(tasklist: string, body: TaskWrite, parent: string | undefined, { startedAt, mark }: { startedAt: number; mark: number }, signal: AbortSignal | undefined): Promise<Task | undefined> {
    const candidates = this.allTasks(tasklist, { updatedMin: windowStart(startedAt), showCompleted: true, showHidden: true, maxResults: 100, signal });
    for await (const task of candidates) {
      if (sameWrite(task, body, parent) && inWindow(task.updated, startedAt) && this.seen.mayBeNewSince(task.id, mark)) return task;
    }
    return undefined;
  }

  /** The task when it is in the list, undefined on 404. */
  private async findTaskIn(tasklist: string, task: string, signal: AbortSignal | undefined): Promise<Task | undefined> {
    try {
      return await this.getTask(tasklist, task, { signal });
    } catch (error) {
      if (error instanceof GoogleApiError && error.isNotFound) return undefined;
      throw error;
    }
  }
}

/** Whether a listed task carries what an insert wrote (due is stored as a date, so only the date is compared). */
function sameWrite(task: Task, body: TaskWrite, parent: string | undefined): boolean {
  return task.title === (body.title ?? '') &&
    (task.notes ?? '') === (body.notes ?? '') &&
    task.status === (body.status ?? 'needsAction') &&
    (task.due ?? '').slice(0, 10) === (body.due ?? '').slice(0, 10) &&
    (task.parent ?? undefined) === (parent || undefined) &&
    task.deleted !== true;
}
