/**
 * The events Desk knows per calendar, kept current with events.list sync tokens instead of reloads: one full listing
 * from a little before today, then only what changed. Recurring events stay series (no singleEvents: an endless
 * series would arrive as five years of instances), with their exceptions (moved and cancelled instances); the views
 * read instances expanded for the window they show (seriesWindow.ts), so memory follows the calendar's series, not
 * its instances. Each calendar is a source of the generic sync engine (core/sync/poller.ts): `startToken` is the
 * full load, the resume token is Google's nextSyncToken, and a 410 (token expired) makes the engine load in full
 * again. No vscode.
 */
import { AGENDA_EVENT_FIELDS } from '../../../api/calendar';
import { GoogleApiError } from '../../../api/errors';
import type { SyncPage, SyncPageRequest, SyncSource, TokenStore } from '../../../core/sync/poller';
import type { CalendarEvent } from '../../../shared/schemas/calendar';
import type { CalendarApi } from '../port';
import { DAY_MS } from '../time';
import { appendAll } from '../../../shared/arrays';
import { instancesIn, parseSeries, replacedInstanceId, type ParsedSeries } from './seriesWindow';

export interface EventStoreOptions {
  readonly api: () => Pick<CalendarApi, 'listEvents'>;
  /** Called after a calendar's events changed (loaded, synced, reset). */
  readonly onChange: (calendarId: string) => void;
  readonly now?: () => number;
  /** How far before now the full load starts, so ongoing and earlier-today events are kept (default 2 days). */
  readonly lookBackMs?: number;
  /** How many days ahead of now series are expanded for the views (at least 31: the Agenda, reminders, pickers). */
  readonly horizonDays?: () => number;
  /** The zone of a series whose start names none (the user's Calendar zone). */
  readonly timeZone?: () => string;
  /**
   * The days the views show first (the Agenda's): a calendar's first load reads them alone (one page, usually) and
   * shows them, then reads the whole window behind them. Unset: one read of the whole window.
   */
  readonly firstDays?: () => number;
}

interface CalendarCache {
  /** Single events, series and their exceptions; a cancelled exception stays as a marker of the instance it removes. */
  readonly events: Map<string, CalendarEvent>;
  /** Series parsed for expansion, by id (undefined: not expandable), and the last window's instances. */
  readonly parsed: Map<string, ParsedSeries | undefined>;
  expanded?: { readonly from: number; readonly to: number; readonly zone: string; readonly events: CalendarEvent[]; readonly byId: Map<string, CalendarEvent> };
  token: string | undefined;
  loaded: boolean;
  /** When the last full load ended (ms, the store's clock). */
  loadedAt?: number;
  /** The end of the last full load's window: events starting later are known only when they changed since. */
  loadedUntil?: number;
  loading: Promise<string> | undefined;
}

/** A 410 from events.list: the sync token is no longer valid and a full sync is required. */
export function isExpiredSyncToken(error: unknown): boolean {
  return error instanceof GoogleApiError && error.status === 410;
}

const PAGE_PREFIX = 'page:';
const PAGE_SIZE = 2500;

export class EventStore implements TokenStore {
  private readonly caches = new Map<string, CalendarCache>();
  /** Listings started since construction: what tests check to prove a refresh did not reload. */
  requests = 0;
  /** Full listings (first loads and resets). */
  fullLoads = 0;

  constructor(private readonly options: EventStoreOptions) {}

  private cacheOf(calendarId: string): CalendarCache {
    let cache = this.caches.get(calendarId);
    if (!cache) {
      cache = { events: new Map(), parsed: new Map(), token: undefined, loaded: false, loading: undefined };
      this.caches.set(calendarId, cache);
    }
    return cache;
  }

  // ---- TokenStore (the sync engine keeps its place here, in memory: the cache itself does not survive a restart)

  get(calendarId: string): string | undefined {
    return this.caches.get(calendarId)?.token;
  }

  set(calendarId: string, token: string | undefined): void {
    this.cacheOf(calendarId).token = token;
  }

  // ---- reading

  isLoaded(calendarId: string): boolean {
    return this.caches.get(calendarId)?.loaded ?? false;
  }

  /** How long ago the calendar was last read in full: 0 while a full read runs, undefined if never. */
  msSinceFullLoad(calendarId: string): number | undefined {
    const cache = this.caches.get(calendarId);
    if (cache?.loading) return 0;
    return cache?.loadedAt === undefined ? undefined : (this.options.now?.() ?? Date.now()) - cache.loadedAt;
  }

