/**
 * The Tasks tree's model, without vscode: the pure ordering of a list's tasks (siblings in `position` order, subtasks
 * under their parent, deleted and hidden tasks left out) and the TasksTreeModel that loads lists and pages of tasks
 * into nodes for the provider to render.
 */
import { errorMessage, isUnreachable } from '../../../api/errors';
import { TASK_LIST_ROW_FIELDS, TASK_ROW_FIELDS } from '../../../api/tasks';
import { NotSignedInError } from '../../../core/accounts/session';
import { english, Translate } from '../../../shared/l10n';
import { FirstRowsFromCache, type ViewSnapshotStore } from '../../../core/storage/viewCache';
import type { Task, TaskList, TasksPage } from '../../../shared/schemas/tasks';
import type { TasksSnapshot } from './snapshot';
import type { TasksApi } from '../port';
import { MessageNode, TaskListNode, TaskNode, TasksNode } from './nodes';
import { compareDigits } from '../../../shared/decimal';
import { appendAll } from '../../../shared/arrays';

/** From the flat task list the API returns (any order, pages) to the nested tree the view shows. */
export interface TaskTreeEntry {
  readonly task: Task;
  readonly children: readonly TaskTreeEntry[];
}

/** Google pads positions to 20 digits, so string order is the order; digits of unequal length compare as numbers. */
export function comparePositions(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) {
    return compareDigits(a, b);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A position sorting between two (Google's 20-digit form); '' sorts first. For tasks moved offline, until a reload. */
export function positionBetween(before: string | undefined, after: string | undefined): string {
  if (before === undefined || !/^\d+$/.test(before)) return '';
  const low = BigInt(before);
  const high = after !== undefined && /^\d+$/.test(after) ? BigInt(after) : low + 2n;
  return ((low + high) / 2n).toString().padStart(before.length, '0');
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

/** Every page of a list's tasks, lazily: the first one renders before the others are fetched. */
export async function* taskPages(api: TasksApi, listId: string, options: { showCompleted: boolean; maxResults: number }): AsyncGenerator<TasksPage> {
  let pageToken: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await api.listTasks(listId, { showCompleted: options.showCompleted, showHidden: false, maxResults: options.maxResults, pageToken, fields: TASK_ROW_FIELDS });
    yield page;
    pageToken = page.nextPageToken || undefined;
    if (pageToken && seen.has(pageToken)) return; // a server repeating a token would loop forever
    if (pageToken) seen.add(pageToken);
  } while (pageToken);
}

/** Tasks kept per list: enough for the first screen, small enough for the file's bound. */
const CACHED_TASKS_PER_LIST = 100;

export interface TasksTreeModelOptions {
  readonly api: TasksApi;
  readonly showCompleted: () => boolean;
  readonly pageSize: () => number;
  /** Shows progress on the view while `work` runs. */
  readonly withProgress: <T>(work: () => Promise<T>) => Promise<T>;
  readonly log: (message: string) => void;
  /** A list's loading ended after its first page (the last page came, or a later one failed): its row can redraw. */
  readonly onListLoaded: (listId: string) => void;
  /** The view's slot of its account (tree/snapshot.ts): shown at the first start, marked refreshing, until the lists come. */
  readonly cache?: ViewSnapshotStore<TasksSnapshot>;
  /** The fresh lists replaced the cached rows: redraw everything (the same ids, so expansion and selection stay). */
  readonly onRefreshed?: () => void;
  readonly t?: Translate;
}

/** What is loaded of one list: the first page is awaited, the rest arrives in the background. */
interface ListState {
  readonly tasks: Task[];
  complete: boolean;
  error: unknown;
  firstPage: Promise<void>;
  readonly rest: Promise<void>;
}

/**
 * The Tasks tree's data, without vscode: task lists → tasks → subtasks as nodes with stable ids and parents. Nothing
 * loads until asked; a list loads when first expanded, gives its first page at once and fills in the rest in the
 * background; invalidating touches only the list that changed. The provider (treeProvider.ts) only renders.
 */
export class TasksTreeModel {
  private lists: Promise<TaskList[]> | undefined;
  private readonly listStates = new Map<string, ListState>();
  private readonly listNodes = new Map<string, TaskListNode>();
  /** Children of task rows, from the last build of their list. */
  private readonly childNodes = new Map<string, TaskNode[]>();
  private readonly taskNodes = new Map<string, TaskNode>();
  private readonly t: Translate;
  /** The last session's rows, read once at the view's first start (a snapshot with no list is not shown). */
  private readonly firstRows: FirstRowsFromCache<TasksSnapshot>;
  /**
   * What the view last showed of this account (loaded this session, or the cached rows after a reload): offline, the
   * view keeps showing it instead of error rows. Kept across Refresh and reconnects; forgotten when the account changes.
   */
  private knownLists: TaskList[] | undefined;
  private readonly knownTasks = new Map<string, Task[]>();

  constructor(private readonly options: TasksTreeModelOptions) {
    this.t = options.t ?? english;
    this.firstRows = new FirstRowsFromCache(options.cache, () => options.onRefreshed?.(), { showsRows: (snapshot) => snapshot.lists.length > 0 });
  }

  /**
   * Forget everything (sign-in, backend change, "Refresh"); the cached rows are not shown again this session. What was
   * shown stays for offline unless `accountChanged`.
   */
  reset(options: { accountChanged?: boolean } = {}): void {
    if (options.accountChanged) {
      this.knownLists = undefined;
      this.knownTasks.clear();
    }
    this.firstRows.reset();
    this.lists = undefined;
    this.listStates.clear();
    this.childNodes.clear();
    this.taskNodes.clear();
  }

  /** The tasks of one list load again; its row (and expansion) stays. */
  invalidateList(listId: string): void {
    this.listStates.delete(listId);
  }

  /**
   * A task as Desk's own write (complete, reopen) answered it, put in place in its loaded list: no reload, and its
   * row keeps its id (expansion and selection stay). False when the list is not all loaded or lacks the task: the
   * caller reloads the list then. With completed tasks hidden, a task completed here leaves, as a reload shows.
   */
  applyTask(listId: string, task: Task): boolean {
    const state = this.listStates.get(listId);
    if (!state?.complete || state.error) return false;
    const index = state.tasks.findIndex((candidate) => candidate.id === task.id);
    if (index === -1) return false;
    if (task.status === 'completed' && !this.options.showCompleted()) state.tasks.splice(index, 1);
    else state.tasks[index] = task;
    this.knownTasks.set(listId, [...state.tasks]);
    this.saveSnapshot();
    return true;
  }

  /**
   * A task made offline (its id Desk's own until the write is replayed), shown at once at the top of its list, or
   * after `previous`. False when the list is not loaded: nothing to put it into (the queue still has it).
   */
  addLocalTask(listId: string, task: Task, previous?: string): boolean {
    const state = this.listStates.get(listId);
    const tasks = state?.complete && !state.error ? state.tasks : this.knownTasks.get(listId);
    if (!tasks) return false;
    const at = previous ? tasks.findIndex((candidate) => candidate.id === previous) + 1 : 0;
    tasks.splice(at, 0, task);
    if (state?.tasks !== tasks) this.knownTasks.set(listId, tasks);
    else this.knownTasks.set(listId, [...tasks]);
    this.saveSnapshot();
    return true;
  }

  /**
   * A task changed offline, as the view should show it: in its loaded list, or in what is known of it offline. False
   * when neither has it.
   */
  applyLocalTask(listId: string, task: Task): boolean {
    if (this.applyTask(listId, task)) return true;
    const known = this.knownTasks.get(listId);
    const index = known?.findIndex((candidate) => candidate.id === task.id) ?? -1;
    if (!known || index === -1) return false;
    known[index] = task;
    this.saveSnapshot();
    return true;
  }

  /** A task deleted offline leaves the rows at once, with its subtasks (as the service deletes them). */
  removeLocalTask(listId: string, taskId: string): boolean {
    let removed = false;
    for (const tasks of this.shownTasks(listId)) {
      const gone = new Set([taskId]);
      for (const task of tasks) if (task.parent && gone.has(task.parent)) gone.add(task.id);
      for (let index = tasks.length - 1; index >= 0; index--) {
        if (gone.has((tasks[index]).id)) {
          tasks.splice(index, 1);
          removed = true;
        }
      }
    }
    if (removed) this.saveSnapshot();
    return removed;
  }

  /**
   * A task moved offline, shown at its new place: under `parent` (or at the top level), right after `previous` (or
   * first), in `toListId`. Its subtasks go with it. The service's positions come with the next load after replay.
   */
  moveLocalTask(listId: string, taskId: string, place: { parent?: string; previous?: string; toListId: string }): boolean {
    const source = this.shownTasks(listId).at(0);
    const moving = source?.filter((task) => task.id === taskId) ?? [];
    const task = moving.at(0);
    if (!source || !task) return false;
    const family = new Set([taskId]);
    for (const candidate of source) if (candidate.parent && family.has(candidate.parent)) family.add(candidate.id);
    const subtasks = source.filter((candidate) => family.has(candidate.id) && candidate.id !== taskId);
    const siblings = (this.shownTasks(place.toListId).at(0) ?? []).filter((candidate) => (candidate.parent ?? undefined) === place.parent && !family.has(candidate.id)).sort(compareTasks);
    const after = place.previous ? siblings.findIndex((candidate) => candidate.id === place.previous) + 1 : 0;
    const position = positionBetween(siblings[after - 1]?.position, siblings[after]?.position);
    const moved: Task = { ...task, position, ...(place.parent ? { parent: place.parent } : { parent: undefined }) };
    if (place.toListId === listId) return this.applyLocalTask(listId, moved);
    this.removeLocalTask(listId, taskId);
    for (const tasks of this.shownTasks(place.toListId)) tasks.push(moved, ...subtasks);
    this.saveSnapshot();
    return true;
  }

  /** The arrays the rows of a list are drawn from: the loaded list, and what is known of it offline. */
  private shownTasks(listId: string): Task[][] {
    const state = this.listStates.get(listId);
    const loaded = state?.complete && !state.error ? state.tasks : undefined;
    const known = this.knownTasks.get(listId);
    return [loaded, known].filter((tasks, index, all): tasks is Task[] => tasks !== undefined && all.indexOf(tasks) === index);
  }

  /** A task added offline got its id from the service (its add was replayed): the row shows the service's task. */
  replaceLocalTask(listId: string, localId: string, task: Task): void {
    for (const tasks of [this.listStates.get(listId)?.tasks, this.knownTasks.get(listId)]) {
      const index = tasks?.findIndex((candidate) => candidate.id === localId) ?? -1;
      if (tasks && index !== -1) tasks[index] = task;
    }
    this.saveSnapshot();
  }

  /** Whether the rows shown for a list are the last known ones (offline), not a fresh load. */
  showsKnownRows(listId: string): boolean {
    const state = this.listStates.get(listId);
    return state === undefined || Boolean(state.error) ? this.knownTasks.has(listId) : false;
  }

  /** The list set changed (created, renamed, deleted): the lists load again, loaded tasks stay. */
  invalidateLists(): void {
    this.lists = undefined;
  }

  /** The lists; offline, those last shown (commands still find a list to add to). */
  async taskLists(): Promise<TaskList[]> {
    this.lists ??= this.loadLists();
    const loading = this.lists;
    try {
      return await loading;
    } catch (error) {
      if (!isUnreachable(error) || !this.knownLists) throw error;
      if (this.lists === loading) this.lists = undefined;
      return this.knownLists;
    }
  }

  listNode(listId: string): TaskListNode | undefined {
    return this.listNodes.get(listId);
  }

  taskNode(listId: string, taskId: string): TaskNode | undefined {
    return this.taskNodes.get(`task/${listId}/${taskId}`);
  }

  /** Every task of a list, all pages, as a tree (for pickers). */
  async allTasks(listId: string): Promise<TaskTreeEntry[]> {
    const state = this.stateOf(listId);
    await state.firstPage;
    await state.rest;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the list's request failed with, kept on its state
    if (state.error) throw state.error;
    return buildTaskTree(state.tasks, { complete: true });
  }

  /** Open tasks of a list once its loading ended (its row's "N open"); undefined until then. */
  openCount(listId: string): number | undefined {
    const state = this.listStates.get(listId);
    if (state?.complete) return state.error ? undefined : openCount(state.tasks);
    // At a start from the cache: the count the row had last session, when the cache holds the whole list.
    const cached = this.firstRows.snapshot?.tasks[listId];
    return cached && cached.length < CACHED_TASKS_PER_LIST ? openCount(cached) : undefined;
  }

  /** The last load of a list failed (some or all of its tasks are missing). */
  loadFailed(listId: string): boolean {
    return Boolean(this.listStates.get(listId)?.error);
  }

  /** Rows shown are the cached ones of the last session, waiting for the first answer. */
  get refreshing(): boolean {
    return this.firstRows.refreshing;
  }

  /** Reads the cached rows now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.firstRows.prefetch();
  }

  /** Whether the first rows come from the cache (see FirstRowsFromCache.startsFromCache). */
  startsFromCache(): Promise<boolean> {
    return this.firstRows.startsFromCache();
  }

  /** The list rows, or one error row; at the first start the cached rows while the fresh ones load. */
  async roots(): Promise<TasksNode[]> {
    const cached = await this.firstRows.firstStart(() => this.taskLists());
    if (cached) {
      this.knowSnapshot(cached);
      // The lists whose rows said "N open" last session load now, collapsed as they may be (a reload into another
      // workspace forgets which were open): their counts stay on the rows, fresh once loaded.
      const cachedTasks: Partial<Record<string, unknown>> = cached.tasks;
      for (const list of cached.lists) if (cachedTasks[list.id]) this.stateOf(list.id);
      return cached.lists.map((list) => this.listNodeOf(list));
    }
    try {
      const lists = await this.taskLists();
      this.knownLists = lists;
      return lists.map((list) => this.listNodeOf(list));
    } catch (error) {
      this.lists = undefined;
      if (error instanceof NotSignedInError) return [];
      // Offline: the lists as last shown (the view's header says it is offline); a first start with none says so once.
      if (isUnreachable(error)) {
        if (this.knownLists) return this.knownLists.map((list) => this.listNodeOf(list));
        return [new MessageNode(undefined, 'offline', this.t('Not available offline'))];
      }
      this.options.log(`Could not load the task lists: ${errorMessage(error)}`);
      return [new MessageNode(undefined, 'error', this.t('Could not load the task lists: {0}', errorMessage(error, this.t)), 'error')];
    }
  }

  /** A list's rows as loaded so far: its tasks, then "Loading more tasks…", "No tasks" or an error row. */
  async listChildren(listNode: TaskListNode): Promise<TasksNode[]> {
    const cachedTasks = this.firstRows.snapshot?.tasks[listNode.listId];
    const state = this.stateOf(listNode.listId);
    // The list's tasks load alongside the lists (no waterfall); meanwhile its cached rows show.
    if (cachedTasks && cachedTasks.length > 0) return this.toNodes(listNode, listNode, buildTaskTree(cachedTasks, { complete: true }));
    await state.firstPage;
    if (state.error && isUnreachable(state.error)) {
      if (this.listStates.get(listNode.listId) === state) this.listStates.delete(listNode.listId);
      // Offline: the tasks as last shown, never an error row; a list never loaded says so in one row.
      const known = this.knownTasks.get(listNode.listId);
      if (!known) return [new MessageNode(listNode, 'offline', this.t('Not available offline'))];
      const rows: TasksNode[] = this.toNodes(listNode, listNode, buildTaskTree(known, { complete: true }));
      if (rows.length === 0) rows.push(new MessageNode(listNode, 'empty', this.options.showCompleted() ? this.t('No tasks') : this.t('No open tasks')));
      return rows;
    }
    if (state.error && state.tasks.length === 0) {
      if (state.error instanceof NotSignedInError) return [];
      // Forget the failed load so the retry row (or the next expansion) tries again.
      if (this.listStates.get(listNode.listId) === state) this.listStates.delete(listNode.listId);
      return [new MessageNode(listNode, 'error', this.t('Could not load the tasks: {0}', errorMessage(state.error, this.t)), 'error')];
    }
    const entries = buildTaskTree(state.tasks, { complete: state.complete });
    const rows: TasksNode[] = this.toNodes(listNode, listNode, entries);
    if (state.error) {
      if (this.listStates.get(listNode.listId) === state) this.listStates.delete(listNode.listId);
      rows.push(new MessageNode(listNode, 'error', this.t('Some tasks could not be loaded: {0}', errorMessage(state.error, this.t)), 'error'));
    } else if (!state.complete) rows.push(new MessageNode(listNode, 'loading', this.t('Loading more tasks…')));
    else if (rows.length === 0) rows.push(new MessageNode(listNode, 'empty', this.options.showCompleted() ? this.t('No tasks') : this.t('No open tasks')));
    return rows;
  }

  /** The subtasks of a task row, from the last build of its list. */
  taskChildren(node: TaskNode): TaskNode[] {
    return this.childNodes.get(node.id) ?? [];
  }

  /** The cached rows of a reload, known for offline until fresher ones load. */
  private knowSnapshot(snapshot: TasksSnapshot): void {
    this.knownLists ??= snapshot.lists;
    for (const [listId, tasks] of Object.entries(snapshot.tasks)) if (!this.knownTasks.has(listId)) this.knownTasks.set(listId, tasks);
  }

  /**
   * One node per list for as long as the model lives, updated in place: VS Code's extension host matches a refresh
   * to the row object it was given (not its id) and ignores an unknown object. A new object per call of roots() (Desk's
   * own calls, a reveal's) left every later refresh of that list unheard: VS Code kept the list's old rows, and
   * reveal failed on a task added since ("Cannot resolve tree item").
   */
  private listNodeOf(list: TaskList): TaskListNode {
    const known = this.listNodes.get(list.id);
    if (known) {
      known.update(list);
      return known;
    }
    const node = new TaskListNode(list);
    this.listNodes.set(list.id, node);
    return node;
  }

  /** Keeps what the view shows now for the next start (the lists, and the first tasks of each list loaded). */
  private saveSnapshot(): void {
    const lists = this.lists ?? (this.knownLists ? Promise.resolve(this.knownLists) : undefined);
    if (!lists) return;
    void lists.then(
      (lists) => {
        const tasks: Record<string, Task[]> = {};
        for (const list of lists) {
          const state = this.listStates.get(list.id);
          const shown = state?.complete && !state.error ? state.tasks : this.knownTasks.get(list.id);
          if (shown) tasks[list.id] = shown.slice(0, CACHED_TASKS_PER_LIST);
        }
        this.firstRows.save({ lists, tasks });
      },
      () => undefined,
    );
  }

  private loadLists(): Promise<TaskList[]> {
    return this.options.withProgress(async () => {
      const lists: TaskList[] = [];
      for await (const list of this.options.api.allTaskLists({ fields: TASK_LIST_ROW_FIELDS })) lists.push(list);
      return lists;
    }).then((lists) => {
      queueMicrotask(() => { this.saveSnapshot(); });
      return lists;
    });
  }

  private stateOf(listId: string): ListState {
    let state = this.listStates.get(listId);
    if (!state) {
      state = this.startLoading(listId);
      this.listStates.set(listId, state);
    }
    return state;
  }

  private startLoading(listId: string): ListState {
    const pages = taskPages(this.options.api, listId, { showCompleted: this.options.showCompleted(), maxResults: this.options.pageSize() });
    const tasks: Task[] = [];
    let resolveRest: () => void = () => undefined;
    const state: ListState = {
      tasks,
      complete: false,
      error: undefined,
      firstPage: Promise.resolve(),
      rest: new Promise<void>((resolve) => {
        resolveRest = resolve;
      }),
    };
    const isCurrent = (): boolean => this.listStates.get(listId) === state;
    const fail = (error: unknown): void => {
      state.error = error;
      state.complete = true;
      this.options.log(`Could not load the tasks of list ${listId}: ${errorMessage(error)}`);
    };
    const firstPage = this.options.withProgress(async () => {
      try {
        const first = await pages.next();
        if (!first.done) appendAll(tasks, first.value.items ?? []);
        if (first.done || !first.value.nextPageToken) state.complete = true;
      } catch (error) {
        fail(error);
      }
    });
    state.firstPage = firstPage;
    void firstPage.then(async () => {
      if (state.complete) {
        resolveRest();
        // The list row's "N open" needs the loaded tasks.
        if (isCurrent() && !state.error) {
          this.knownTasks.set(listId, [...tasks]);
          this.saveSnapshot();
          this.options.onListLoaded(listId);
        }
        return;
      }
      try {
        // The remaining pages load behind the first; the rows update once all are in.
        for await (const page of pages) {
          if (!isCurrent()) return;
          appendAll(tasks, page.items ?? []);
        }
        state.complete = true;
      } catch (error) {
        fail(error);
      } finally {
        resolveRest();
        if (isCurrent()) {
          if (!state.error) this.knownTasks.set(listId, [...tasks]);
          this.saveSnapshot();
          this.options.onListLoaded(listId);
        }
      }
    });
    return state;
  }

  private toNodes(listNode: TaskListNode, parent: TaskListNode | TaskNode, entries: readonly TaskTreeEntry[]): TaskNode[] {
    return entries.map((entry) => {
      const node = new TaskNode(listNode.listId, entry.task, parent, entry.children.length > 0);
      this.taskNodes.set(node.id, node);
      this.childNodes.set(node.id, this.toNodes(listNode, node, entry.children));
      return node;
    });
  }
}

function openCount(tasks: readonly Task[]): number {
  return tasks.filter((task) => task.status !== 'completed' && !task.hidden && !task.deleted).length;
}
