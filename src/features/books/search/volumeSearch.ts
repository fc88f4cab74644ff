/**
 * Live search over volumes.list, without vscode: the text is searched once typing pauses (debounced), a request whose
 * text is no longer current is aborted through its AbortSignal and its answer ignored, and "more" pages on with
 * startIndex. The quick pick (searchPicker.ts) only renders the state this reports.
 */
import { CancelledError } from '../../../api/errors';
import type { Volume } from '../../../shared/schemas/books';
import type { BooksApi } from '../port';
import { nodeTimers, Timers } from '../../../core/timers';
import { appendAll } from '../../../shared/arrays';

export interface SearchState {
  /** The text the results belong to (trimmed); empty before the first search. */
  readonly query: string;
  readonly volumes: readonly Volume[];
  readonly totalItems: number;
  /** A request is due or under way (the quick pick's busy bar). */
  readonly loading: boolean;
  /** The last request failed (shown as a row that retries). */
  readonly error: unknown;
  /** More volumes can be fetched with startIndex. */
  readonly hasMore: boolean;
}

/** The debounce's timers (core/timers.ts; tests pass their own). */
export type SearchTimers = Timers;

export interface VolumeSearchOptions {
  readonly api: Pick<BooksApi, 'searchVolumes'>;
  readonly onDidChange: (state: SearchState) => void;
  /** Quiet time after the last keystroke before searching (default 250 ms). */
  readonly debounceMs?: number;
  /** Volumes per request (default 20; Google allows 40). */
  readonly pageSize?: number;
  readonly timers?: SearchTimers;
}

export const SEARCH_DEBOUNCE_MS = 250;
export const SEARCH_PAGE_SIZE = 20;
/** Google serves a search no further than about this many results, whatever totalItems says. */
const MAX_START_INDEX = 1000;


export class VolumeSearch {
  private state: SearchState = { query: '', volumes: [], totalItems: 0, loading: false, error: undefined, hasMore: false };
  private wanted = '';
  private timer: unknown;
  private controller: AbortController | undefined;
  private running: Promise<void> | undefined;
  private exhausted = false;
  private disposed = false;
  private readonly timers: SearchTimers;
  private readonly debounceMs: number;
  readonly pageSize: number;
  /** Every request sent, with whether it was aborted later (tests, and the log). */
  readonly requests: Array<{ q: string; startIndex: number; signal: AbortSignal }> = [];

  constructor(private readonly options: VolumeSearchOptions) {
    this.timers = options.timers ?? nodeTimers;
    this.debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
    this.pageSize = options.pageSize ?? SEARCH_PAGE_SIZE;
  }

  get current(): SearchState {
    return this.state;
  }

  /** The user typed: search `text` once typing pauses; the request for older text is cancelled. */
  setQuery(text: string): void {
    const query = text.trim();
    if (query === this.wanted) return;
    this.wanted = query;
    this.cancelPending();
    if (query === '') {
      this.update({ query: '', volumes: [], totalItems: 0, loading: false, error: undefined, hasMore: false });
      return;
    }
    this.update({ ...this.state, loading: true });
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      void this.search(query);
    }, this.debounceMs);
  }

  /** Searches the current text now, without waiting for the pause (Enter; a retry after an error). */
  searchNow(): Promise<void> {
    if (this.timer !== undefined) {
      this.timers.clear(this.timer);
      this.timer = undefined;
    }
    if (this.wanted === '') return Promise.resolve();
    this.cancelPending();
    return this.search(this.wanted);
  }

  /** The next page of the current results ("More results…"). */
  loadMore(): Promise<void> {
    if (this.running) return this.running;
    if (!this.state.hasMore || this.state.query !== this.wanted) return Promise.resolve();
    return this.fetch(this.wanted, this.state.volumes.length, true);
  }

  /** Resolves once nothing is due or under way (tests; the picker awaiting a result). */
  async idle(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      if (this.timer === undefined && !this.running) return;
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPending();
  }

  private search(query: string): Promise<void> {
    this.exhausted = false;
    return this.fetch(query, 0, false);
  }

  private fetch(query: string, startIndex: number, append: boolean): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.requests.push({ q: query, startIndex, signal: controller.signal });
    this.update({ ...this.state, loading: true });
    const run = (async () => {
      try {
        const page = await this.options.api.searchVolumes(query, { startIndex, maxResults: this.pageSize, signal: controller.signal });
        if (controller.signal.aborted || query !== this.wanted || this.disposed) return;
        const items = page.items ?? [];
        const volumes = append ? [...this.state.volumes] : [];
        const known = new Set(volumes.map((volume) => volume.id));
        appendAll(volumes, items.filter((volume) => !known.has(volume.id)));
        // Google's totalItems is an estimate: an empty page ends the results whatever it promised.
        this.exhausted = items.length === 0;
        this.update({ query, volumes, totalItems: page.totalItems, loading: false, error: undefined, hasMore: this.canPage(volumes.length, page.totalItems) });
      } catch (error) {
        if (controller.signal.aborted || error instanceof CancelledError || query !== this.wanted || this.disposed) return;
        this.update({ ...this.state, query, volumes: append ? this.state.volumes : [], loading: false, error, hasMore: false });
      } finally {
        if (this.controller === controller) this.controller = undefined;
      }
    })();
    const tracked = run.finally(() => {
      if (this.running === tracked) this.running = undefined;
    });
    this.running = tracked;
    return tracked;
  }

  private canPage(loaded: number, totalItems: number): boolean {
    return !this.exhausted && loaded < totalItems && loaded < MAX_START_INDEX;
  }

  private cancelPending(): void {
    if (this.timer !== undefined) {
      this.timers.clear(this.timer);
      this.timer = undefined;
    }
    this.controller?.abort();
    this.controller = undefined;
    this.running = undefined;
  }

  private update(state: SearchState): void {
    this.state = state;
    if (!this.disposed) this.options.onDidChange(state);
  }
}
