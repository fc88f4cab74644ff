/**
 * The Calendar tree's data, without vscode: events become occurrences (start and end instants, all-day or timed),
 * occurrences are grouped by day in the user's time zone (Today, Tomorrow, then dates; all-day events first), and the
 * nodes carry stable ids (`<kind>/<ids>`) and their parent, so `reveal` and expansion survive reloads. The
 * CalendarTreeModel (end of file) loads the calendars, the Agenda and its due tasks and owns the view's cache slot;
 * the provider (treeProvider.ts) only turns its nodes into TreeItems.
 */
import { CALENDAR_ROW_FIELDS } from '../../../api/calendar';
import { errorMessage, isUnreachable } from '../../../api/errors';
import { CALENDAR_TREE_VIEW } from '../../../config/treeViews';
import { NotSignedInError } from '../../../core/accounts/session';
import { FirstRowsFromCache, type ViewSnapshotStore } from '../../../core/storage/viewCache';
import { appendAll } from '../../../shared/arrays';
import { english, type Translate } from '../../../shared/l10n';
import type { CalendarEvent, CalendarListEntry } from '../../../shared/schemas/calendar';
import { addDays, dateKey, startOfDay } from '../time';
import { dayRows, withDueTasks, type DueTask } from '../agenda/dueTasks';
import type { DueTaskStore } from '../agenda/dueTaskStore';
import type { CalendarApi } from '../port';
import type { EventStore } from '../sync/eventStore';
import { type AgendaSnapshot, CACHED_AGENDA_EVENTS } from './snapshot';

export const CALENDAR_VIEW_ID = CALENDAR_TREE_VIEW.id;


/** One event placed in time. All-day events keep their date keys (end exclusive), as the API gives them. */
export interface Occurrence {
  readonly calendarId: string;
  readonly event: CalendarEvent;
  readonly allDay: boolean;
  readonly start: number;
  readonly end: number;
  readonly startDate?: string;
  readonly endDate?: string;
}

/** Where an event is on the time line; undefined for cancelled events and ones without a usable start. */
export function occurrenceOf(calendarId: string, event: CalendarEvent, timeZone: string): Occurrence | undefined {
  if (event.status === 'cancelled' || !event.start) return undefined;
  const startDate = event.start.date ?? undefined;
  if (startDate) {
    const endDate = event.end?.date && event.end.date > startDate ? event.end.date : addDays(startDate, 1);
    return { calendarId, event, allDay: true, start: startOfDay(startDate, timeZone), end: startOfDay(endDate, timeZone), startDate, endDate };
  }
  const start = Date.parse(event.start.dateTime ?? '');
  if (Number.isNaN(start)) return undefined;
  const parsedEnd = Date.parse(event.end?.dateTime ?? '');
  return { calendarId, event, allDay: false, start, end: Number.isNaN(parsedEnd) || parsedEnd < start ? start : parsedEnd };
}

export type RelativeDay = 'today' | 'tomorrow';

export interface DayGroup {
  /** `YYYY-MM-DD` in the user's time zone. */
  readonly key: string;
  readonly relative: RelativeDay | undefined;
  readonly occurrences: readonly Occurrence[];
  /** The tasks due that day (the Agenda only; see agenda/dueTasks.ts). */
  readonly tasks?: readonly DueTask[];
}

export interface AgendaWindow {
  readonly now: number;
  readonly timeZone: string;
  /** How many days from today (today included). */
  readonly days: number;
}

function coversDay(occurrence: Occurrence, key: string, dayStart: number, dayEnd: number): boolean {
  if (occurrence.allDay) return (occurrence.startDate ?? '') <= key && key < (occurrence.endDate ?? '');
  if (occurrence.end === occurrence.start) return occurrence.start >= dayStart && occurrence.start < dayEnd;
  return occurrence.start < dayEnd && occurrence.end > dayStart;
}

/** All-day events first (by title), then by start time, then title: the order of every agenda. */
export function compareOccurrences(a: Occurrence, b: Occurrence): number {
  if (a.allDay !== b.allDay) return a.allDay ? -1 : 1;
  if (!a.allDay && a.start !== b.start) return a.start - b.start;
  const byTitle = (a.event.summary ?? '').localeCompare(b.event.summary ?? '');
  return byTitle || a.calendarId.localeCompare(b.calendarId) || a.event.id.localeCompare(b.event.id);
}

