/** Task lists: listing (paged by creation), get, insert, update/patch and delete, and the default list a user starts with. */
import { combinedEtag } from '../core/etag';
import { decodePageToken, encodePageToken, invalidPageToken } from '../core/paging';
import { TaskListInput } from '../../shared/schemas/tasks';
import { badRequest, invalid, required } from '../core/errors';
import { DEFAULT_LIST_TITLE, LIMITS, limitExceeded, Page, StoredTaskList } from './records';
import { TasksState } from './state';

export class TaskListsModel extends TasksState {
  listTaskLists(userId: string, options: { maxResults: number; pageToken?: string }): Page<StoredTaskList> {
    this.ensureUser(userId);
    const ids = this.listsByUser.get(userId) ?? [];
    let start = 0;
    if (options.pageToken !== undefined) {
      // The cursor is the creation stamp of the last list sent, so deletions between pages skip nothing.
      const after = decodePageToken(options.pageToken, `lists:${userId}`);
      if (typeof after !== 'number' || !Number.isSafeInteger(after)) throw invalidPageToken(options.pageToken);
      let high = ids.length;
      while (start < high) {
        const middle = (start + high) >>> 1;
        if ((this.lists.get(ids[middle])?.created ?? 0) <= after) start = middle + 1;
        else high = middle;
      }
    }
    const items = ids.slice(start, start + options.maxResults).map((id) => this.lists.get(id) as StoredTaskList);
    const end = start + items.length;
    const page: Page<StoredTaskList> = { items, etag: combinedEtag(ids.map((id) => this.lists.get(id)?.etag ?? '')) };
    const last = items.at(-1);
    if (end < ids.length && last) page.nextPageToken = encodePageToken(`lists:${userId}`, last.created);
    return page;
  }

  getTaskList(userId: string, listId: string): StoredTaskList {
    this.ensureUser(userId);
    return this.ownList(userId, listId);
  }

  insertTaskList(userId: string, body: TaskListInput): StoredTaskList {
    this.ensureUser(userId);
    if (body.title === undefined || body.title === null || body.title === '') throw required('title', 'body');
    const count = this.listsByUser.get(userId)?.length ?? 0;
    if (count >= LIMITS.listsPerUser) throw limitExceeded(`A user can have at most ${LIMITS.listsPerUser} task lists.`);
    return this.createList(userId, body.title);
  }

  /** `update` replaces (title is required), `patch` merges (only the fields sent change). */
  updateTaskList(userId: string, listId: string, body: TaskListInput, mode: 'update' | 'patch'): StoredTaskList {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    if (mode === 'update' && (body.title === undefined || body.title === null || body.title === '')) throw required('title', 'body');
    if (body.title === '' || body.title === null) throw invalid('Invalid value for title: a task list needs a title', 'title', 'body');
    if (body.title !== undefined) list.title = body.title;
    this.touchList(list);
    return list;
  }

  deleteTaskList(userId: string, listId: string): void {
    const user = this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    if (list.id === user.defaultListId) throw badRequest('Invalid Value: the default task list cannot be deleted.');
    for (const task of this.tasksOf(list.id)) this.tasks.delete(task.id);
    this.indexes.delete(list.id);
    this.lists.delete(list.id);
    const ids = this.listsByUser.get(userId) ?? [];
    ids.splice(ids.indexOf(list.id), 1);
  }

  /** The default list id of a user (created on first use, as Google does). */
  defaultListId(userId: string): string {
    return this.ensureUser(userId).defaultListId;
  }

  /** Creates a list with a given title regardless of request validation (demo data). */
  createListForSeed(userId: string, title: string): StoredTaskList {
    this.ensureUser(userId);
    const ids = this.listsByUser.get(userId) ?? [];
    const first = ids[0] ? this.lists.get(ids[0]) : undefined;
    // The seed renames the lazily created default list instead of adding a second "My Tasks".
    if (first && title === DEFAULT_LIST_TITLE) return first;
    return this.createList(userId, title);
  }
}
