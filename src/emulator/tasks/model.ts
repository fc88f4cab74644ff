import { randomBytes } from 'node:crypto';
import { combinedEtag, newEtag } from '../core/etag';
import { decodePageToken, encodePageToken, invalidPageToken } from '../core/paging';
import { TaskInput, TaskListInput, TaskStatus } from '../../shared/schemas/tasks';
import { ApiError, badRequest, invalid, notFound, required } from '../core/errors';
import { Collection, Store } from '../store/store';
import { compare, ListIndex, newListIndex, TaskTree, TOP, TreeEntry, upperBound } from './tree';

/**
 * The Google Tasks semantics, free of HTTP: task lists per user, tasks in a tree ordered by `position`,
 * move/clear/delete rules, filters and paging. Documents live in Store collections; the per-list
 * indexes (children in position order, a cached tree-order listing, counters) live in memory and are
 * rebuilt from the store on first use, so every operation stays cheap as a list grows to 20,000 tasks.
 */

export const LIMITS = {
  listsPerUser: 2000,
  visibleTasksPerList: 20_000,
  tasksPerUser: 100_000,
  subtasksPerTask: 2000,
} as const;

export const DEFAULT_LIST_TITLE = 'My Tasks';

export interface StoredTaskList {
  id: string;
  userId: string;
  title: string;
  /** Epoch ms; also bumped when a task of the list changes, like Google's. */
  updated: number;
  /** Creation order, for a stable listing. */
  created: number;
  etag: string;
}

export interface StoredTask {
  id: string;
  listId: string;
  userId: string;
  title: string;
  notes?: string;
  status: TaskStatus;
  /** `YYYY-MM-DDT00:00:00.000Z` */
  due?: string;
  /** Epoch ms, only when completed. */
  completed?: number;
  deleted: boolean;
  hidden: boolean;
  parent?: string;
  /** 20-digit zero-padded decimal; unique among siblings. */
  position: string;
  updated: number;
  etag: string;
}

interface StoredUser {
  defaultListId: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
  etag: string;
}

export interface TaskFilters {
  showCompleted: boolean;
  showHidden: boolean;
  showDeleted: boolean;
  updatedMin?: number;
  dueMin?: number;
  dueMax?: number;
  completedMin?: number;
  completedMax?: number;
  maxResults: number;
  pageToken?: string;
}

export interface Placement {
  parent?: string;
  previous?: string;
}


export function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** Google keeps only the date of `due`: the date as written, at midnight UTC. */
export function truncateDue(value: string): string {
  return `${value.slice(0, 10)}T00:00:00.000Z`;
}

export class TasksModel {
  private readonly lists: Collection<StoredTaskList>;
  private readonly tasks: Collection<StoredTask>;
  /** Where each task sits: sibling order and the cached tree-order listing. */
  private readonly tree: TaskTree;
  private readonly users: Collection<StoredUser>;
  private loaded = false;
  private readonly listsByUser = new Map<string, string[]>();
  private readonly indexes = new Map<string, ListIndex>();
  /** Keeps `updated` from going backwards if the clock does, so updatedMin syncs miss nothing. */
  private lastStamp = 0;
  private lastCreated = 0;

  constructor(store: Store, private readonly now: () => number) {
    this.lists = store.collection<StoredTaskList>('tasks.lists');
    this.tasks = store.collection<StoredTask>('tasks.tasks');
    this.tree = new TaskTree(this.tasks);
    this.users = store.collection<StoredUser>('tasks.users');
  }

