/**
 * The due tasks the Agenda shows, without vscode: every list's tasks that have a due date up to the end of the longest
 * Agenda (completed ones only when the Tasks setting shows them), read once and kept until something says they changed
 * (the Tasks view, a setting, sign-in); completing one from the Agenda goes through the Tasks API and updates the copy.
 */
import type { TasksClient } from '../../../api/tasks';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import type { DueTask } from './dueTasks';

export type DueTasksApi = Pick<TasksClient, 'allTaskLists' | 'allTasks' | 'patchTask'>;

/** The Agenda shows at most 60 days (desk.calendar.daysAhead): tasks due later are not read. */
const MAX_DAYS_AHEAD = 61;
const DAY_MS = 86_400_000;

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

  constructor(private readonly options: DueTaskStoreOptions) {}

  /** What is loaded (undefined before the first load finished). */
  get tasks(): readonly DueTask[] | undefined {
    return this.loaded;
  }

  /** Loads the due tasks unless they are loaded; a failed load is not kept. */
  ensureLoaded(): Promise<readonly DueTask[]> {
    if (this.loaded) return Promise.resolve(this.loaded);
    const generation = this.generation;
    this.loading ??= this.load().then((tasks) => {
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

  private async load(): Promise<DueTask[]> {
    const api = this.options.api();
    const showCompleted = this.options.showCompleted();
    const dueMax = new Date((this.options.now?.() ?? Date.now()) + MAX_DAYS_AHEAD * DAY_MS).toISOString();
    const lists: TaskList[] = [];
    for await (const list of api.allTaskLists({ maxResults: 100 })) lists.push(list);
    const perList = await Promise.all(lists.map(async (list) => {
      const tasks: DueTask[] = [];
      for await (const task of api.allTasks(list.id, { dueMax, showCompleted, showHidden: showCompleted, maxResults: 100 })) {
        if (task.due) tasks.push({ listId: list.id, listTitle: list.title, task });
      }
      return tasks;
    }));
    return perList.flat();
  }
}