/**
 * The upcoming days that have events: today (only what has not ended yet), tomorrow, then dates. A multi-day event
 * appears under each day it covers; each day is sorted with all-day events first.
 */
export function groupByDay(occurrences: readonly Occurrence[], window: AgendaWindow): DayGroup[] {
  const today = dateKey(window.now, window.timeZone);
  const groups: DayGroup[] = [];
  for (let offset = 0; offset < window.days; offset++) {
    const key = addDays(today, offset);
    const dayStart = startOfDay(key, window.timeZone);
    const dayEnd = startOfDay(addDays(key, 1), window.timeZone);
    const onDay = occurrences
      .filter((occurrence) => coversDay(occurrence, key, dayStart, dayEnd))
      .filter((occurrence) => offset > 0 || occurrence.allDay || occurrence.end > window.now || (occurrence.end === occurrence.start && occurrence.start >= window.now))
      .sort(compareOccurrences);
    if (onDay.length === 0) continue;
    groups.push({ key, relative: offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : undefined, occurrences: onDay });
  }
  return groups;
}

/** The attendee entry of the signed-in user, if the event lists one. */
export function selfResponse(event: CalendarEvent): string | undefined {
  return event.attendees?.find((attendee) => attendee.self)?.responseStatus ?? undefined;
}

/** The link that joins the event's call: the Meet link, else the first video entry point. */
export function joinLinkOf(event: CalendarEvent): string | undefined {
  if (event.hangoutLink) return event.hangoutLink;
  const points = event.conferenceData?.entryPoints ?? [];
  return (points.find((point) => point.entryPointType === 'video') ?? points.find((point) => point.uri))?.uri ?? undefined;
}

export function isWritable(entry: Pick<CalendarListEntry, 'accessRole'> | undefined): boolean {
  return entry?.accessRole === 'owner' || entry?.accessRole === 'writer';
}

export function calendarName(entry: Pick<CalendarListEntry, 'id' | 'summary' | 'summaryOverride'>): string {
  return entry.summaryOverride || entry.summary || entry.id;
}

// ---- nodes

export class AgendaNode {
  readonly kind = 'agenda';
  readonly id = 'agenda';
  readonly parent = undefined;
  readonly scopeKey = 'agenda';
}

export class CalendarNode {
  readonly kind = 'calendar';
  readonly parent = undefined;
  constructor(readonly entry: CalendarListEntry) {}

  get id(): string {
    return `calendar/${this.entry.id}`;
  }

  get calendarId(): string {
    return this.entry.id;
  }

  get scopeKey(): string {
    return this.entry.id;
  }
}

export type ScopeNode = AgendaNode | CalendarNode;

export class DayNode {
  readonly kind = 'day';
  constructor(readonly parent: ScopeNode, readonly group: DayGroup) {}

  get id(): string {
    return `day/${this.parent.scopeKey}/${this.group.key}`;
  }
}

export class EventNode {
  readonly kind = 'event';
  constructor(readonly parent: DayNode, readonly occurrence: Occurrence) {}

  get id(): string {
    return `event/${this.parent.parent.scopeKey}/${this.parent.group.key}/${this.calendarId}/${this.event.id}`;
  }

  get calendarId(): string {
    return this.occurrence.calendarId;
  }

  get event(): CalendarEvent {
    return this.occurrence.event;
  }

  /** Whether the tree shows it under the Agenda (with the calendar's name) rather than under its calendar. */
  get inAgenda(): boolean {
    return this.parent.parent.kind === 'agenda';
  }
}

/** A task due on the day (the Agenda only): a checkbox that completes it, a click that shows it in the Tasks view. */
export class DueTaskNode {
  readonly kind = 'dueTask';
  constructor(readonly parent: DayNode, readonly dueTask: DueTask) {}

  get id(): string {
    return `task/${this.parent.parent.scopeKey}/${this.parent.group.key}/${this.dueTask.listId}/${this.dueTask.task.id}`;
  }
}

/** A row that is not data: "No upcoming events", "Loading…", or a load error with a retry. */
export class MessageNode {
  readonly kind = 'message';
  constructor(readonly parent: ScopeNode | undefined, readonly key: string, readonly label: string, readonly severity: 'info' | 'error' = 'info') {}

