/**
 * Renders the Calendar tree: an "Agenda" merging the selected calendars, then each calendar of the user's list (hidden
 * ones only while "Show Hidden Calendars" is on), each with its upcoming days and events. Events come from the
 * EventStore (synced with sync tokens); the provider only turns the model's nodes into TreeItems.
 */
import type * as vscode from 'vscode';
import { CALENDAR_ROW_FIELDS } from '../../../api/calendar';
import { errorMessage, isUnreachable } from '../../../api/errors';
import { Disposable } from '../../../core/disposable';
import { NotSignedInError } from '../../../core/accounts/session';
import type { CalendarListEntry } from '../../../shared/schemas/calendar';
import type { CalendarApi } from '../port';
import type { EventStore } from '../sync/eventStore';
import { FirstRowsFromCache, type ViewSnapshotStore } from '../../../core/storage/viewCache';
import { AgendaNode, type AgendaSnapshot, CACHED_AGENDA_EVENTS, calendarName, CalendarNode, CalendarTreeNode, contextValueFor, DayGroup, DayNode, DueTaskNode, EventNode, groupByDay, MessageNode, Occurrence, occurrenceOf, ScopeNode } from './model';
import { dayCount, dayRows, withDueTasks } from '../agenda/dueTasks';
import type { DueTaskStore } from '../agenda/dueTaskStore';
import { dueTaskTreeItem } from '../agenda/dueTaskItem';
import { dateKey } from '../time';
import { calendarTooltip, dayLabel, eventDescription, eventTitle, eventTooltip, swatchDataUri } from './presentation';
import { messageTreeItem } from '../../../core/ui/treeMessage';
import { CALENDAR_COMMAND } from '../../../config/commandIds';
import { appendAll } from '../../../shared/arrays';

export interface CalendarTreeOptions {
  readonly api: () => Pick<CalendarApi, 'allCalendarListEntries'>;
  readonly store: EventStore;
  readonly timeZone: () => Promise<string>;
  readonly daysAhead: () => number;
  readonly showHidden: () => boolean;
  readonly isSignedIn: () => Promise<boolean>;
  readonly withProgress: <T>(work: () => Promise<T>) => Promise<T>;
  readonly log: (message: string) => void;
  readonly now?: () => number;
  readonly locale?: string;
  /** Called whenever the calendar list was (re)read. */
  readonly onCalendars?: (entries: readonly CalendarListEntry[]) => void;
  /** The tasks due on the Agenda's days (desk.calendar.showTasks), and whether completed ones show (desk.tasks.showCompleted). */
  readonly dueTasks?: { readonly store: DueTaskStore; enabled(): boolean; showCompleted(): boolean };
  /** What the Agenda showed last (core/storage/viewCache.ts), shown at the first start until the fresh events come. */
  readonly cache?: ViewSnapshotStore<AgendaSnapshot>;
}

/** How long a root refresh waits for VS Code to ask for the Agenda's rows (it asks at once unless the Agenda is collapsed). */
const AGENDA_ROWS_WAIT_MS = 1_000;

