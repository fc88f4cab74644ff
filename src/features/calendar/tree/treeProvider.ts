/**
 * Renders the Calendar tree: an "Agenda" merging the selected calendars, then each calendar of the user's list (hidden
 * ones only while "Show Hidden Calendars" is on), each with its upcoming days and events. The model (model.ts) loads
 * and keeps everything (the calendars, the Agenda, the due tasks, the view's cache slot); the provider only turns its
 * nodes into TreeItems and tells VS Code when to draw them again.
 */
import type * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import type { CalendarListEntry } from '../../../shared/schemas/calendar';
import { AgendaNode, calendarName, CalendarNode, CalendarTreeModel, type CalendarTreeModelOptions, CalendarTreeNode, contextValueFor, Occurrence } from './model';
import { dayCount } from '../agenda/dueTasks';
import { dueTaskTreeItem } from '../agenda/dueTaskItem';
import { dateKey } from '../time';
import { calendarTooltip, dayLabel, eventDescription, eventTitle, eventTooltip, swatchDataUri } from './presentation';
import { messageTreeItem } from '../../../core/ui/treeMessage';
import { CALENDAR_COMMAND } from '../../../config/commandIds';

export interface CalendarTreeOptions extends Omit<CalendarTreeModelOptions, 'onRefreshed' | 't'> {
  readonly locale?: string;
}

/** How long a root refresh waits for VS Code to ask for the Agenda's rows (it asks at once unless the Agenda is collapsed). */
const AGENDA_ROWS_WAIT_MS = 1_000;

export class CalendarTreeProvider extends Disposable implements vscode.TreeDataProvider<CalendarTreeNode> {
  private readonly changeEmitter: vscode.EventEmitter<CalendarTreeNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<CalendarTreeNode | undefined>;
  /** The tree's data: calendars, the Agenda, the cached first rows. */
  readonly model: CalendarTreeModel;
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
    this.model = new CalendarTreeModel({ ...options, t: vs.l10n.t, onRefreshed: () => { this.refreshRoot(); } });
    this._register({ dispose: () => { clearTimeout(this.rootRefreshWanted); } });
  }

  get agenda(): AgendaNode {
    return this.model.agenda;
  }

  /** Reads the cached Agenda now, before the view asks (see FirstRowsFromCache.prefetch). */
  prefetchFirstRows(): void {
    this.model.prefetchFirstRows();
  }

  // ---- refresh

  /** Everything again: the calendar list and (the caller decides) the events. */
  refreshAll(): void {
    this.model.reset();
    this.refreshRoot();
  }

  /** Sign-out, another account or backend: nothing shown so far is kept for offline. */
  forgetKnown(): void {
    this.model.forgetKnown();
  }

  /** A root refresh, held while VS Code is between the root rows and the Agenda's (see agendaRowsPending). */
  private refreshRoot(): void {
    if (!this.agendaRowsPending) {
      this.changeEmitter.fire(undefined);
      return;
    }
    // Collapsed, the Agenda's rows are never asked for: the refresh goes after a moment anyway.
    this.rootRefreshWanted ??= setTimeout(() => { this.flushRootRefresh(); }, AGENDA_ROWS_WAIT_MS);
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
    const node = this.model.calendarNode(calendarId);
    if (node) this.changeEmitter.fire(node);
    if (this.model.isInAgenda(this.model.entry(calendarId))) this.changeEmitter.fire(this.model.agenda);
  }

  /** Redraws every row with a time on it (the day changed, or the zone or the number of days). */
  redrawEvents(): void {
    this.changeEmitter.fire(undefined);
  }

  // ---- data for commands and the status bar (the model's)

  calendars(): Promise<CalendarListEntry[]> {
    return this.model.calendars();
  }

  entry(calendarId: string): CalendarListEntry | undefined {
    return this.model.entry(calendarId);
  }

  calendarNode(calendarId: string): CalendarNode | undefined {
    return this.model.calendarNode(calendarId);
  }

  /** The calendars the Agenda, the status bar and reminders follow. */
  isInAgenda(entry: CalendarListEntry | undefined): boolean {
    return this.model.isInAgenda(entry);
  }

  agendaCalendars(): Promise<CalendarListEntry[]> {
    return this.model.agendaCalendars();
  }

  /** Every synced occurrence of the Agenda's calendars (no network beyond what is loaded). */
  agendaOccurrences(timeZone: string): Occurrence[] {
    return this.model.agendaOccurrences(timeZone);
  }

  occurrences(calendarId: string, timeZone: string): Occurrence[] {
    return this.model.occurrences(calendarId, timeZone);
  }

  // ---- TreeDataProvider

  async getChildren(element?: CalendarTreeNode): Promise<CalendarTreeNode[]> {
    if (!element) {
      const rows = await this.model.roots();
      this.agendaRowsPending = rows.includes(this.model.agenda);
      return rows;
    }
    if (element.kind === 'agenda') {
      try {
        return await this.model.scopeChildren(element);
      } finally {
        // After VS Code has taken these rows (its handling runs right after this promise settles).
        if (this.agendaRowsPending) setTimeout(() => { this.flushRootRefresh(); }, 0);
      }
    }
    if (element.kind === 'calendar') return this.model.scopeChildren(element);
    if (element.kind === 'day') return this.model.dayChildren(element);
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
      item.description = this.model.refreshing ? vs.l10n.t('refreshing…') : vs.l10n.t('next {0} days', this.options.daysAhead());
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
      const entry = this.model.entry(element.calendarId);
      const item = new vs.TreeItem(eventTitle(element.event, vs.l10n.t), state.None);
      item.id = element.id;
      item.contextValue = contextValueFor(element, entry);
      item.iconPath = vs.Uri.parse(swatchDataUri(entry?.backgroundColor, 'dot'));
      item.description = eventDescription(occurrence, this.model.zone, element.parent.group.key, element.inAgenda && entry && !entry.primary ? calendarName(entry) : undefined, vs.l10n.t, this.options.locale);
      item.accessibilityInformation = { label: `${eventTitle(element.event, vs.l10n.t)}, ${item.description}` };
      item.command = { command: CALENDAR_COMMAND.openEvent, title: vs.l10n.t('Open Event Details'), arguments: [element] };
      return item;
    }
    if (element.kind === 'dueTask') return dueTaskTreeItem(vs, element, dateKey(this.model.now, this.model.zone));
    const item = messageTreeItem(vs, { label: element.label, error: element.severity === 'error', retryCommand: CALENDAR_COMMAND.refresh, retryArguments: [element.parent] });
    item.id = element.id;
    item.contextValue = contextValueFor(element);
    return item;
  }

  /** Hovers are built only when shown: attendee lists and descriptions can be long and most rows are never hovered. */
  resolveTreeItem(item: vscode.TreeItem, element: CalendarTreeNode): vscode.TreeItem {
    if (element.kind === 'event') {
      const entry = this.model.entry(element.calendarId);
      const markdown = new this.vs.MarkdownString(eventTooltip(element.occurrence, entry ? calendarName(entry) : element.calendarId, this.model.zone, this.options.locale, this.vs.l10n.t));
      item.tooltip = markdown;
    } else if (element.kind === 'calendar') {
      const upcoming = this.model.upcomingCount(element.calendarId);
      item.tooltip = new this.vs.MarkdownString(calendarTooltip(element.entry, upcoming, this.vs.l10n.t));
    }
    return item;
  }
}