  get id(): string {
    return `message/${this.parent?.scopeKey ?? ''}/${this.key}`;
  }
}

export type CalendarTreeNode = AgendaNode | CalendarNode | DayNode | EventNode | DueTaskNode | MessageNode;

/** Space-separated words for `when` clauses (`viewItem =~ /\bwritable\b/`). */
export function contextValueFor(node: CalendarTreeNode, entry?: CalendarListEntry): string {
  if (node.kind === 'calendar') {
    const words = ['calendar'];
    if (node.entry.primary) words.push('primary');
    if (node.entry.accessRole === 'owner') words.push('owner');
    if (isWritable(node.entry)) words.push('writable');
    words.push(node.entry.hidden ? 'hidden' : 'shown');
    return words.join(' ');
  }
  if (node.kind === 'event') {
    const words = ['event'];
    if (isWritable(entry)) words.push('writable');
    if (node.event.recurringEventId || node.event.recurrence?.length) words.push('recurring');
    if (joinLinkOf(node.event)) words.push('joinable');
    // Invited: the user answers Yes / No / Maybe (Respond to Invitation).
    if (node.event.attendees?.some((attendee) => attendee.self)) words.push('attendee');
    return words.join(' ');
  }
  if (node.kind === 'dueTask') return node.dueTask.task.status === 'completed' ? 'dueTask completed' : 'dueTask open';
  if (node.kind === 'message') return node.severity === 'error' ? 'message error' : 'message';
  return node.kind;
}

export interface CalendarTreeModelOptions {
  readonly api: () => Pick<CalendarApi, 'allCalendarListEntries'>;
  readonly store: EventStore;
  /** The account's Calendar time zone (its settings). */
  readonly timeZone: () => Promise<string>;
  readonly daysAhead: () => number;
  readonly showHidden: () => boolean;
  readonly isSignedIn: () => Promise<boolean>;
  readonly withProgress: <T>(work: () => Promise<T>) => Promise<T>;
  readonly log: (message: string) => void;
  readonly now?: () => number;
  /** Words the rows' messages (vscode.l10n.t); English without it. */
  readonly t?: Translate;
  /** Called whenever the calendar list was (re)read. */
  readonly onCalendars?: (entries: readonly CalendarListEntry[]) => void;
  /** The account's tasks due on the Agenda's days (desk.calendar.showTasks), and whether completed ones show (desk.tasks.showCompleted). */
  readonly dueTasks?: { readonly store: DueTaskStore; enabled(): boolean; showCompleted(): boolean };
  /** The view's slot of the model's account (tree/snapshot.ts): shown at the first start until the fresh events come. */
  readonly cache?: ViewSnapshotStore<AgendaSnapshot>;
  /** The cached rows were replaced (fresh ones in) or dropped (another account's): the whole tree is drawn again. */
  readonly onRefreshed?: () => void;
}

/**
 * The Calendar tree of one account, without vscode: the calendar list, the Agenda (the selected calendars' events
 * merged by day, with the due tasks) and each calendar's days, from the EventStore (synced with sync tokens). At the
 * first start the last session's Agenda (its slot) stands in while the calendars and events load; offline, what was
 * shown last stays.
 */
export class CalendarTreeModel {
  readonly agenda = new AgendaNode();
  private list: Promise<CalendarListEntry[]> | undefined;
  private entries = new Map<string, CalendarListEntry>();
  private readonly calendarNodes = new Map<string, CalendarNode>();
  /** The zone the rows were last built in (for the synchronous tree items). */
  private zoneValue = 'UTC';
  private readonly firstRows: FirstRowsFromCache<AgendaSnapshot>;
  /** The Agenda as last shown (saved this session, or cached at the last): what it keeps showing offline. */
  private knownAgenda: AgendaSnapshot | undefined;
  private readonly t: Translate;

  constructor(private readonly options: CalendarTreeModelOptions) {
    this.t = options.t ?? english;
    this.firstRows = new FirstRowsFromCache(options.cache, () => options.onRefreshed?.());
  }

  /** The zone the rows were last built in. */
  get zone(): string {
    return this.zoneValue;
  }

  get now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The rows shown are the last session's, waiting for the fresh ones. */
  get refreshing(): boolean {
    return this.firstRows.refreshing;
  }

