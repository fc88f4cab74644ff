import type { Task, TaskList } from '../../../shared/schemas/tasks';
import { TASKS_MIME, TASKS_TREE_VIEW } from '../../../config/treeViews';
import type { TaskRef } from './dropPlan';

/**
 * The rows of the Tasks tree. Ids are stable across reloads (`list/<id>`, `task/<list>/<id>`), so VS Code
 * keeps expansion and selection, and `reveal` finds a row again; every node knows its parent for getParent.
 */
export class TaskListNode {
  readonly kind = 'list';
  readonly parent = undefined;
  constructor(private current: TaskList) {}

  /** The list as last loaded (the model keeps one node per list and updates it: see TasksTreeModel.listNodeOf). */
  get list(): TaskList {
    return this.current;
  }

  /** The same list loaded again (renamed, say): the row keeps its identity, which VS Code's refreshes go by. */
  update(list: TaskList): void {
    this.current = list;
  }

  get id(): string {
    return `list/${this.list.id}`;
  }

  get listId(): string {
    return this.list.id;
  }
}

export class TaskNode {
  readonly kind = 'task';
  constructor(
    readonly listId: string,
    readonly task: Task,
    readonly parent: TaskListNode | TaskNode,
    readonly hasChildren: boolean,
  ) {}

  get id(): string {
    return `task/${this.listId}/${this.task.id}`;
  }

  /** Ancestor ids, the parent first (for drop rules and cycle checks). */
  get ancestors(): string[] {
    const ids: string[] = [];
    for (let node: TaskListNode | TaskNode = this.parent; node.kind === 'task'; node = node.parent) ids.push(node.task.id);
    return ids;
  }

  get ref(): TaskRef {
    return { listId: this.listId, taskId: this.task.id, ancestors: this.ancestors };
  }

  get list(): TaskListNode {
    let node: TaskListNode | TaskNode = this.parent;
    while (node.kind === 'task') node = node.parent;
    return node;
  }
}

/** A row that is not data: "No tasks", "Loading more…", or a load error with a retry. */
export class MessageNode {
  readonly kind = 'message';
  constructor(
    readonly parent: TaskListNode | undefined,
    readonly key: string,
    readonly label: string,
    readonly severity: 'info' | 'error' = 'info',
  ) {}

  get id(): string {
    return `message/${this.parent?.listId ?? ''}/${this.key}`;
  }
}

export type TasksNode = TaskListNode | TaskNode | MessageNode;

export const TASKS_VIEW_ID = TASKS_TREE_VIEW.id;
export { TASKS_MIME };
