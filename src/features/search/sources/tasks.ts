/**
 * Tasks for the search: the Tasks API has no search, so every list and every task (completed and hidden ones too) is
 * loaded once for the quick pick's life and filtered here on title and notes. What was loaded is kept for the
 * account (TaskSearchMemory): a later pick reads only the tasks updated since (updatedMin, deleted ones included), so
 * an account of 100,000 tasks is downloaded once per session, not once per search box.
 */
import { setMaxListeners } from 'node:events';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import { english, Translate } from '../../../shared/l10n';
import { dueDateOf, shortDueDate } from '../../../core/text/dates';
import { askedNow, matchesWords, SearchHit, SearchSource, startEarly, untilAborted } from '../model';
import type { SearchTasksApi } from '../port';

interface LoadedList {
  readonly list: TaskList;
  readonly tasks: readonly Task[];
}

/** At most this many task hits are shown: the rest are one more word away. */
const MAX_HITS = 20;
/**
 * A later read asks for the tasks updated since the newest one the last read saw, less a margin: the server's own
 * times (the user's clock may differ from Google's), and a change made while that read ran is not missed.
 */
const UPDATED_MARGIN_MS = 5 * 60_000;

/** One list's tasks as a pick loaded them, and the newest `updated` among them (server time; undefined: none). */
export interface KeptTaskList {
  readonly tasks: ReadonlyMap<string, Task>;
  readonly newest: number | undefined;
}

/** The tasks a pick loaded, kept for the next pick of the same account (in memory, for the session). */
export class TaskSearchMemory {
  /** Per account (several can be searched at once); one account's never answers for another. */
  private readonly kept = new Map<string, ReadonlyMap<string, KeptTaskList>>();

  /** The account's tasks by list; nothing for another account. */
  recall(account: string): ReadonlyMap<string, KeptTaskList> | undefined {
    return this.kept.get(account);
  }

  keep(account: string, lists: ReadonlyMap<string, KeptTaskList>): void {
    this.kept.set(account, lists);
  }

  /** The accounts whose tasks are kept. */
  accounts(): readonly string[] {
    return [...this.kept.keys()];
  }

  /** Forgets every account's tasks, or the one account's (signed out of, beside others). */
  forget(account?: string): void {
    if (account === undefined) this.kept.clear();
    else this.kept.delete(account);
  }
}

/** Where a source keeps what it loaded: the memory and the account it is for. */
export interface TaskSearchKeeping {
  readonly memory: TaskSearchMemory;
  readonly account: string;
}

export class TasksSearchSource implements SearchSource {
  readonly service = 'tasks' as const;
  private loaded: Promise<readonly LoadedList[]> | undefined;
  private readonly life = new AbortController();

  /**
   * `today` and `locale` write due dates as the Tasks view does ("tomorrow", "Fri", "27 Nov"): the user's day and
   * language in the extension, fixed ones in tests.
   */
  constructor(private readonly api: SearchTasksApi, private readonly t: Translate = english, private readonly dates: { readonly today?: () => Date; readonly locale?: string } = {}, private readonly knownLists: () => Promise<readonly Pick<TaskList, 'id'>[] | undefined> = () => Promise.resolve(undefined), private readonly keeping?: TaskSearchKeeping) {
    // One list and one page of tasks per request, all on this signal: more than Node's default 10 listeners.
    setMaxListeners(0, this.life.signal);
  }

  async search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    const lists = await untilAborted(this.load(), signal);
    const hits: SearchHit[] = [];
    for (const { list, tasks } of lists) {
      for (const task of tasks) {
        if (task.deleted || !matchesWords(query, task.title, task.notes)) continue;
        hits.push(this.hit(list, task));
      }
    }
    // Open tasks first: what is still to do is more likely what is looked for.
    return hits.sort((a, b) => Number(a.completed ?? false) - Number(b.completed ?? false)).slice(0, MAX_HITS);
  }

  /** Stops a load still under way (the quick pick closed). */
  dispose(): void {
    this.life.abort();
  }

  private load(): Promise<readonly LoadedList[]> {
    this.loaded ??= this.fetchAll().catch((error: unknown) => {
      // A failed load is not kept: the next search (or Enter on the failure row) tries again.
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /**
   * Every list's tasks; those of the lists the Tasks view's cache knows are asked beside the list of lists. A list
   * an earlier pick loaded is read from its newest task then (its changes only).
   */
  private async fetchAll(): Promise<readonly LoadedList[]> {
    const signal = this.life.signal;
    const kept = this.keeping ? this.keeping.memory.recall(this.keeping.account) : undefined;
    // The list of lists is asked for at once: reading the view's cache is a disk read, not worth a wait before it.
    const listed = askedNow((async () => {
      const lists: TaskList[] = [];
      for await (const list of this.api.allTaskLists({ maxResults: 100, signal })) lists.push(list);
      return lists;
    })());
    const known = (await this.knownLists().catch(() => undefined)) ?? [];
    const tasksOf = startEarly(known.map((list) => list.id), async (listId): Promise<KeptTaskList> => {
      const before = kept?.get(listId);
      const tasks = new Map(before?.tasks ?? []);
      let newest = before?.newest;
      const since = before?.newest !== undefined ? { updatedMin: new Date(before.newest - UPDATED_MARGIN_MS).toISOString(), showDeleted: true } : {};
      for await (const task of this.api.allTasks(listId, { showCompleted: true, showHidden: true, maxResults: 100, signal, ...since })) {
        if (task.deleted) tasks.delete(task.id);
        else tasks.set(task.id, task);
        const updated = task.updated ? Date.parse(task.updated) : Number.NaN;
        if (Number.isFinite(updated) && (newest === undefined || updated > newest)) newest = updated;
      }
      return { tasks, newest };
    });
    const lists = await listed;
    const loaded = await Promise.all(lists.map(async (list) => ({ list, kept: await tasksOf(list.id) })));
    // Lists deleted since are not kept.
    this.keeping?.memory.keep(this.keeping.account, new Map(loaded.map(({ list, kept: one }) => [list.id, one])));
    return loaded.map(({ list, kept: one }) => ({ list, tasks: [...one.tasks.values()] }));
  }

  private hit(list: TaskList, task: Task): SearchHit {
    const t = this.t;
    const completed = task.status === 'completed';
    const parts = [list.title];
    const due = dueDateOf(task.due);
    if (due) parts.push(t('due {0}', shortDueDate(due, this.dates.today?.() ?? new Date(), t, this.dates.locale)));
    if (completed) parts.push(t('✓ completed'));
    const notes = task.notes?.replace(/\s+/g, ' ').trim();
    if (notes) parts.push(notes.length > 80 ? `${notes.slice(0, 79).trimEnd()}…` : notes);
    return { title: task.title || t('(untitled task)'), context: parts.join(' · '), completed, target: { kind: 'task', listId: list.id, taskId: task.id } };
  }
}