  /** Reads the cached Agenda now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.firstRows.prefetch();
  }

  /** Everything again: the calendar list (the caller decides about the events); no cached rows after it. */
  reset(): void {
    this.firstRows.reset();
    this.list = undefined;
  }

  /** Sign-out, another account or backend: nothing shown so far is kept for offline. */
  forgetKnown(): void {
    this.knownAgenda = undefined;
    this.entries = new Map();
  }

  // ---- data for commands and the status bar

  async calendars(): Promise<CalendarListEntry[]> {
    this.list ??= this.options.withProgress(async () => {
      const entries: CalendarListEntry[] = [];
      for await (const entry of this.options.api().allCalendarListEntries({ showHidden: true, fields: CALENDAR_ROW_FIELDS })) entries.push(entry);
      this.entries = new Map(entries.map((entry) => [entry.id, entry]));
      this.options.onCalendars?.(entries);
      return entries;
    });
    const loading = this.list;
    loading.catch(() => {
      if (this.list === loading) this.list = undefined;
    });
    try {
      return await loading;
    } catch (error) {
      // Offline: the calendars as last known, so commands still find one (New Event offline).
      if (!isUnreachable(error)) throw error;
      const known = this.entries.size > 0 ? [...this.entries.values()] : this.knownAgenda?.calendars;
      if (!known) throw error;
      return known;
    }
  }

  entry(calendarId: string): CalendarListEntry | undefined {
    return this.entries.get(calendarId);
  }

  calendarNode(calendarId: string): CalendarNode | undefined {
    return this.calendarNodes.get(calendarId);
  }

  /** The calendars the Agenda, the status bar and reminders follow. */
  isInAgenda(entry: CalendarListEntry | undefined): boolean {
    return entry !== undefined && entry.selected !== false && !entry.hidden && !entry.deleted;
  }

  async agendaCalendars(): Promise<CalendarListEntry[]> {
    return (await this.calendars()).filter((entry) => this.isInAgenda(entry));
  }

  /** Every synced occurrence of the Agenda's calendars (no network beyond what is loaded). */
  agendaOccurrences(timeZone: string): Occurrence[] {
    return [...this.entries.values()].filter((entry) => this.isInAgenda(entry)).flatMap((entry) => this.occurrences(entry.id, timeZone));
  }

  occurrences(calendarId: string, timeZone: string): Occurrence[] {
    return this.options.store.events(calendarId).flatMap((event) => occurrenceOf(calendarId, event, timeZone) ?? []);
  }

  /** A calendar's upcoming occurrences in the Agenda's window (its hover), undefined until its events are loaded. */
  upcomingCount(calendarId: string): number | undefined {
    if (!this.options.store.isLoaded(calendarId)) return undefined;
    return groupByDay(this.occurrences(calendarId, this.zoneValue), { now: this.now, timeZone: this.zoneValue, days: this.options.daysAhead() }).reduce((sum, day) => sum + day.occurrences.length, 0);
  }

  // ---- rows

  /** The Agenda and the calendars shown; none when signed out (the welcome view), the cached ones at the first start. */
  async roots(): Promise<CalendarTreeNode[]> {
    // The welcome view shows the sign-in buttons; the cached rows show without waiting for that check.
    if (!(await this.firstRows.startsFromCache()) && !(await this.options.isSignedIn())) return [];
    // At the first start, the last session's calendars and Agenda while the calendars and their events load.
    const cached = (await this.firstRows.firstStart(() => this.loadAgenda())) ?? this.firstRows.snapshot;
    this.preloadDueTasks();
    if (cached) this.knownAgenda ??= cached;
    if (cached) {
      this.zoneValue = cached.timeZone;
      return [this.agenda, ...cached.calendars.filter((entry) => !entry.deleted && (this.options.showHidden() || !entry.hidden)).map((entry) => this.calendarNodeOf(entry))];
    }
    try {
      const [entries, zone] = await Promise.all([this.calendars(), this.options.timeZone()]);
      this.zoneValue = zone;
      const shown = entries.filter((entry) => !entry.deleted && (this.options.showHidden() || !entry.hidden));
      return [this.agenda, ...shown.map((entry) => this.calendarNodeOf(entry))];
    } catch (error) {
      if (error instanceof NotSignedInError) return [];
      if (isUnreachable(error)) return this.offlineRoots();
      this.options.log(`Could not load the calendars: ${errorMessage(error)}`);
      return [new MessageNode(undefined, 'error', this.t('Could not load the calendars: {0}', errorMessage(error, this.t)), 'error')];
    }
  }

