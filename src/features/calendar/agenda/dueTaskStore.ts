/**
 * The due tasks the Agenda shows, without vscode: every list's tasks that have a due date up to the end of the longest
 * Agenda (completed ones only when the Tasks setting shows them), read once and kept until something says they changed
 * (the Tasks view, a setting, sign-in); completing one from the Agenda goes through the Tasks API and updates the copy.
 */
import { TASK_LIST_ROW_FIELDS, TASK_ROW_FIELDS, type TasksClient } from '../../../api/tasks';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import type { DueTask } from './dueTasks';

export type DueTasksApi = Pick<TasksClient, 'allTaskLists' | 'allTasks' | 'patchTask'>;

/** The Agenda shows at most 60 days (desk.calendar.daysAhead): tasks due later are not read. */
const MAX_DAYS_AHEAD = 61;
const DAY_MS = 86_400_000;

/** A task list as the cache keeps it. */
export interface KnownTaskList {
  readonly id: string;
  readonly title?: string | undefined;
}

export interface DueTaskStoreOptions {
  readonly api: () => DueTasksApi;
  readonly showCompleted: () => boolean;
  /** The copy changed (loaded, forgotten or a task completed here). */
  readonly onChange: () => void;
  readonly now?: () => number;
}

export class DueTaskStore {
  private loading: Promise<readonly DueTask[]> | undefined;
  private loaded: DueTask[] | undefined;
  private generation = 0;
  private lists: KnownTaskList[] | undefined;

  constructor(private readonly options: DueTaskStoreOptions) {}

  /** The task lists of the last load (kept in the Agenda's cache so the next start asks their tasks at once). */
  get taskLists(): readonly KnownTaskList[] | undefined {
    return this.lists;
  }

  /** What is loaded (undefined before the first load finished). */
  get tasks(): readonly DueTask[] | undefined {
    return this.loaded;
  }

  /** Loads the due tasks unless they are loaded; a failed load is not kept. */
  ensureLoaded(known: readonly KnownTaskList[] = []): Promise<readonly DueTask[]> {
    if (this.loaded) return Promise.resolve(this.loaded);
    const generation = this.generation;
    this.loading ??= this.load(known).then((tasks) => {
      if (generation === this.generation) this.loaded = tasks;
      return tasks;
    }).finally(() => {
      if (generation === this.generation) this.loading = undefined;
    });
    return this.loading;
  }

  /** Forget the copy (a task changed elsewhere, a setting, sign-in): the next render reads again. */
  forget(): void {
    this.generation++;
    this.loading = undefined;
    this.loaded = undefined;
    this.options.onChange();
  }

  /** Completes (or reopens) a task through the Tasks API and keeps the answer. */
  async setCompleted(dueTask: DueTask, completed: boolean): Promise<Task> {
    const body = completed ? { status: 'completed' as const } : { status: 'needsAction' as const, completed: null };
    const patched = await this.options.api().patchTask(dueTask.listId, dueTask.task.id, body);
    if (this.loaded) {
      this.loaded = this.loaded.map((candidate) => (candidate.listId === dueTask.listId && candidate.task.id === patched.id ? { ...candidate, task: patched } : candidate));
      this.options.onChange();
    }
    return patched;
  }

  /**
   * Every list's due tasks. The lists `known` from the last session have their tasks asked for beside the list of
   * lists, not after it (one round trip); when the lists answer, a new list is read and a removed one's tasks dropped.
   */
  private async load(known: readonly KnownTaskList[]): Promise<DueTask[]> {
    const api = this.options.api();
    const showCompleted = this.options.showCompleted();
    const dueMax = new Date((this.options.now?.() ?? Date.now()) + MAX_DAYS_AHEAD * DAY_MS).toISOString();
    const tasksOf = async (listId: string): Promise<Task[]> => {
      const tasks: Task[] = [];
      for await (const task of api.allTasks(listId, { dueMax, showCompleted, showHidden: showCompleted, maxResults: 100, fields: TASK_ROW_FIELDS })) if (task.due) tasks.push(task);
      return tasks;
    };
    const early = new Map(known.map((list) => {
      const tasks = tasksOf(list.id);
      tasks.catch(() => undefined); // a list removed since answers 404: it is dropped below, not reported
      return [list.id, tasks] as const;
    }));
    const lists: TaskList[] = [];
    // Asked as the Tasks view asks (Google's default page of 1000, its fields): at a reload both share one request.
    for await (const list of api.allTaskLists({ fields: TASK_LIST_ROW_FIELDS })) lists.push(list);
    this.lists = lists.map((list) => ({ id: list.id, title: list.title }));
    const perList = await Promise.all(lists.map(async (list) => (await (early.get(list.id) ?? tasksOf(list.id))).map((task) => ({ listId: list.id, listTitle: list.title, task }))));
    return perList.flat();
  }
}
