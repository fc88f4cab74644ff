/**
 * What a drop in the Tasks tree means, as tasks.move calls. VS Code's tree has no "between rows" drop
 * target, only "on a row", so the rules are:
 * - on a task list: to the top level of that list, first position;
 * - on a sibling (same list, same parent): reorder, right after that sibling;
 * - on any other task: becomes its subtask, first position (dropping on its own parent moves it to the top
 *   of its siblings);
 * - on another list's row or task: moved there with `destinationTasklist`.
 * Pure, so it is unit-tested without a window.
 */
export interface TaskRef {
  readonly listId: string;
  readonly taskId: string;
  /** Ancestor task ids, nearest (the parent) first; empty at the top level. */
  readonly ancestors: readonly string[];
}

export type DropTarget =
  | { readonly kind: 'list'; readonly listId: string }
  | { readonly kind: 'task'; readonly ref: TaskRef };

/** The parameters of one tasks.move call. */
export interface MoveRequest {
  readonly tasklist: string;
  readonly task: string;
  readonly parent?: string;
  readonly previous?: string;
  readonly destinationTasklist?: string;
}

const parentOf = (ref: TaskRef): string | undefined => ref.ancestors[0];

export function planDrop(dragged: readonly TaskRef[], target: DropTarget): MoveRequest[] {
  const draggedIds = new Set(dragged.map((ref) => `${ref.listId}/${ref.taskId}`));
  const movable = dragged.filter((ref, index) => {
    // Each task once; a subtask whose ancestor is dragged too travels with it.
    if (dragged.findIndex((other) => other.listId === ref.listId && other.taskId === ref.taskId) !== index) return false;
    if (ref.ancestors.some((id) => draggedIds.has(`${ref.listId}/${id}`))) return false;
    // A task cannot go under itself or under one of its own subtasks.
    if (target.kind === 'task' && target.ref.listId === ref.listId) {
      if (target.ref.taskId === ref.taskId || target.ref.ancestors.includes(ref.taskId)) return false;
    }
    return true;
  });
  if (movable.length === 0) return [];

  const destinationList = target.kind === 'list' ? target.listId : target.ref.listId;
  let parent: string | undefined;
  let previous: string | undefined;
  if (target.kind === 'task') {
    const siblings = movable.every((ref) => ref.listId === destinationList && parentOf(ref) === parentOf(target.ref));
    if (siblings) {
      parent = parentOf(target.ref);
      previous = target.ref.taskId;
    } else {
      parent = target.ref.taskId;
    }
  }

  return movable.map((ref) => {
    const request: MoveRequest = {
      tasklist: ref.listId,
      task: ref.taskId,
      ...(parent !== undefined ? { parent } : {}),
      ...(previous !== undefined ? { previous } : {}),
      ...(ref.listId !== destinationList ? { destinationTasklist: destinationList } : {}),
    };
    // Several tasks keep their dragged order: each goes right after the one before it.
    previous = ref.taskId;
    return request;
  });
}

/** The lists whose rows change after these moves (to refresh only those). */
export function affectedLists(requests: readonly MoveRequest[]): string[] {
  return [...new Set(requests.flatMap((request) => [request.tasklist, request.destinationTasklist ?? request.tasklist]))];
}