  /** A day's rows: its due tasks and events, in the order the Agenda shows them. */
  dayChildren(day: DayNode): CalendarTreeNode[] {
    return dayRows({ ...day.group, tasks: day.group.tasks ?? [] }).map((row) => (row.kind === 'task' ? new DueTaskNode(day, row.dueTask) : new EventNode(day, row.occurrence)));
  }

  /** The days of the Agenda or of one calendar, with error rows for what could not load. */
  async scopeChildren(scope: ScopeNode): Promise<CalendarTreeNode[]> {
    const snapshot = this.firstRows.snapshot;
    if (snapshot && scope.kind === 'agenda') return this.cachedDays(scope, snapshot);
    if (scope.kind === 'agenda') this.preloadDueTasks();
    const calendarIds = await this.scopeCalendarIds(scope);
    const results = await Promise.allSettled(calendarIds.map((id) => this.options.store.ensureLoaded(id)));
    const failed = results.flatMap((result, index) => (result.status === 'rejected' ? [{ id: calendarIds[index] ?? '', error: result.reason as unknown }] : []));
    const rows: CalendarTreeNode[] = [];
    // Offline with events never loaded this session: the Agenda as last shown, a calendar's "Not available offline".
    const offline = failed.filter((failure) => isUnreachable(failure.error));
    if (offline.length > 0 && offline.length === failed.length) {
      if (scope.kind === 'agenda' && this.knownAgenda) return this.cachedDays(scope, this.knownAgenda);
      if (calendarIds.every((id) => !this.options.store.isLoaded(id))) return [new MessageNode(scope, 'offline', this.t('Not available offline'))];
    }
    for (const failure of failed) {
      if (failure.error instanceof NotSignedInError) return [];
      if (isUnreachable(failure.error)) continue;
      const name = calendarName(this.entries.get(failure.id) ?? { id: failure.id });
      this.options.log(`Could not load the events of ${failure.id}: ${errorMessage(failure.error)}`);
      rows.push(new MessageNode(scope, `error/${failure.id}`, this.t('Could not load the events of {0}: {1}', name, errorMessage(failure.error, this.t)), 'error'));
    }
    const zone = await this.options.timeZone();
    this.zoneValue = zone;
    const occurrences = calendarIds.filter((id) => this.options.store.isLoaded(id)).flatMap((id) => this.occurrences(id, zone));
    const window = { now: this.now, timeZone: zone, days: this.options.daysAhead() };
    let days: DayGroup[] = groupByDay(occurrences, window);
    const dueTasks = this.options.dueTasks;
    if (scope.kind === 'agenda' && dueTasks?.enabled()) {
      try {
        days = withDueTasks(days, await dueTasks.store.ensureLoaded(), window, dueTasks.showCompleted());
      } catch (error) {
        if (error instanceof NotSignedInError) return [];
        // Offline: the events show without the due tasks (the view's header says it is offline).
        if (isUnreachable(error)) return [...rows, ...days.map((group) => new DayNode(scope, group))];
        this.options.log(`Could not load the due tasks: ${errorMessage(error)}`);
        rows.push(new MessageNode(scope, 'error/tasks', this.t('Could not load the due tasks: {0}', errorMessage(error, this.t)), 'error'));
      }
    }
    appendAll(rows, days.map((group) => new DayNode(scope, group)));
    if (scope.kind === 'agenda' && failed.length === 0) this.saveAgenda(zone, days);
    if (days.length === 0 && failed.length === 0) rows.push(new MessageNode(scope, 'empty', this.t('No events in the next {0} days', this.options.daysAhead())));
    return rows;
  }

  // ---- loading

