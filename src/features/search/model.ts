/**
 * One search across every service, without vscode: as the text changes (debounced) each service's source is asked at
 * once, a search whose text is no longer current is aborted through its AbortSignal and its answers ignored, and each
 * service's group is reported as soon as it answers or fails, so a slow or failing service holds up no other. The quick
 * pick (picker.ts) only renders the state this reports.
 */
import { setMaxListeners } from 'node:events';
import type { CalendarEvent } from '../../shared/schemas/calendar';
import { nodeTimers, Timers } from '../../core/timers';

/** The services searched, in the order their groups are shown. */
export const SEARCH_SERVICES = ['tasks', 'drive', 'calendar', 'books'] as const;
export type SearchService = typeof SEARCH_SERVICES[number];

/** Where a result lives, so Enter can open it there. */
export type SearchTarget =
  | { readonly kind: 'task'; readonly listId: string; readonly taskId: string }
  | { readonly kind: 'file'; readonly fileId: string; readonly folder: boolean }
  | { readonly kind: 'event'; readonly calendarId: string; readonly event: CalendarEvent }
  | { readonly kind: 'volume'; readonly volumeId: string; readonly shelfId?: number };

/** One result: a title and a one-line context (where it is, when, whose). */
export interface SearchHit {
  readonly title: string;
  readonly context: string;
  /** A completed task (shown marked). */
  readonly completed?: boolean;
  readonly target: SearchTarget;
  /** Whose it is, when several accounts were searched (Enter opens it as that account); unset with one account. */
  readonly account?: string;
}

/** A service's search: the hits for `query`, rejecting (a CancelledError or any error) when `signal` aborts. */
export interface SearchSource {
  readonly service: SearchService;
  /** The account searched, when several are signed in (its group says whose); unset with one account. */
  readonly account?: string;
  search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]>;
  /** Stops background work (a load shared by searches) when the pick closes. */
  dispose?(): void;
}

export type SearchGroup = { readonly service: SearchService; readonly account?: string } & (
  | { readonly status: 'searching' }
  | { readonly status: 'done'; readonly hits: readonly SearchHit[] }
  | { readonly status: 'failed'; readonly error: unknown });

/** A group's identity: its service, and its account when several are searched. */
export function groupKey(group: { readonly service: SearchService; readonly account?: string }): string {
  return group.account === undefined ? group.service : `${group.account}/${group.service}`;
}

export interface SearchState {
  /** The text the groups belong to (trimmed); empty before the first search. */
  readonly query: string;
  /** One per source: by account (in the order given), then in SEARCH_SERVICES order. */
  readonly groups: readonly SearchGroup[];
  /** A search is due (typing) or a service has not answered yet. */
  readonly busy: boolean;
}

/** The debounce's timers (core/timers.ts; tests pass their own). */
export type SearchTimers = Timers;

export const SEARCH_DEBOUNCE_MS = 250;


export interface EverythingSearchOptions {
  readonly sources: readonly SearchSource[];
  readonly onDidChange: (state: SearchState) => void;
  readonly debounceMs?: number;
  readonly timers?: SearchTimers;
}

export class EverythingSearch {
  private stateValue: SearchState = { query: '', groups: [], busy: false };
  private wanted = '';
  private timer: unknown;
  private controller: AbortController | undefined;
  private disposed = false;
  private readonly sources: readonly SearchSource[];
  private readonly timers: SearchTimers;
  private readonly debounceMs: number;
  /** Every search started, with its signal (tests check that a superseded one was aborted). */
  readonly rounds: Array<{ readonly query: string; readonly signal: AbortSignal }> = [];

  constructor(private readonly options: EverythingSearchOptions) {
    const order = (service: SearchService): number => SEARCH_SERVICES.indexOf(service);
    const accounts = [...new Set(options.sources.map((source) => source.account ?? ''))];
    const accountOrder = (source: SearchSource): number => accounts.indexOf(source.account ?? '');
    this.sources = [...options.sources].sort((a, b) => accountOrder(a) - accountOrder(b) || order(a.service) - order(b.service));
    this.timers = options.timers ?? nodeTimers;
    this.debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
  }

  get state(): SearchState {
    return this.stateValue;
  }