  // ---------------------------------------------------------------- task lists

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
        if ((this.lists.get(ids[middle] as string)?.created ?? 0) <= after) start = middle + 1;
        else high = middle;
      }
    }
    const items = ids.slice(start, start + options.maxResults).map((id) => this.lists.get(id) as StoredTaskList);
    const end = start + items.length;
    const page: Page<StoredTaskList> = { items, etag: combinedEtag(ids.map((id) => this.lists.get(id)?.etag ?? '')) };
    const last = items[items.length - 1];
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

  // ---------------------------------------------------------------- tasks: reading

  listTasks(userId: string, listId: string, filters: TaskFilters): Page<StoredTask> {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    const tree = this.tree.treeOf(this.indexOf(list.id));
    let start = 0;
    if (filters.pageToken !== undefined) {
      const cursor = decodePageToken(filters.pageToken, `tasks:${list.id}`);
      if (typeof cursor !== 'string') throw invalidPageToken(filters.pageToken);
      start = upperBound(tree, cursor);
    }
    const items: StoredTask[] = [];
    let index = start;
    let lastKey: string | undefined;
    for (; index < tree.length && items.length < filters.maxResults; index++) {
      const entry = tree[index] as TreeEntry;
      const task = this.tasks.get(entry.id) as StoredTask;
      if (!matches(task, filters)) continue;
      items.push(task);
      lastKey = entry.key;
    }
    const page: Page<StoredTask> = { items, etag: list.etag };
    // Only promise another page when one more task matches, so the last page carries no token.
    if (lastKey !== undefined && items.length === filters.maxResults) {
      for (; index < tree.length; index++) {
        if (matches(this.tasks.get((tree[index] as TreeEntry).id) as StoredTask, filters)) {
          page.nextPageToken = encodePageToken(`tasks:${list.id}`, lastKey);
          break;
        }
      }
    }
    return page;
  }

  getTask(userId: string, listId: string, taskId: string): StoredTask {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    return this.taskIn(list.id, taskId);
  }

  // ---------------------------------------------------------------- tasks: writing

  insertTask(userId: string, listId: string, body: TaskInput, placement: Placement): StoredTask {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    const index = this.indexOf(list.id);
    this.checkRoomForTasks(userId, list.id, 1);
    const parentKey = this.validParent(list.id, placement.parent, undefined);
    this.checkRoomForSubtasks(list.id, parentKey, 1);
    const previous = this.validPrevious(list.id, parentKey, placement.previous, undefined);
    const stamp = this.stamp();
    const task: StoredTask = {
      id: newId(),
      listId: list.id,
      userId,
      title: body.title ?? '',
      status: body.status ?? 'needsAction',
      deleted: false,
      hidden: false,
      position: '',
      updated: stamp,
      etag: newEtag(),
    };
    if (body.notes !== undefined && body.notes !== null) task.notes = body.notes;
    if (body.due !== undefined && body.due !== null) task.due = truncateDue(body.due);
    if (task.status === 'completed') task.completed = body.completed ? Date.parse(body.completed) : stamp;
    if (parentKey !== TOP) task.parent = parentKey;
    // place() stores the task once its position is known.
    this.tree.place(this.indexOf(list.id), task, parentKey, previous, [{ id: task.id, suffix: '' }]);
    index.visible++;
    index.live++;
    this.touchList(list);
    return task;
  }

  /**
   * `update` replaces the writable fields (omitted ones are cleared), `patch` changes only those sent.
   * All or nothing: every check runs before the first change, so a 400 leaves the task (and the journal) as it was.
   */
  updateTask(userId: string, listId: string, taskId: string, body: TaskInput, mode: 'update' | 'patch'): StoredTask {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    const task = this.taskIn(list.id, taskId);
    const replace = mode === 'update';
    const status: TaskStatus = body.status ?? (replace ? 'needsAction' : task.status);
    // A hidden task is a cleared completed one: reopening it brings it back.
    const unhide = status !== 'completed' && task.hidden;
    const restoring = body.deleted === false && task.deleted;
    const deleting = body.deleted === true && !task.deleted;
    if (restoring) this.checkRestore(list.id, task, unhide ? false : task.hidden);

    const stamp = this.stamp();
    if (body.title !== undefined || replace) task.title = body.title ?? '';
    if (body.notes !== undefined || replace) {
      if (body.notes === undefined || body.notes === null) delete task.notes;
      else task.notes = body.notes;
    }
    if (body.due !== undefined || replace) {
      if (body.due === undefined || body.due === null) delete task.due;
      else task.due = truncateDue(body.due);
    }
    if (status === 'completed') {
      if (body.completed) task.completed = Date.parse(body.completed);
      else if (task.status !== 'completed' || task.completed === undefined) task.completed = stamp;
    } else {
      delete task.completed;
      if (unhide) this.setHidden(list.id, task, false);
    }
    task.status = status;
    task.updated = stamp;
    task.etag = newEtag();
    this.tasks.set(task.id, task);

    if (deleting) this.markDeleted(list.id, task, stamp);
    else if (restoring) this.restore(list.id, task);
    this.touchList(list);
    return task;
  }

  /** Marks the task and its subtasks deleted (they stay listable with showDeleted). */
  deleteTask(userId: string, listId: string, taskId: string): void {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    const task = this.taskIn(list.id, taskId);
    if (task.deleted) return;
    this.markDeleted(list.id, task, this.stamp());
    this.touchList(list);
  }

  /** Hides every completed task of the list (they are listed again only with showHidden). */
  clear(userId: string, listId: string): void {
    this.ensureUser(userId);
    const list = this.ownList(userId, listId);
    const stamp = this.stamp();
    let changed = false;
    for (const task of this.tasksOf(list.id)) {
      if (task.status !== 'completed' || task.hidden || task.deleted) continue;
      this.setHidden(list.id, task, true);
      task.updated = stamp;
      task.etag = newEtag();
      this.tasks.set(task.id, task);
      changed = true;
    }
    if (changed) this.touchList(list);
  }

  /**
   * Moves a task (with its subtasks) under `parent` after `previous`, optionally into another list.
   * Omitted parent = top level; omitted previous = first among the new siblings.
   */
  moveTask(userId: string, listId: string, taskId: string, placement: Placement & { destinationTasklist?: string }): StoredTask {
    this.ensureUser(userId);
    const source = this.ownList(userId, listId);
    const task = this.taskIn(source.id, taskId);
    if (task.deleted) throw invalid('Invalid value: a deleted task cannot be moved', 'task');
    const destination = placement.destinationTasklist === undefined ? source : this.ownList(userId, placement.destinationTasklist);
    if (task.hidden && (placement.parent || placement.previous)) {
      throw invalid('Invalid value: a completed and hidden task can only be moved to the first position at the top level', placement.parent ? 'parent' : 'previous');
    }
    const parentKey = this.validParent(destination.id, placement.parent, task);
    const previous = this.validPrevious(destination.id, parentKey, placement.previous, task);
    const subtree = this.tree.subtreeOf(this.indexOf(source.id), task.id);
    if (destination.id !== source.id) {
      const moving = subtree.filter((member) => !member.deleted);
      this.checkRoomForTasks(userId, destination.id, moving.filter((member) => !member.hidden).length, moving.length);
    }
    const oldParent = task.parent ?? TOP;
    if (parentKey !== oldParent || destination.id !== source.id) this.checkRoomForSubtasks(destination.id, parentKey, 1);

    const detached = this.tree.unplace(this.indexOf(source.id), task);
    const stamp = this.stamp();
    if (destination.id !== source.id) {
      const sourceIndex = this.indexOf(source.id);
      const destinationIndex = this.indexOf(destination.id);
      for (const member of subtree) {
        const counts = countsOf(member);
        sourceIndex.visible -= counts.visible;
        sourceIndex.live -= counts.live;
        destinationIndex.visible += counts.visible;
        destinationIndex.live += counts.live;
        member.listId = destination.id;
        // Descendants keep their parents and sibling order; only the subtree's root is re-placed.
        if (member !== task) {
          member.updated = stamp;
          member.etag = newEtag();
          this.tasks.set(member.id, member);
        }
      }
      for (const member of subtree) {
        const kids = sourceIndex.children.get(member.id);
        if (kids) {
          sourceIndex.children.delete(member.id);
          destinationIndex.children.set(member.id, kids);
        }
      }
    }
    if (parentKey === TOP) delete task.parent;
    else task.parent = parentKey;
    task.updated = stamp;
    task.etag = newEtag();
    this.tree.place(this.indexOf(destination.id), task, parentKey, previous, detached);
    this.touchList(source);
    if (destination !== source) this.touchList(destination);
    return task;
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

  // ---------------------------------------------------------------- internals: users, lists, lookups

  private ensureUser(userId: string): StoredUser {
    this.load();
    const existing = this.users.get(userId);
    if (existing) return existing;
    const list = this.createList(userId, DEFAULT_LIST_TITLE);
    const user: StoredUser = { defaultListId: list.id };
    this.users.set(userId, user);
    return user;
  }

  private createList(userId: string, title: string): StoredTaskList {
    const stamp = this.stamp();
    // Strictly increasing, so lists keep their creation order across restarts and page tokens.
    this.lastCreated = Math.max(stamp, this.lastCreated + 1);
    const list: StoredTaskList = { id: newId(), userId, title, updated: stamp, created: this.lastCreated, etag: newEtag() };
    this.lists.set(list.id, list);
    const ids = this.listsByUser.get(userId) ?? [];
    ids.push(list.id);
    this.listsByUser.set(userId, ids);
    this.indexes.set(list.id, newListIndex());
    return list;
  }

  /** Another user's list is indistinguishable from a missing one. `@default` names the default list. */
  private ownList(userId: string, listId: string): StoredTaskList {
    const id = listId === '@default' ? (this.users.get(userId)?.defaultListId ?? '') : listId;
    const list = this.lists.get(id);
    if (!list || list.userId !== userId) throw notFound('Task list not found.');
    return list;
  }

  private taskIn(listId: string, taskId: string): StoredTask {
    const task = this.tasks.get(taskId);
    if (!task || task.listId !== listId) throw notFound('Task not found.');
    return task;
  }

  private touchList(list: StoredTaskList): void {
    list.updated = this.stamp();
    list.etag = newEtag();
    this.lists.set(list.id, list);
  }

  private stamp(): number {
    this.lastStamp = Math.max(this.now(), this.lastStamp);
    return this.lastStamp;
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const lists = [...this.lists.values()].sort((a, b) => a.created - b.created);
    for (const list of lists) {
      const ids = this.listsByUser.get(list.userId) ?? [];
      ids.push(list.id);
      this.listsByUser.set(list.userId, ids);
      this.indexes.set(list.id, newListIndex());
      this.lastStamp = Math.max(this.lastStamp, list.updated);
      this.lastCreated = Math.max(this.lastCreated, list.created);
    }
    for (const task of this.tasks.values()) {
      const index = this.indexes.get(task.listId);
      if (!index) continue;
      const key = task.parent ?? TOP;
      const siblings = index.children.get(key) ?? [];
      siblings.push(task.id);
      index.children.set(key, siblings);
      const counts = countsOf(task);
      index.visible += counts.visible;
      index.live += counts.live;
      this.lastStamp = Math.max(this.lastStamp, task.updated);
    }
    for (const index of this.indexes.values()) {
      for (const siblings of index.children.values()) {
        siblings.sort((a, b) => compare(this.tree.positionOf(a), this.tree.positionOf(b)));
      }
    }
  }

  private indexOf(listId: string): ListIndex {
    const index = this.indexes.get(listId);
    if (!index) throw new Error(`no index for list ${listId}`);
    return index;
  }

  private *tasksOf(listId: string): Generator<StoredTask> {
    for (const entry of this.tree.treeOf(this.indexOf(listId))) yield this.tasks.get(entry.id) as StoredTask;
  }

  // ---------------------------------------------------------------- internals: validation

  /** The parent key for a placement: must exist in the list, be neither hidden nor deleted, and not lie inside the moving task. */
  private validParent(listId: string, parentId: string | undefined, moving: StoredTask | undefined): string {
    if (parentId === undefined || parentId === '') return TOP;
    const parent = this.tasks.get(parentId);
    if (!parent || parent.listId !== listId) throw invalid(`Invalid value for parent: task '${parentId}' is not in this task list`, 'parent');
    if (parent.deleted || parent.hidden) throw invalid(`Invalid value for parent: task '${parentId}' is ${parent.deleted ? 'deleted' : 'hidden'}`, 'parent');
    if (moving) {
      for (let cursor: StoredTask | undefined = parent; cursor; cursor = cursor.parent ? this.tasks.get(cursor.parent) : undefined) {
        if (cursor.id === moving.id) throw invalid('Invalid value for parent: a task cannot be moved under itself or one of its subtasks', 'parent');
      }
    }
    return parent.id;
  }

  /** The previous sibling for a placement: must be a visible child of the same parent. */
  private validPrevious(listId: string, parentKey: string, previousId: string | undefined, moving: StoredTask | undefined): StoredTask | undefined {
    if (previousId === undefined || previousId === '') return undefined;
    const previous = this.tasks.get(previousId);
    if (!previous || previous.listId !== listId) throw invalid(`Invalid value for previous: task '${previousId}' is not in this task list`, 'previous');
    if (previous.deleted || previous.hidden) throw invalid(`Invalid value for previous: task '${previousId}' is ${previous.deleted ? 'deleted' : 'hidden'}`, 'previous');
    if (moving && previous.id === moving.id) throw invalid('Invalid value for previous: a task cannot follow itself', 'previous');
    if ((previous.parent ?? TOP) !== parentKey) throw invalid(`Invalid value for previous: task '${previousId}' is not a sibling under the given parent`, 'previous');
    return previous;
  }

  private checkRoomForTasks(userId: string, listId: string, visible: number, live = visible): void {
    const index = this.indexOf(listId);
    if (index.visible + visible > LIMITS.visibleTasksPerList) {
      throw limitExceeded(`A task list can hold at most ${LIMITS.visibleTasksPerList} tasks that are not hidden; clear completed tasks or use another list.`);
    }
    let total = 0;
    for (const id of this.listsByUser.get(userId) ?? []) total += this.indexes.get(id)?.live ?? 0;
    if (total + live > LIMITS.tasksPerUser) throw limitExceeded(`A user can have at most ${LIMITS.tasksPerUser} tasks.`);
  }

  private checkRoomForSubtasks(listId: string, parentKey: string, adding: number): void {
    if (parentKey === TOP) return;
    const siblings = this.indexOf(listId).children.get(parentKey) ?? [];
    let count = 0;
    for (const id of siblings) if (!this.tasks.get(id)?.deleted) count++;
    if (count + adding > LIMITS.subtasksPerTask) throw limitExceeded(`A task can have at most ${LIMITS.subtasksPerTask} subtasks.`);
  }

  private markDeleted(listId: string, root: StoredTask, stamp: number): void {
    const index = this.indexOf(listId);
    for (const member of this.tree.subtreeOf(this.indexOf(listId), root.id)) {
      if (member.deleted) continue;
      const counts = countsOf(member);
      index.visible -= counts.visible;
      index.live -= counts.live;
      member.deleted = true;
      member.updated = stamp;
      member.etag = newEtag();
      this.tasks.set(member.id, member);
    }
  }

  /** Why a deleted task cannot be restored, if it cannot (checked before updateTask changes anything). */
  private checkRestore(listId: string, task: StoredTask, hiddenAfter: boolean): void {
    const parent = task.parent ? this.tasks.get(task.parent) : undefined;
    if (parent?.deleted) throw invalid('Invalid value for deleted: the parent task is deleted; restore it first', 'deleted', 'body');
    this.checkRoomForTasks(task.userId, listId, hiddenAfter ? 0 : 1, 1);
  }

  private restore(listId: string, task: StoredTask): void {
    this.checkRestore(listId, task, task.hidden);
    const index = this.indexOf(listId);
    task.deleted = false;
    const counts = countsOf(task);
    index.visible += counts.visible;
    index.live += counts.live;
    this.tasks.set(task.id, task);
  }

  private setHidden(listId: string, task: StoredTask, hidden: boolean): void {
    if (task.hidden === hidden) return;
    const index = this.indexOf(listId);
    if (!task.deleted) index.visible += hidden ? -1 : 1;
    task.hidden = hidden;
  }
}

function countsOf(task: StoredTask): { visible: number; live: number } {
  return { visible: !task.deleted && !task.hidden ? 1 : 0, live: task.deleted ? 0 : 1 };
}

function matches(task: StoredTask, filters: TaskFilters): boolean {
  if (task.deleted && !filters.showDeleted) return false;
  if (task.hidden && !filters.showHidden) return false;
  if (task.status === 'completed' && !filters.showCompleted) return false;
  if (filters.updatedMin !== undefined && task.updated < filters.updatedMin) return false;
  if (filters.dueMin !== undefined || filters.dueMax !== undefined) {
    if (task.due === undefined) return false;
    const due = Date.parse(task.due);
    if (filters.dueMin !== undefined && due < filters.dueMin) return false;
    if (filters.dueMax !== undefined && due > filters.dueMax) return false;
  }
  if (filters.completedMin !== undefined || filters.completedMax !== undefined) {
    if (task.completed === undefined) return false;
    if (filters.completedMin !== undefined && task.completed < filters.completedMin) return false;
    if (filters.completedMax !== undefined && task.completed > filters.completedMax) return false;
  }
  return true;
}

function limitExceeded(message: string): ApiError {
  return new ApiError(403, 'limitExceeded', message, { domain: 'usageLimits' });
}