  /**
   * The calendar's events as a singleEvents listing would give them: single events (and moved instances), and each
   * series expanded from a little before now to the horizon. Kept per day: the views ask on every redraw and tick.
   */
  events(calendarId: string): CalendarEvent[] {
    const cache = this.caches.get(calendarId);
    if (!cache) return [];
    const now = this.options.now?.() ?? Date.now();
    const zone = this.options.timeZone?.() ?? 'UTC';
    // The days ahead came near the end of what the last full load read: read again (further ahead) in the background.
    if (cache.loaded && !cache.loading && cache.loadedUntil !== undefined && now + this.horizonMs() > cache.loadedUntil) {
      this.fullLoad(calendarId).catch(() => undefined);
    }
    const kept = cache.expanded;
    if (kept && kept.zone === zone && kept.from <= now - this.lookBackMs() && kept.to >= now + this.horizonMs()) return kept.events.slice();
    // The window is widened by a day each way so that it serves the rest of the day without expanding again.
    const window = { from: now - this.lookBackMs() - DAY_MS, to: now + this.horizonMs() + DAY_MS };
    const replaced = new Set<string>();
    const events: CalendarEvent[] = [];
    for (const event of cache.events.values()) {
      if (event.recurringEventId) {
        const id = replacedInstanceId(event);
        if (id) replaced.add(id);
        replaced.add(event.id);
      }
      if (event.status !== 'cancelled' && !event.recurrence?.length) events.push(event);
    }
    for (const event of cache.events.values()) {
      if (event.status === 'cancelled' || !event.recurrence?.length) continue;
      if (!cache.parsed.has(event.id)) cache.parsed.set(event.id, parseSeries(event, zone));
      const parsed = cache.parsed.get(event.id);
      // A series Desk cannot expand still shows, as its first occurrence.
      if (parsed) appendAll(events, instancesIn(parsed, window, replaced));
      else events.push(event);
    }
    cache.expanded = { ...window, zone, events, byId: new Map(events.map((event) => [event.id, event])) };
    return events.slice();
  }

  /** An event, series or (expanded) instance Desk holds. */
  find(calendarId: string, eventId: string): CalendarEvent | undefined {
    const cache = this.caches.get(calendarId);
    const stored = cache?.events.get(eventId);
    if (stored?.status === 'cancelled') return undefined;
    return stored ?? cache?.expanded?.byId.get(eventId);
  }

  private lookBackMs(): number {
    return this.options.lookBackMs ?? 2 * DAY_MS;
  }

  private horizonMs(): number {
    return Math.max(31, this.options.horizonDays?.() ?? 0) * DAY_MS;
  }

  /** Forgets the expansions after the series or exceptions changed. */
  private changed(cache: CalendarCache, ids: Iterable<string>): void {
    for (const id of ids) cache.parsed.delete(id);
    cache.expanded = undefined;
  }

  loadedCalendars(): string[] {
    return [...this.caches.entries()].filter(([, cache]) => cache.loaded).map(([id]) => id);
  }

  /** The first full load of a calendar, shared by everyone who asks while it runs. */
  ensureLoaded(calendarId: string): Promise<void> {
    const cache = this.cacheOf(calendarId);
    if (cache.loaded) return Promise.resolve();
    return this.fullLoad(calendarId).then(() => undefined);
  }

  /**
   * Lists the calendar from scratch and keeps the sync token; resolves to that token. A first load with `firstDays`
   * resolves once the days shown first are in (a 100,000-event calendar's window is several pages; its first days
   * one), and the whole window follows as the load still under way.
   */
  fullLoad(calendarId: string, signal?: AbortSignal): Promise<string> {
    const cache = this.cacheOf(calendarId);
    if (cache.loading) return cache.loading;
    const firstDays = cache.loaded ? undefined : this.options.firstDays?.();
    if (firstDays === undefined) return this.loading(cache, this.readWindow(calendarId, cache, signal));
    const now = this.options.now?.() ?? Date.now();
    const firstUntil = now + (Math.max(1, firstDays) + 1) * DAY_MS;
    return this.loading(cache, this.readWindow(calendarId, cache, signal, firstUntil).then((token) => {
      // The rest of the window, behind the rows shown: the load under way until it is in (events() waits for it).
      this.loading(cache, this.readWindow(calendarId, cache, signal)).catch(() => undefined);
      return token;
    }));
  }

  /** Keeps `load` as the calendar's load under way until it settles (a later load replaces it). */
  private loading(cache: CalendarCache, load: Promise<string>): Promise<string> {
    const kept = load.finally(() => {
      if (cache.loading === kept) cache.loading = undefined;
    });
    cache.loading = kept;
    return kept;
  }

  /** One read of the window (up to `until`, else twice the horizon), which then replaces what the cache held. */
  private readWindow(calendarId: string, cache: CalendarCache, signal: AbortSignal | undefined, until?: number): Promise<string> {
    return this.listAll(calendarId, signal, until).then(({ items, token, until: end }) => {
      cache.loadedUntil = end;
      cache.events.clear();
      cache.parsed.clear();
      cache.expanded = undefined;
      // Cancelled exceptions stay: they remove an instance of their series.
      for (const event of items) if (event.status !== 'cancelled' || event.recurringEventId) cache.events.set(event.id, event);
      cache.token = token;
      cache.loaded = true;
      cache.loadedAt = this.options.now?.() ?? Date.now();
      this.options.onChange(calendarId);
      return token;
    });
  }

