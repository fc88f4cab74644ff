/**
 * The Google Tasks semantics, free of HTTP: task lists per user, tasks in a tree ordered by `position`,
 * move/clear/delete rules, filters and paging. Documents live in Store collections; the per-list
 * indexes (children in position order, a cached tree-order listing, counters) live in memory and are
 * rebuilt from the store on first use, so every operation stays cheap as a list grows to 20,000 tasks.
 */
import { newEtag } from '../core/etag';
import { decodePageToken, encodePageToken, invalidPageToken } from '../core/paging';
import { TaskInput, TaskStatus } from '../../shared/schemas/tasks';
import { invalid } from '../core/errors';
import { TaskListsModel } from './lists';
import { countsOf, LIMITS, limitExceeded, matches, newId, Page, Placement, StoredTask, TaskFilters, truncateDue } from './records';
import { TOP, upperBound } from './tree';

export { DEFAULT_LIST_TITLE, LIMITS, newId, truncateDue } from './records';
export type { Page, Placement, StoredTask, StoredTaskList, TaskFilters } from './records';

/** Tasks: listing with filters in tree order, get, insert, update/patch, delete, clear and move, on top of the lists. */
export class TasksModel extends TaskListsModel {
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
      const entry = tree[index];
      const task = this.tasks.get(entry.id) as StoredTask;
      if (!matches(task, filters)) continue;
      items.push(task);
      lastKey = entry.key;
    }
    const page: Page<StoredTask> = { items, etag: list.etag };
    // Only promise another page when one more task matches, so the last page carries no token.
    if (lastKey !== undefined && items.length === filters.maxResults) {
      for (; index < tree.length; index++) {
        if (matches(this.tasks.get((tree[index]).id) as StoredTask, filters)) {
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