export class CalendarTreeProvider extends Disposable implements vscode.TreeDataProvider<CalendarTreeNode> {
  private readonly changeEmitter: vscode.EventEmitter<CalendarTreeNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<CalendarTreeNode | undefined>;
  readonly agenda = new AgendaNode();
  private list: Promise<CalendarListEntry[]> | undefined;
  private entries = new Map<string, CalendarListEntry>();
  private readonly calendarNodes = new Map<string, CalendarNode>();
  /** The zone the rows were last built in (for the synchronous getTreeItem). */
  private zone = 'UTC';
  private readonly firstRows: FirstRowsFromCache<AgendaSnapshot>;
  /** The Agenda as last shown (saved this session, or cached at the last): what it keeps showing offline. */
  private knownAgenda: AgendaSnapshot | undefined;
  /**
   * The root rows were given and VS Code has not yet asked for the (expanded) Agenda's rows. A root refresh then would
   * clear the rows VS Code is about to ask for ("No tree item with id '1/agenda' found"): the Agenda stayed
   * "refreshing…" with no rows. Such a refresh waits until the Agenda's rows are given (or briefly, if it is collapsed).
   */
  private agendaRowsPending = false;
  private rootRefreshWanted: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly vs: typeof vscode, private readonly options: CalendarTreeOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<CalendarTreeNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.firstRows = new FirstRowsFromCache(options.cache, () => this.refreshRoot());
    this._register({ dispose: () => clearTimeout(this.rootRefreshWanted) });
  }

  /** Reads the cached Agenda now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.firstRows.prefetch();
  }

  private get now(): number {
    return this.options.now?.() ?? Date.now();
  }

  // ---- refresh

  /** Everything again: the calendar list and (the caller decides) the events. */
  refreshAll(): void {
    this.firstRows.reset();
    this.list = undefined;
    this.refreshRoot();
  }

  /** Sign-out, another account or backend: nothing shown so far is kept for offline. */
  forgetKnown(): void {
    this.knownAgenda = undefined;
    this.entries = new Map();
  }

  /** A root refresh, held while VS Code is between the root rows and the Agenda's (see agendaRowsPending). */
  private refreshRoot(): void {
    if (!this.agendaRowsPending) {
      this.changeEmitter.fire(undefined);
      return;
    }
    // Collapsed, the Agenda's rows are never asked for: the refresh goes after a moment anyway.
    this.rootRefreshWanted ??= setTimeout(() => this.flushRootRefresh(), AGENDA_ROWS_WAIT_MS);
  }

  private flushRootRefresh(): void {
    this.agendaRowsPending = false;
    if (this.rootRefreshWanted === undefined) return;
    clearTimeout(this.rootRefreshWanted);
    this.rootRefreshWanted = undefined;
    this.changeEmitter.fire(undefined);
  }

  /** Redraws the rows that show one calendar's events (after a sync): its own node and the Agenda. */
  redrawCalendar(calendarId: string): void {
    const node = this.calendarNodes.get(calendarId);
    if (node) this.changeEmitter.fire(node);
    if (this.isInAgenda(this.entries.get(calendarId))) this.changeEmitter.fire(this.agenda);
  }

  /** Redraws every row with a time on it (the day changed, or the zone or the number of days). */
  redrawEvents(): void {
    this.changeEmitter.fire(undefined);
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

  // ---- TreeDataProvider

  async getChildren(element?: CalendarTreeNode): Promise<CalendarTreeNode[]> {
    if (!element) {
      const rows = await this.rootChildren();
      this.agendaRowsPending = rows.includes(this.agenda);
      return rows;
    }
    if (element.kind === 'agenda') {
      try {
        return await this.scopeChildren(element);
      } finally {
        // After VS Code has taken these rows (its handling runs right after this promise settles).
        if (this.agendaRowsPending) setTimeout(() => this.flushRootRefresh(), 0);
      }
    }
    if (element.kind === 'calendar') return this.scopeChildren(element);
    if (element.kind === 'day') return dayRows({ ...element.group, tasks: element.group.tasks ?? [] }).map((row) => (row.kind === 'task' ? new DueTaskNode(element, row.dueTask) : new EventNode(element, row.occurrence)));
    return [];
  }

  getParent(element: CalendarTreeNode): CalendarTreeNode | undefined {
    return element.parent;
  }

  getTreeItem(element: CalendarTreeNode): vscode.TreeItem {
    const vs = this.vs;
    const state = vs.TreeItemCollapsibleState;
    if (element.kind === 'agenda') {
      const item = new vs.TreeItem(vs.l10n.t('Agenda'), state.Expanded);
      item.id = element.id;
      item.contextValue = contextValueFor(element);
      item.iconPath = new vs.ThemeIcon('calendar');
      item.description = this.firstRows.refreshing ? vs.l10n.t('refreshing…') : vs.l10n.t('next {0} days', this.options.daysAhead());
      item.tooltip = vs.l10n.t('Upcoming events of the calendars shown in the Agenda');
      return item;
    }
    if (element.kind === 'calendar') {
      const { entry } = element;
      const item = new vs.TreeItem(calendarName(entry), state.Collapsed);
      item.id = element.id;
      item.contextValue = contextValueFor(element);
      item.iconPath = vs.Uri.parse(swatchDataUri(entry.backgroundColor, 'square'));
      const notes = [entry.primary ? vs.l10n.t('primary') : undefined, entry.hidden ? vs.l10n.t('hidden') : entry.selected === false ? vs.l10n.t('not in Agenda') : undefined, entry.accessRole === 'reader' || entry.accessRole === 'freeBusyReader' ? vs.l10n.t('read-only') : undefined].filter(Boolean);
      if (notes.length) item.description = notes.join(' · ');
      return item;
    }
    if (element.kind === 'day') {
      const { group } = element;
      const label = group.relative === 'today' ? vs.l10n.t('Today') : group.relative === 'tomorrow' ? vs.l10n.t('Tomorrow') : dayLabel(group.key, this.options.locale);
      const item = new vs.TreeItem(label, state.Expanded);
      item.id = element.id;
      item.contextValue = contextValueFor(element);
      const count = dayCount(group.occurrences.length, group.tasks?.length ?? 0, vs.l10n.t);
      item.description = group.relative ? `${dayLabel(group.key, this.options.locale)} · ${count}` : count;
      return item;
    }
    if (element.kind === 'event') {
      const { occurrence } = element;
      const entry = this.entries.get(element.calendarId);
      const item = new vs.TreeItem(eventTitle(element.event, vs.l10n.t), state.None);
      item.id = element.id;
      item.contextValue = contextValueFor(element, entry);
      item.iconPath = vs.Uri.parse(swatchDataUri(entry?.backgroundColor, 'dot'));
      item.description = eventDescription(occurrence, this.zone, element.parent.group.key, element.inAgenda && entry && !entry.primary ? calendarName(entry) : undefined, vs.l10n.t, this.options.locale);
      item.accessibilityInformation = { label: `${eventTitle(element.event, vs.l10n.t)}, ${item.description}` };
      item.command = { command: CALENDAR_COMMAND.openEvent, title: vs.l10n.t('Open Event Details'), arguments: [element] };
      return item;
    }
    if (element.kind === 'dueTask') return dueTaskTreeItem(vs, element, dateKey(this.now, this.zone));
    const item = messageTreeItem(vs, { label: element.label, error: element.severity === 'error', retryCommand: CALENDAR_COMMAND.refresh, retryArguments: [element.parent] });
    item.id = element.id;
    item.contextValue = contextValueFor(element);
    return item;
  }

  /** Hovers are built only when shown: attendee lists and descriptions can be long and most rows are never hovered. */
  resolveTreeItem(item: vscode.TreeItem, element: CalendarTreeNode): vscode.TreeItem {
    if (element.kind === 'event') {
      const entry = this.entries.get(element.calendarId);
      const markdown = new this.vs.MarkdownString(eventTooltip(element.occurrence, entry ? calendarName(entry) : element.calendarId, this.zone, this.options.locale, this.vs.l10n.t));
      item.tooltip = markdown;
    } else if (element.kind === 'calendar') {
      const upcoming = this.options.store.isLoaded(element.calendarId)
        ? groupByDay(this.occurrences(element.calendarId, this.zone), { now: this.now, timeZone: this.zone, days: this.options.daysAhead() }).reduce((sum, day) => sum + day.occurrences.length, 0)
        : undefined;
      item.tooltip = new this.vs.MarkdownString(calendarTooltip(element.entry, upcoming, this.vs.l10n.t));
    }
    return item;
  }

  // ---- loading

  private async rootChildren(): Promise<CalendarTreeNode[]> {
    // The welcome view shows the sign-in buttons; the cached rows show without waiting for that check.
    if (!(await this.firstRows.startsFromCache()) && !(await this.options.isSignedIn())) return [];
    // At the first start, the last session's calendars and Agenda while the calendars and their events load.
    const cached = (await this.firstRows.firstStart(() => this.loadAgenda())) ?? this.firstRows.snapshot;
    this.preloadDueTasks();
    if (cached) this.knownAgenda ??= cached;
    if (cached) {
      this.zone = cached.timeZone;
      return [this.agenda, ...cached.calendars.filter((entry) => !entry.deleted && (this.options.showHidden() || !entry.hidden)).map((entry) => this.calendarNodeOf(entry))];
    }
    try {
      const [entries, zone] = await Promise.all([this.calendars(), this.options.timeZone()]);
      this.zone = zone;
      const shown = entries.filter((entry) => !entry.deleted && (this.options.showHidden() || !entry.hidden));
      return [this.agenda, ...shown.map((entry) => this.calendarNodeOf(entry))];
    } catch (error) {
      if (error instanceof NotSignedInError) return [];
      if (isUnreachable(error)) return this.offlineRoots();
      this.options.log(`Could not load the calendars: ${errorMessage(error)}`);
      return [new MessageNode(undefined, 'error', this.vs.l10n.t('Could not load the calendars: {0}', errorMessage(error, this.vs.l10n.t)), 'error')];
    }
  }

  /** Offline: the calendars as last known (this session, or the cached Agenda's), or one row saying none are. */
  private offlineRoots(): CalendarTreeNode[] {
    const entries = this.entries.size > 0 ? [...this.entries.values()] : this.knownAgenda?.calendars;
    if (!entries) return [new MessageNode(undefined, 'offline', this.vs.l10n.t('Not available offline'))];
    if (this.entries.size === 0 && this.knownAgenda) this.zone = this.knownAgenda.timeZone;
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

  private async scopeChildren(scope: ScopeNode): Promise<CalendarTreeNode[]> {
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
      if (calendarIds.every((id) => !this.options.store.isLoaded(id))) return [new MessageNode(scope, 'offline', this.vs.l10n.t('Not available offline'))];
    }
    for (const failure of failed) {
      if (failure.error instanceof NotSignedInError) return [];
      if (isUnreachable(failure.error)) continue;
      const name = calendarName(this.entries.get(failure.id) ?? { id: failure.id });
      this.options.log(`Could not load the events of ${failure.id}: ${errorMessage(failure.error)}`);
      rows.push(new MessageNode(scope, `error/${failure.id}`, this.vs.l10n.t('Could not load the events of {0}: {1}', name, errorMessage(failure.error, this.vs.l10n.t)), 'error'));
    }
    const zone = await this.options.timeZone();
    this.zone = zone;
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
        rows.push(new MessageNode(scope, 'error/tasks', this.vs.l10n.t('Could not load the due tasks: {0}', errorMessage(error, this.vs.l10n.t)), 'error'));
      }
    }
    appendAll(rows, days.map((group) => new DayNode(scope, group)));
    if (scope.kind === 'agenda' && failed.length === 0) this.saveAgenda(zone, days);
    if (days.length === 0 && failed.length === 0) rows.push(new MessageNode(scope, 'empty', this.vs.l10n.t('No events in the next {0} days', this.options.daysAhead())));
    return rows;
  }

  /** Keeps the Agenda's events (and the calendars, the zone) for the next start. */
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
