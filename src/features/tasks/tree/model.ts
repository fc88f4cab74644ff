import type { Task } from '../../../shared/schemas/tasks';

/**
 * From the flat task list the API returns (any order, pages) to the nested tree the view shows. Pure, so
 * the rules are unit-tested: siblings in `position` order, subtasks under their parent, deleted and hidden
 * tasks left out.
 */
export interface TaskTreeEntry {
  readonly task: Task;
  readonly children: readonly TaskTreeEntry[];
}

/** Google pads positions to 20 digits, so string order is the order; digits of unequal length compare as numbers. */
export function comparePositions(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareTasks(a: Task, b: Task): number {
  return comparePositions(a.position, b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface BuildOptions {
  /**
   * Whether every page has arrived. Until then a subtask whose parent is not loaded yet is held back (its
   * parent may be on the next page); once complete, such a task is shown at the top level (its parent may be
   * completed and filtered out, or hidden).
   */
  readonly complete: boolean;
}

export function buildTaskTree(tasks: readonly Task[], options: BuildOptions): TaskTreeEntry[] {
  const visible = tasks.filter((task) => !task.deleted && !task.hidden);
  const byId = new Map(visible.map((task) => [task.id, task]));
  const childrenOf = new Map<string | undefined, Task[]>();
  for (const task of visible) {
    let parent = task.parent && task.parent !== task.id ? task.parent : undefined;
    if (parent !== undefined && !byId.has(parent)) {
      if (!options.complete) continue;
      parent = undefined;
    }
    const siblings = childrenOf.get(parent) ?? [];
    siblings.push(task);
    childrenOf.set(parent, siblings);
  }
  const placed = new Set<string>();
  const build = (parent: string | undefined): TaskTreeEntry[] =>
    (childrenOf.get(parent) ?? [])
      .sort(compareTasks)
      // A parent cycle from a broken server must not recurse forever: each task is placed once.
      .filter((task) => !placed.has(task.id) && placed.add(task.id))
      .map((task) => ({ task, children: build(task.id) }));
  const roots = build(undefined);
  if (options.complete) {
    // Tasks caught in a parent cycle are reachable from no root: show them rather than lose them.
    for (const task of [...visible].sort(compareTasks)) {
      if (placed.has(task.id)) continue;
      placed.add(task.id);
      roots.push({ task, children: build(task.id) });
    }
  }
  return roots;
}

/** Every task in the tree, depth first (for pickers and lookups). */
export function flattenTree(entries: readonly TaskTreeEntry[]): Array<{ task: Task; depth: number }> {
  const result: Array<{ task: Task; depth: number }> = [];
  const visit = (list: readonly TaskTreeEntry[], depth: number): void => {
    for (const entry of list) {
      result.push({ task: entry.task, depth });
      visit(entry.children, depth + 1);
    }
  };
  visit(entries, 0);
  return result;
}
