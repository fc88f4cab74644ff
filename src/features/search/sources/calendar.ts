/**
 * Calendar events for the search: events.list with `q` on every calendar of the user's list that is not hidden, in a
 * window around today (a year back, a year ahead), each hit with its date and calendar. Coming events come first,
 * nearest first, then past ones, latest first; a repeating event is one hit, its next date (or its latest past one).
 * One calendar that cannot be searched does not hide the others' hits.
 */
import type { CalendarEvent, CalendarListEntry } from '../../../shared/schemas/calendar';
import { english, Translate } from '../../../shared/l10n';
import { formatDay } from '../../../core/text/clock';
import { askedNow, SearchHit, SearchSource, startEarly, untilAborted } from '../model';
import type { SearchCalendarApi } from '../port';

const DAY_MS = 86_400_000;
export const SEARCH_WINDOW_DAYS = { before: 365, after: 365 };
const MAX_HITS = 20;
/** Per calendar: enough to fill the group, few enough to answer fast. */
const PER_CALENDAR = 10;

export interface CalendarSearchOptions {
  readonly t?: Translate;
  readonly now?: () => number;
  readonly locale?: string;
  /** How a moment reads (core/text/clock.ts's DeskClock `dateTime`: the user's Calendar zone, as the Agenda writes it). */
  readonly dateTime?: (ms: number) => string;
  /** The calendars the Agenda's cache knows (read from disk, no request): searched beside the calendar list. */
  readonly knownCalendars?: () => Promise<readonly CalendarListEntry[] | undefined>;
}

export class CalendarSearchSource implements SearchSource {
  readonly service = 'calendar' as const;
  private calendars: Promise<readonly CalendarListEntry[]> | undefined;
  private readonly t: Translate;
  private readonly now: () => number;

  constructor(private readonly api: SearchCalendarApi, private readonly options: CalendarSearchOptions = {}) {
    this.t = options.t ?? english;
    this.now = options.now ?? Date.now;
  }

  async search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    const now = this.now();
    const window = { timeMin: new Date(now - SEARCH_WINDOW_DAYS.before * DAY_MS).toISOString(), timeMax: new Date(now + SEARCH_WINDOW_DAYS.after * DAY_MS).toISOString() };
    // The calendar list is asked for at once: reading the view's cache is a disk read, not worth a wait before it.
    const listed = askedNow(this.calendarList());
    const known = (await this.options.knownCalendars?.().catch(() => undefined)) ?? [];
    const eventsOf = startEarly(known.filter(isSearched).map((calendar) => calendar.id), async (calendarId) => (await this.api.listEvents(calendarId, { q: query, ...window, singleEvents: true, orderBy: 'startTime', maxResults: 250, signal })).items);
    const calendars = await untilAborted(listed, signal);
    const answers = await Promise.allSettled(calendars.map(async (calendar) => (await eventsOf(calendar.id)).filter((event) => event.status !== 'cancelled').map((event) => ({ calendar, event, start: startOf(event) }))));
    const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    const found = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (failed && answers.every((answer) => answer.status === 'rejected')) throw failed.reason;
    const coming = found.filter((hit) => hit.start >= startOfToday(now)).sort((a, b) => a.start - b.start);
    const past = found.filter((hit) => hit.start < startOfToday(now)).sort((a, b) => b.start - a.start);
    // Each calendar contributes its nearest events, so a busy calendar cannot crowd out the others.
    const perCalendar = new Map<string, number>();
    const series = new Set<string>();
    const hits: SearchHit[] = [];
    for (const { calendar, event } of [...coming, ...past]) {
      const seriesKey = `${calendar.id}/${event.recurringEventId ?? event.id}`;
      if (series.has(seriesKey)) continue;
      series.add(seriesKey);
      const count = perCalendar.get(calendar.id) ?? 0;
      if (count >= PER_CALENDAR) continue;
      perCalendar.set(calendar.id, count + 1);
      hits.push({ title: event.summary || this.t('(no title)'), context: `${event.recurringEventId ? this.t('{0}, repeats', this.when(event, calendar)) : this.when(event, calendar)} · ${calendar.summaryOverride ?? calendar.summary ?? calendar.id}`, target: { kind: 'event', calendarId: calendar.id, event } });
      if (hits.length >= MAX_HITS) break;
    }
    return hits;
  }

  private calendarList(): Promise<readonly CalendarListEntry[]> {
    this.calendars ??= (async () => {
      const entries: CalendarListEntry[] = [];
      for await (const entry of this.api.allCalendarListEntries({ maxResults: 250 })) if (isSearched(entry)) entries.push(entry);
      return entries;
    })().catch((error: unknown) => {
      this.calendars = undefined;
      throw error;
    });
    return this.calendars;
  }

  /**
   * "Tue 1 Dec, 15:00" as Desk's clock writes it (the user's Calendar zone, the year when not this one); all-day
   * events by their date only. Without a clock (tests), the calendar's zone.
   */
  private when(event: CalendarEvent, calendar: CalendarListEntry): string {
    const date = event.start?.date;
    if (date) {
      // A date not of the form YYYY-MM-DD has parts missing.
      const parts: readonly (number | undefined)[] = date.split('-').map(Number);
      const [year, month, day] = parts;
      // A UTC noon written in UTC: no zone moves an all-day event's date.
      return formatDay(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1, 12), 'UTC', this.options.locale, this.now());
    }
    if (this.options.dateTime) return this.options.dateTime(startOf(event));
    const timeZone = event.start?.timeZone ?? calendar.timeZone;
    const options: Intl.DateTimeFormatOptions = { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    try {
      return new Intl.DateTimeFormat(this.options.locale, { ...options, ...(timeZone ? { timeZone } : {}) }).format(startOf(event));
    } catch {
      return new Intl.DateTimeFormat(this.options.locale, options).format(startOf(event));
    }
  }
}

/** Hidden calendars are not searched (as the Agenda does not show them). */
function isSearched(entry: CalendarListEntry): boolean {
  return !entry.hidden && !entry.deleted;
}

function startOf(event: CalendarEvent): number {
  const start = event.start?.dateTime ?? (event.start?.date ? `${event.start.date}T00:00:00Z` : undefined);
  const ms = start ? Date.parse(start) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

function startOfToday(now: number): number {
  return now - (now % DAY_MS);
}