  /** Applies what a sync returned: cancelled events leave, the others are added or replaced. */
  apply(calendarId: string, items: readonly CalendarEvent[]): void {
    const cache = this.cacheOf(calendarId);
    if (!cache.loaded || items.length === 0) return;
    for (const event of items) {
      if (event.status === 'cancelled' && !event.recurringEventId) {
        cache.events.delete(event.id);
        // A series deleted whole takes its exceptions with it.
        for (const [id, other] of cache.events) if (other.recurringEventId === event.id) cache.events.delete(id);
      } else cache.events.set(event.id, event);
    }
    this.changed(cache, items.map((event) => event.id));
    this.options.onChange(calendarId);
  }

  /** Catches up right now with the sync token (after one of Desk's own edits); a full load when there is none yet. */
  async sync(calendarId: string): Promise<void> {
    const cache = this.cacheOf(calendarId);
    if (!cache.loaded || !cache.token) {
      await this.fullLoad(calendarId);
      return;
    }
    const source = this.source(calendarId);
    const controller = new AbortController();
    let pageToken = cache.token;
    const changes: CalendarEvent[] = [];
    try {
      for (;;) {
        const page = await source.listPage({ pageToken, signal: controller.signal });
        appendAll(changes, page.items);
        if (!page.nextPageToken) {
          if (page.resumeToken) cache.token = page.resumeToken;
          break;
        }
        pageToken = page.nextPageToken;
      }
    } catch (error) {
      if (!isExpiredSyncToken(error)) throw error;
      await this.fullLoad(calendarId);
      return;
    }
    this.apply(calendarId, changes);
  }

  /** Forgets one calendar (removed from the list) or all (sign-out, backend change). */
  forget(calendarId?: string): void {
    if (calendarId === undefined) this.caches.clear();
    else this.caches.delete(calendarId);
  }

  /** The calendar's events as a source of the sync engine. */
  source(calendarId: string): SyncSource<CalendarEvent> {
    return {
      startToken: (signal) => this.fullLoad(calendarId, signal),
      listPage: async (request: SyncPageRequest): Promise<SyncPage<CalendarEvent>> => {
        const { syncToken, pageToken } = decodePageToken(request.pageToken);
        this.requests++;
        const page = await this.options.api().listEvents(calendarId, { syncToken, maxResults: PAGE_SIZE, fields: AGENDA_EVENT_FIELDS, signal: request.signal, ...(pageToken ? { pageToken } : {}) });
        return {
          items: page.items,
          nextPageToken: page.nextPageToken ? encodePageToken(syncToken, page.nextPageToken) : undefined,
          resumeToken: page.nextSyncToken,
        };
      },
    };
  }

  /**
   * A full read of the window the views may show soon: from a little before now to twice the horizon ahead (so that
   * a calendar of years of events is read in a page or two); the store reads again when the days ahead reach its end.
   */
  private async listAll(calendarId: string, signal: AbortSignal | undefined, firstUntil?: number): Promise<{ items: CalendarEvent[]; token: string; until: number }> {
    const now = this.options.now?.() ?? Date.now();
    const timeMin = new Date(now - this.lookBackMs()).toISOString();
    const until = firstUntil ?? now + 2 * this.horizonMs();
    const timeMax = new Date(until).toISOString();
    const items: CalendarEvent[] = [];
    let pageToken: string | undefined;
    let token = '';
    const seen = new Set<string>();
    if (firstUntil === undefined) this.fullLoads++;
    do {
      this.requests++;
      const page = await this.options.api().listEvents(calendarId, { timeMin, timeMax, maxResults: PAGE_SIZE, fields: AGENDA_EVENT_FIELDS, ...(signal ? { signal } : {}), ...(pageToken ? { pageToken } : {}) });
      appendAll(items, page.items);
      token = page.nextSyncToken ?? token;
      pageToken = page.nextPageToken || undefined;
      if (pageToken && seen.has(pageToken)) break; // a server repeating a token would loop forever
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
    return { items, token, until };
  }
}

/** The engine passes one string per page: the sync token alone for the first page, sync token + page token after. */
function encodePageToken(syncToken: string, pageToken: string): string {
  return `${PAGE_PREFIX}${JSON.stringify([syncToken, pageToken])}`;
}

function decodePageToken(token: string): { syncToken: string; pageToken?: string } {
  if (!token.startsWith(PAGE_PREFIX)) return { syncToken: token };
  try {
    const [syncToken, pageToken] = JSON.parse(token.slice(PAGE_PREFIX.length)) as [string, string];
    return { syncToken, pageToken };
  } catch {
    return { syncToken: token };
  }
}
