/**
 * A task list's tree kept in order: sibling groups by `position` (fixed-width numbers with gaps, so most inserts and
 * moves touch one task) and a cached tree-order listing that inserts and moves splice rather than rebuild. Holds no
 * rules of the API (validation and limits stay in the model); only where tasks sit.
 */
import { newEtag } from '../core/etag';
import type { Collection } from '../store/store';
import type { StoredTask } from './records';
import { insertAll } from '../../shared/arrays';

/** One line of the cached tree-order listing: `key` is the path of sibling positions from the root. */
export interface TreeEntry {
  id: string;
  key: string;
}

/** A listing entry cut out by a move: its key relative to the moved task's own key. */
export interface Detached {
  id: string;
  suffix: string;
}

export interface ListIndex {
  /** Parent id ('' = top level) → child ids in position order (deleted and hidden ones included). */
  children: Map<string, string[]>;
  /** Tasks neither hidden nor deleted (the 20,000 limit counts these). */
  visible: number;
  /** Tasks not deleted (the per-user 100,000 limit). */
  live: number;
  /**
   * Tree order (parents by position, each followed by its subtasks), sorted by key because keys are
   * fixed-width position paths. Inserts and moves splice it; only a respacing drops it (rebuilt lazily).
   */
  tree?: TreeEntry[];
}

export const TOP = '';
const POSITION_DIGITS = 20;
/** Room between neighbours, so most inserts and moves take a midpoint and touch no other task. */
const POSITION_GAP = 2 ** 24;
/** First position of an empty sibling group: lets ~65,000 tasks go in front before a renumbering. */
const POSITION_BASE = 2 ** 40;
const MAX_POSITION = Number.MAX_SAFE_INTEGER - 1;
/** A respaced window leaves at least this much room between neighbours (~12 midpoint inserts). */
const MIN_RESPACED_GAP = 2 ** 12;

const formatPosition = (value: number): string => String(value).padStart(POSITION_DIGITS, '0');

export function newListIndex(): ListIndex {
  return { children: new Map(), visible: 0, live: 0 };
}

export class TaskTree {
  constructor(private readonly tasks: Collection<StoredTask>) {}

  positionOf(taskId: string): string {
    return this.tasks.get(taskId)?.position ?? '';
  }

  /** The cached tree-order listing, rebuilt only after a structural change. */
  treeOf(index: ListIndex): TreeEntry[] {
    if (index.tree) return index.tree;
    const tree: TreeEntry[] = [];
    const walk = (parentKey: string, prefix: string): void => {
      for (const id of index.children.get(parentKey) ?? []) {
        const key = prefix + this.positionOf(id);
        tree.push({ id, key });
        if (index.children.has(id)) walk(id, `${key}/`);
      }
    };
    walk(TOP, '');
    index.tree = tree;
    return tree;
  }

