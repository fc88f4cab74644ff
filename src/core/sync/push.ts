/**
 * Push hints for sync feeds, shared by the features through DeskContext (each feature is its own bundle, so a
 * module-level emitter would exist once per bundle: the one instance lives on the context). A feed's consumer (a
 * poller) says whether it wants push; a producer (a receiver of change notifications) says whether push works for
 * the feed and tells it when a notification arrived. Feeds are plain names the two sides agree on; no vscode.
 */
import type { DisposableLike } from '../disposable';

/** Tasks changed through the Tasks view (a refresh of its data): the Calendar's Agenda, which shows due tasks, reads them again. */
export const TASKS_CHANGED_FEED = 'tasks.changed';

export type PushEvent =
  /** A notification for the feed arrived: fetch now. */
  | { readonly kind: 'notified' }
  /** Push started or stopped working for the feed (a live channel delivering to a running receiver). */
  | { readonly kind: 'live'; readonly live: boolean }
  /** The consumer started or stopped wanting push for the feed. */
  | { readonly kind: 'wanted'; readonly wanted: boolean };

interface FeedState {
  live: boolean;
  wanted: boolean;
  readonly listeners: Set<(event: PushEvent) => void>;
}

export class PushHub {
  private readonly feeds = new Map<string, FeedState>();

  private feed(name: string): FeedState {
    let state = this.feeds.get(name);
    if (!state) {
      state = { live: false, wanted: false, listeners: new Set() };
      this.feeds.set(name, state);
    }
    return state;
  }

  isLive(feed: string): boolean {
    return this.feeds.get(feed)?.live ?? false;
  }

  isWanted(feed: string): boolean {
    return this.feeds.get(feed)?.wanted ?? false;
  }

  /** Producer: push works (or stopped working) for `feed`; listeners hear only real changes. */
  setLive(feed: string, live: boolean): void {
    const state = this.feed(feed);
    if (state.live === live) return;
    state.live = live;
    this.fire(state, { kind: 'live', live });
  }

  /** Producer: something changed in `feed`. */
  notify(feed: string): void {
    this.fire(this.feed(feed), { kind: 'notified' });
  }

  /** Consumer: it wants push for `feed` (or no longer does). */
  setWanted(feed: string, wanted: boolean): void {
    const state = this.feed(feed);
    if (state.wanted === wanted) return;
    state.wanted = wanted;
    this.fire(state, { kind: 'wanted', wanted });
  }

  /** Every event of one feed; whichever side loads later reads the current state with isLive / isWanted. */
  onEvent(feed: string, listener: (event: PushEvent) => void): DisposableLike {
    const state = this.feed(feed);
    state.listeners.add(listener);
    return { dispose: () => void state.listeners.delete(listener) };
  }

  private fire(state: FeedState, event: PushEvent): void {
    for (const listener of [...state.listeners]) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not keep the news from the others.
      }
    }
  }
}
