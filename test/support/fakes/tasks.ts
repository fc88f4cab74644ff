/** A fake Tasks port for unit tests: lists and pages served from memory, with failures and a gate to hold pages back. */
import type { ListTasksOptions } from '../../../src/api/tasks';
import type { Task, TaskList, TasksPage } from '../../../src/shared/schemas/tasks';

export function list(id: string, title: string): TaskList {
  return { kind: 'tasks#taskList', id, etag: `"${id}"`, title, updated: '2026-11-20T10:00:00.000Z', selfLink: `http://x/${id}` };
}

export function task(id: string, position: string, extra: Partial<Task> = {}): Task {
  return { kind: 'tasks#task', id, etag: `"${id}"`, title: id, updated: '2026-11-20T10:00:00.000Z', selfLink: `http://x/${id}`, position, status: 'needsAction', links: [], ...extra };
}

/** A fake Tasks service: pages per list, served in order; `gate` holds back every page after the first. */
export class FakeTasksApi {
  readonly calls: Array<{ list: string; pageToken: string | undefined; showCompleted: boolean | undefined }> = [];
  gate: Promise<void> = Promise.resolve();
  failLists = new Map<string, Error>();

  constructor(readonly lists: TaskList[], readonly pages: Record<string, Task[][]>) {}

  async *allTaskLists(): AsyncGenerator<TaskList> {
    yield* this.lists;
  }

  /** Every task of a list, page after page (as the client's allTasks follows page tokens). */
  async *allTasks(listId: string, options: Omit<ListTasksOptions, 'pageToken'> = {}): AsyncGenerator<Task> {
    let pageToken: string | undefined;
    do {
      const page = await this.listTasks(listId, { ...options, ...(pageToken ? { pageToken } : {}) });
      yield* page.items ?? [];
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  async listTasks(listId: string, options: ListTasksOptions = {}): Promise<TasksPage> {
    this.calls.push({ list: listId, pageToken: options.pageToken, showCompleted: options.showCompleted });
    const failure = this.failLists.get(listId);
    if (failure) throw failure;
    const index = options.pageToken ? Number(options.pageToken) : 0;
    if (index > 0) await this.gate;
    const pages = this.pages[listId] ?? [[]];
    return { kind: 'tasks#tasks', items: pages[index] ?? [], ...(index + 1 < pages.length ? { nextPageToken: String(index + 1) } : {}) };
  }
}
