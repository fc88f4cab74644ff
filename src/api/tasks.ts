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
import { HttpClient, path } from './http';

export type { Task, TaskList, TaskListsPage, TasksPage, TaskWrite } from '../shared/schemas/tasks';

export interface PageOptions {
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

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

/** Google Tasks API v1: one method per operation; every answer is checked against the shared schemas. */
export class TasksClient {
  constructor(private readonly http: HttpClient) {}

  // ---- tasklists

  listTaskLists(options: PageOptions = {}): Promise<TaskListsPage> {
    return this.http.json(taskListsPageSchema, {
      method: 'GET',
      path: '/tasks/v1/users/@me/lists',
      query: { maxResults: options.maxResults, pageToken: options.pageToken },
      signal: options.signal,
      operation: 'tasklists.list',
    });
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
    });
  }

  insertTaskList(title: string, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'POST',
      path: '/tasks/v1/users/@me/lists',
      json: { title },
      signal: options.signal,
      operation: 'tasklists.insert',
    });
  }

  /** Replaces the list's writable fields (its title). */
  updateTaskList(tasklist: string, body: { title: string }, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'PUT',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      json: body,
      signal: options.signal,
      operation: 'tasklists.update',
    });
  }

  patchTaskList(tasklist: string, body: { title?: string }, options: CallOptions = {}): Promise<TaskList> {
    return this.http.json(taskListSchema, {
      method: 'PATCH',
      path: path`/tasks/v1/users/@me/lists/${tasklist}`,
      json: body,
      signal: options.signal,
      operation: 'tasklists.patch',
    });
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
    });
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
    });
  }

  /** Creates a task; POST is not idempotent, so a 5xx is surfaced rather than retried (no duplicates). */
  insertTask(tasklist: string, body: TaskWrite, options: PlacementOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/tasks`,
      query: { parent: options.parent, previous: options.previous },
      json: body,
      signal: options.signal,
      operation: 'tasks.insert',
    });
  }

  /** Replaces the task's writable fields: the ones omitted are cleared. */
  updateTask(tasklist: string, task: string, body: TaskWrite, options: CallOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'PUT',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}`,
      json: body,
      signal: options.signal,
      operation: 'tasks.update',
    });
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
    });
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

  moveTask(tasklist: string, task: string, options: MoveOptions = {}): Promise<Task> {
    return this.http.json(taskSchema, {
      method: 'POST',
      path: path`/tasks/v1/lists/${tasklist}/tasks/${task}/move`,
      query: { parent: options.parent, previous: options.previous, destinationTasklist: options.destinationTasklist },
      signal: options.signal,
      // Moving to the same place twice lands in the same place; a repeated move across lists would 404.
      idempotent: options.destinationTasklist === undefined,
      operation: 'tasks.move',
    });
  }
}
