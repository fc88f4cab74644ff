/**
 * The Tasks model's storage and indexes: task lists and tasks in Store collections, and in memory the per-list indexes
 * (children in position order, a cached tree-order listing, counters), rebuilt from the store on first use. The list
 * and task operations (lists.ts, model.ts) build on its lookups.
 */
import { newEtag } from '../core/etag';
import { notFound } from '../core/errors';
import { Collection, Store } from '../store/store';
import { countsOf, DEFAULT_LIST_TITLE, newId, StoredTask, StoredTaskList, StoredUser } from './records';
import { compare, ListIndex, newListIndex, TaskTree, TOP } from './tree';

/** The shared storage and lookups of TaskListsModel and TasksModel. */
export class TasksState {
  protected readonly lists: Collection<StoredTaskList>;
  protected readonly tasks: Collection<StoredTask>;
  /** Where each task sits: sibling order and the cached tree-order listing. */
  protected readonly tree: TaskTree;
  protected readonly users: Collection<StoredUser>;
  private loaded = false;
  protected readonly listsByUser = new Map<string, string[]>();
  protected readonly indexes = new Map<string, ListIndex>();
  /** Keeps `updated` from going backwards if the clock does, so updatedMin syncs miss nothing. */
  private lastStamp = 0;
  private lastCreated = 0;

  constructor(store: Store, private readonly now: () => number) {
    this.lists = store.collection<StoredTaskList>('tasks.lists');
    this.tasks = store.collection<StoredTask>('tasks.tasks');
    this.tree = new TaskTree(this.tasks);
    this.users = store.collection<StoredUser>('tasks.users');
  }

  protected ensureUser(userId: string): StoredUser {
    this.load();
    const existing = this.users.get(userId);
    if (existing) return existing;
    const list = this.createList(userId, DEFAULT_LIST_TITLE);
    const user: StoredUser = { defaultListId: list.id };
    this.users.set(userId, user);
    return user;
  }

  protected createList(userId: string, title: string): StoredTaskList {
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
  protected ownList(userId: string, listId: string): StoredTaskList {
    const id = listId === '@default' ? (this.users.get(userId)?.defaultListId ?? '') : listId;
    const list = this.lists.get(id);
    if (!list || list.userId !== userId) throw notFound('Task list not found.');
    return list;
  }

  protected taskIn(listId: string, taskId: string): StoredTask {
    const task = this.tasks.get(taskId);
    if (!task || task.listId !== listId) throw notFound('Task not found.');
    return task;
  }

  protected touchList(list: StoredTaskList): void {
    list.updated = this.stamp();
    list.etag = newEtag();
    this.lists.set(list.id, list);
  }

  protected stamp(): number {
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

  protected indexOf(listId: string): ListIndex {
    const index = this.indexes.get(listId);
    if (!index) throw new Error(`no index for list ${listId}`);
    return index;
  }

  protected *tasksOf(listId: string): Generator<StoredTask> {
    for (const entry of this.tree.treeOf(this.indexOf(listId))) yield this.tasks.get(entry.id) as StoredTask;
  }
}