  /** Offline: the calendars as last known (this session, or the cached Agenda's), or one row saying none are. */
  private offlineRoots(): CalendarTreeNode[] {
    const entries = this.entries.size > 0 ? [...this.entries.values()] : this.knownAgenda?.calendars;
    if (!entries) return [new MessageNode(undefined, 'offline', this.t('Not available offline'))];
    if (this.entries.size === 0 && this.knownAgenda) this.zoneValue = this.knownAgenda.timeZone;
    return [this.agenda, ...entries.filter((entry) => !entry.deleted && (this.options.showHidden() || !entry.hidden)).map((entry) => this.calendarNodeOf(entry))];
  }

  /** The calendars a scope shows: offline, those known (the list cannot be read). */
  private async scopeCalendarIds(scope: ScopeNode): Promise<string[]> {
    if (scope.kind !== 'agenda') return [scope.calendarId];
    try {
      return (await this.agendaCalendars()).map((entry) => entry.id);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const known = this.entries.size > 0 ? [...this.entries.values()] : this.knownAgenda?.calendars ?? [];
      return known.filter((entry) => this.isInAgenda(entry)).map((entry) => entry.id);
    }
  }

  private calendarNodeOf(entry: CalendarListEntry): CalendarNode {
    const node = new CalendarNode(entry);
    this.calendarNodes.set(entry.id, node);
    return node;
  }

  /**
   * The Agenda's due tasks start loading with the calendars: they depend on nothing of Calendar's, so their two
   * round trips (lists, then each list's tasks) run beside the calendar list and the events instead of after them.
   */
  private preloadDueTasks(): void {
    const dueTasks = this.options.dueTasks;
    // A failed preload is not kept; the Agenda's own request for them reports the error (dueTaskStore.ts).
    if (dueTasks?.enabled()) dueTasks.store.ensureLoaded(this.firstRows.snapshot?.taskLists).catch(() => undefined);
  }

  /**
   * The calendars, the zone and the Agenda calendars' events in one round trip: the events of the calendars the cache
   * knows start with the calendar list instead of after it. When the list answers, a calendar added is loaded (its
   * own round trip) and one removed is forgotten (its rows go with it, since the Agenda shows the list's calendars).
   */
  private async loadAgenda(): Promise<void> {
    this.preloadDueTasks();
    const known = (this.firstRows.snapshot?.calendars ?? []).filter((entry) => this.isInAgenda(entry)).map((entry) => entry.id);
    const early = known.map((id) => this.options.store.ensureLoaded(id).catch(() => undefined));
    const [entries] = await Promise.all([this.agendaCalendars(), this.options.timeZone()]);
    await Promise.allSettled([...early, ...entries.filter((entry) => !known.includes(entry.id)).map((entry) => this.options.store.ensureLoaded(entry.id))]);
    const current = new Set(entries.map((entry) => entry.id));
    for (const id of known) if (!current.has(id)) this.options.store.forget(id);
  }

  /** The cached Agenda's day rows, regrouped for today (what has ended since is gone). */
  private cachedDays(scope: ScopeNode, snapshot: AgendaSnapshot): CalendarTreeNode[] {
    const occurrences = snapshot.events.flatMap(({ calendarId, event }) => occurrenceOf(calendarId, event, snapshot.timeZone) ?? []);
    return groupByDay(occurrences, { now: this.now, timeZone: snapshot.timeZone, days: this.options.daysAhead() }).map((group) => new DayNode(scope, group));
  }

  /** Keeps the Agenda's events (and the calendars, the zone, the due tasks' lists) in the slot for the next start. */
  private saveAgenda(timeZone: string, days: readonly DayGroup[]): void {
    const seen = new Set<string>();
    const events: AgendaSnapshot['events'] = [];
    for (const occurrence of days.flatMap((day) => day.occurrences)) {
      const key = `${occurrence.calendarId}/${occurrence.event.id}`;
      if (seen.has(key) || events.length >= CACHED_AGENDA_EVENTS) continue;
      seen.add(key);
      events.push({ calendarId: occurrence.calendarId, event: occurrence.event });
    }
    const taskLists = this.options.dueTasks?.enabled() ? this.options.dueTasks.store.taskLists : undefined;
    this.knownAgenda = { calendars: [...this.entries.values()], timeZone, events };
    this.firstRows.save({ calendars: [...this.entries.values()], timeZone, events, ...(taskLists ? { taskLists: taskLists.map((list) => ({ id: list.id, ...(list.title !== undefined ? { title: list.title } : {}) })) } : {}) });
  }
}