  /** The text changed: search it once typing pauses; an empty text clears the results at once. */
  setQuery(text: string): void {
    if (this.disposed) return;
    this.wanted = text.trim();
    this.timers.clear(this.timer);
    this.timer = undefined;
    if (this.wanted === '') {
      this.abort();
      this.update({ query: '', groups: [], busy: false });
      return;
    }
    if (this.wanted === this.stateValue.query && !this.stateValue.groups.some((group) => group.status === 'failed')) return;
    this.update({ ...this.stateValue, busy: true });
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      this.searchNow();
    }, this.debounceMs);
  }

  /** Searches the current text now (Enter on a failed service's row searches again). */
  searchNow(): void {
    if (this.disposed || this.wanted === '') return;
    this.timers.clear(this.timer);
    this.timer = undefined;
    this.abort();
    const controller = new AbortController();
    // Every request of the round listens to this one signal (a calendar or a shelf each): more than Node's default 10.
    setMaxListeners(0, controller.signal);
    this.controller = controller;
    const query = this.wanted;
    this.rounds.push({ query, signal: controller.signal });
    const whose = (source: SearchSource): { service: SearchService; account?: string } => (source.account === undefined ? { service: source.service } : { service: source.service, account: source.account });
    let groups: SearchGroup[] = this.sources.map((source) => ({ ...whose(source), status: 'searching' }));
    this.update({ query, groups, busy: true });
    for (const source of this.sources) {
      const settle = (group: SearchGroup): void => {
        if (controller.signal.aborted || this.disposed) return;
        groups = groups.map((existing) => (groupKey(existing) === groupKey(group) ? group : existing));
        this.update({ query, groups, busy: groups.some((candidate) => candidate.status === 'searching') });
      };
      // A hit of one of several accounts is opened as that account.
      const owned = (hits: readonly SearchHit[]): readonly SearchHit[] => (source.account === undefined ? hits : hits.map((hit) => ({ ...hit, account: source.account })));
      // Each source on its own: one that throws synchronously, answers late or fails leaves the others alone.
      void Promise.resolve()
        .then(() => source.search(query, controller.signal))
        .then((hits) => { settle({ ...whose(source), status: 'done', hits: owned(hits) }); }, (error: unknown) => { settle({ ...whose(source), status: 'failed', error }); });
    }
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clear(this.timer);
    this.abort();
  }

  private abort(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  private update(state: SearchState): void {
    this.stateValue = state;
    this.options.onDidChange(state);
  }
}

/** Whether every word of the query (case-insensitive) occurs in one of the texts: how the client-side sources match. */
export function matchesWords(query: string, ...texts: ReadonlyArray<string | undefined>): boolean {
  const haystack = texts.filter((text): text is string => Boolean(text)).join('\n').toLocaleLowerCase();
  return query.toLocaleLowerCase().split(/\s+/).filter(Boolean).every((word) => haystack.includes(word));
}

/** Rejects with the signal's reason as soon as it aborts: a shared load must not hold up a superseded search. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => { reject(abortReason(signal)); };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => { signal.removeEventListener('abort', onAbort); });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * A request started before something else is awaited (the view cache's read): its failure is handled where it is
 * awaited later, not reported meanwhile as an unhandled rejection.
 */
export function askedNow<T>(answer: Promise<T>): Promise<T> {
  answer.catch(() => undefined);
  return answer;
}

/**
 * Starts a read at once (a view cache's file, for a quick pick that has just opened) and gives every later ask the
 * same answer, so the first search does not wait for the disk and the account check after the user's typing;
 * undefined when it failed (the source then asks for its containers only).
 */
export function readAhead<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  const answer = read().catch(() => undefined);
  return () => answer;
}

/**
 * Starts `work` at once for each id a view's cache knows (the shelves, lists or calendars of the last session), so
 * their contents are asked beside the listing of the containers instead of after it. The function returned gives an
 * id's answer: the one started early, or a new one for an id the cache did not know. An early answer nobody asks for
 * (the container was removed since) is dropped without an unhandled rejection.
 */
export function startEarly<K, T>(knownIds: readonly K[], work: (id: K) => Promise<T>): (id: K) => Promise<T> {
  const early = new Map<K, Promise<T>>();
  for (const id of new Set(knownIds)) {
    early.set(id, askedNow(work(id)));
  }
  return (id) => early.get(id) ?? work(id);
}