  subtreeOf(index: ListIndex, rootId: string): StoredTask[] {
    const result: StoredTask[] = [];
    const stack = [rootId];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      result.push(this.tasks.get(id) as StoredTask);
      for (const child of index.children.get(id) ?? []) stack.push(child);
    }
    return result;
  }


  /** Inserts `task` among the children of `parentKey` right after `previous` (or first), assigning its position. */
  place(index: ListIndex, task: StoredTask, parentKey: string, previous: StoredTask | undefined, subtree: Detached[] | undefined): void {
    const siblings = index.children.get(parentKey) ?? [];
    index.children.set(parentKey, siblings);
    const at = previous ? this.siblingIndex(siblings, previous) + 1 : 0;
    const before = at > 0 ? Number(this.positionOf(siblings[at - 1])) : undefined;
    const after = at < siblings.length ? Number(this.positionOf(siblings[at])) : undefined;
    let position: number | undefined;
    if (before === undefined && after === undefined) position = POSITION_BASE;
    else if (before === undefined) position = (after as number) - POSITION_GAP >= 0 ? (after as number) - POSITION_GAP : undefined;
    else if (after === undefined) position = before + POSITION_GAP <= MAX_POSITION ? before + POSITION_GAP : undefined;
    else {
      const middle = Math.floor((before + after) / 2);
      position = middle > before ? middle : undefined;
    }
    siblings.splice(at, 0, task.id);
    if (position !== undefined) {
      task.position = formatPosition(position);
      this.tasks.set(task.id, task);
      this.insertIntoTree(index, task, subtree);
      return;
    }
    // Respacing rewrites neighbours' positions, hence their keys: rebuild the listing lazily (rare).
    index.tree = undefined;
    this.respace(siblings, at, task);
  }

  /** Splices a placed task (and the subtree it carries) into the cached listing, keeping it sorted by key. */
  private insertIntoTree(index: ListIndex, task: StoredTask, subtree: Detached[] | undefined): void {
    const tree = index.tree;
    if (!tree) return;
    if (!subtree) {
      index.tree = undefined;
      return;
    }
    const key = this.keyOf(task);
    insertAll(tree, upperBound(tree, key), subtree.map((entry) => ({ id: entry.id, key: key + entry.suffix })));
  }

  /** The tree-order key of a task: its ancestors' positions and its own, joined by '/'. */
  private keyOf(task: StoredTask): string {
    let key = task.position;
    for (let ancestor = task.parent ? this.tasks.get(task.parent) : undefined; ancestor; ancestor = ancestor.parent ? this.tasks.get(ancestor.parent) : undefined) {
      key = `${ancestor.position}/${key}`;
    }
    return key;
  }

  /**
   * No room left between the neighbours: spread out a window around `at`, doubling it until its share
   * of the position range leaves comfortable gaps again. Only that window's tasks change (amortised
   * O(log n) per insert, where renumbering the whole sibling group would be O(n)).
   */
  private respace(siblings: readonly string[], at: number, placed: StoredTask): void {
    for (let radius = 8; ; radius *= 2) {
      const start = Math.max(0, at - radius);
      const end = Math.min(siblings.length, at + radius + 1);
      const low = start > 0 ? Number(this.positionOf(siblings[start - 1])) : -1;
      const high = end < siblings.length ? Number(this.positionOf(siblings[end])) : MAX_POSITION + 1;
      const step = Math.floor((high - low) / (end - start + 1));
      if (step < MIN_RESPACED_GAP && !(start === 0 && end === siblings.length)) continue;
      for (let offset = 0; offset < end - start; offset++) {
        const id = siblings[start + offset];
        const sibling = id === placed.id ? placed : (this.tasks.get(id) as StoredTask);
        sibling.position = formatPosition(low + step * (offset + 1));
        if (sibling !== placed) sibling.etag = newEtag();
        this.tasks.set(sibling.id, sibling);
      }
      return;
    }
  }

  /**
   * Takes a task out of its sibling group. Returns its subtree's entries cut from the cached listing
   * (keys relative to the task) so place() can splice them back, or undefined when there is no cache.
   */
  unplace(index: ListIndex, task: StoredTask): Detached[] | undefined {
    const parentKey = task.parent ?? TOP;
    let detached: Detached[] | undefined;
    const tree = index.tree;
    if (tree) {
      const key = this.keyOf(task);
      const start = upperBound(tree, key) - 1;
      if (start >= 0 && (tree[start]).id === task.id) {
        const prefix = `${key}/`;
        let end = start + 1;
        while (end < tree.length && (tree[end]).key.startsWith(prefix)) end++;
        detached = tree.splice(start, end - start).map((entry) => ({ id: entry.id, suffix: entry.key.slice(key.length) }));
      } else {
        index.tree = undefined;
      }
    }
    const siblings = index.children.get(parentKey) ?? [];
    const at = this.siblingIndex(siblings, task);
    if (at >= 0) siblings.splice(at, 1);
    if (siblings.length === 0 && parentKey !== TOP) index.children.delete(parentKey);
    return detached;
  }

  /** Binary search by position (unique among siblings), so a placement never scans the list. */
  private siblingIndex(siblings: readonly string[], task: StoredTask): number {
    let low = 0;
    let high = siblings.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(this.positionOf(siblings[middle]), task.position) < 0) low = middle + 1;
      else high = middle;
    }
    if (siblings[low] === task.id) return low;
    return siblings.indexOf(task.id);
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** First entry whose key sorts after `key`. */
export function upperBound(tree: readonly TreeEntry[], key: string): number {
  let low = 0;
  let high = tree.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((tree[middle]).key <= key) low = middle + 1;
    else high = middle;
  }
  return low;
}
