/**
 * The Calendar feature as one Disposable: the tree (Agenda + calendars), the event store kept current with sync tokens
 * (one sync-engine poller per Agenda calendar), the commands, the event-details and settings documents, the free/busy
 * webview and the next-event status bar with its reminders. Nothing touches the network during activation: the tree
 * loads when VS Code first asks for its rows, and timers start only after the first sign-in check says signed in.
 */
import type * as vscode from 'vscode';
import { CalendarClient } from '../../api/calendar';
import { errorMessage } from '../../api/errors';
import { DESK_SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { SYSTEM_CLOCK } from '../../core/sync/poller';
import { CALENDAR_INFO_SCHEME, CalendarCommands, EVENT_DETAILS_SCHEME, SHOW_HIDDEN_CONTEXT_KEY } from './commands';
import { CalendarPrompts } from './commands/context';
import type { CalendarApi } from './port';
import { NextEventStatus } from './status/statusBar';
import { CalendarSync } from './sync/calendarSync';
import { EventStore } from './sync/eventStore';
import { isValidTimeZone, systemTimeZone } from './time';
import { CALENDAR_VIEW_ID, calendarName, CalendarTreeNode, isAgendaSnapshot, occurrenceOf } from './tree/model';
import { eventDetailsMarkdown, settingsMarkdown } from './tree/presentation';
import { CalendarTreeProvider } from './tree/treeProvider';
import { DueTaskStore } from './agenda/dueTaskStore';
import { DueTasksInAgenda } from './agenda/dueTasksInAgenda';

const SETTING_DAYS = 'desk.calendar.daysAhead';
const SETTING_REMINDERS = 'desk.calendar.reminders';

/** The Calendar slice as activate() returns it to tests. */
export interface CalendarSlice {
  readonly api: CalendarApi;
  readonly tree: CalendarTreeProvider;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly commands: CalendarCommands;
  readonly store: EventStore;
  readonly sync: CalendarSync;
  readonly status: NextEventStatus;
  /** The tasks due on the Agenda's days, and their checkboxes and commands. */
  readonly dueTasks: DueTaskStore;
  readonly agendaTasks: DueTasksInAgenda;
  /** The user's Calendar time zone (settings.get timezone), the machine's until it is known. */
  timeZone(): Promise<string>;
  /** Starts the status bar, reminders and sync when signed in with a backend up (what sign-in does). */
  startTimers(): Promise<void>;
}

export function registerCalendar(desk: DeskContext): CalendarSlice {
  return desk.register(new CalendarFeature(desk));
}

class CalendarFeature extends Disposable implements CalendarSlice {
  readonly api: CalendarApi;
  readonly tree: CalendarTreeProvider;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly commands: CalendarCommands;
  readonly store: EventStore;
  readonly sync: CalendarSync;
  readonly status: NextEventStatus;
  readonly dueTasks: DueTaskStore;
  readonly agendaTasks: DueTasksInAgenda;
  private zone: Promise<string> | undefined;
  private knownZone = systemTimeZone();
  private showHidden = false;
  private timersWanted = false;
  private lastDay = '';

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.api = new CalendarClient(desk.httpClient((endpoints) => endpoints.calendar, DESK_SCOPES));
    this.store = new EventStore({
      api: () => this.api,
      onChange: (calendarId) => {
        this.tree.redrawCalendar(calendarId);
        this.status.update();
      },
    });
    const agendaTasks = this._register(new DueTasksInAgenda(desk, { redraw: () => this.tree.redrawEvents() }));
    this.agendaTasks = agendaTasks;
    this.dueTasks = agendaTasks.store;
    this.tree = this._register(new CalendarTreeProvider(vs, {
      api: () => this.api,
      store: this.store,
      timeZone: () => this.timeZone(),
      daysAhead: () => this.daysAhead(),
      showHidden: () => this.showHidden,
      isSignedIn: () => desk.session.isSignedIn(),
      withProgress: (work) => Promise.resolve(vs.window.withProgress({ location: { viewId: CALENDAR_VIEW_ID } }, work)),
      log: (message) => desk.log.warn(message),
      locale: vs.env.language,
      onCalendars: () => void this.followAgenda(),
      dueTasks: agendaTasks.treeOptions(),
      cache: desk.viewCache.view('calendar-agenda', isAgendaSnapshot),
    }));
    // Due tasks have checkboxes; a day's row has none (each checkbox is one task).
    this.view = this._register(vs.window.createTreeView(CALENDAR_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true, manageCheckboxStateManually: true }));
    agendaTasks.attach(this.view);

    const now = (): number => Date.now();
    const context = {
      desk,
      api: () => this.api,
      tree: this.tree,
      view: this.view,
      store: this.store,
      timeZone: () => this.timeZone(),
      now,
      prompts: new CalendarPrompts(vs, this.tree, this.store, () => this.timeZone(), now),
    };
    this.commands = new CalendarCommands(context, {
      refresh: (node) => this.refresh(node),
      setShowHidden: async (show) => {
        this.showHidden = show;
        await vs.commands.executeCommand('setContext', SHOW_HIDDEN_CONTEXT_KEY, show);
        this.tree.refreshAll();
      },
      // The status bar item's click; the item exists before the commands are called.
      openNextEvent: async () => {
        const next = this.status.current;
        if (next) await this.commands.events.openEvent(undefined, { calendarId: next.calendarId, event: next.event });
        else await vs.commands.executeCommand('desk.calendar.focus');
      },
    });
    for (const disposable of this.commands.register()) this._register(disposable);

    this.status = this._register(new NextEventStatus(vs, {
      occurrences: () => this.tree.agendaOccurrences(this.knownZone),
      timeZone: () => this.knownZone,
      defaultReminders: (calendarId) => (this.remindersOn() ? this.tree.entry(calendarId)?.defaultReminders ?? [] : []),
      open: (occurrence) => this.commands.events.openEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event }),
      join: async (occurrence) => void (await this.commands.events.joinEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event })),
      onMinute: () => this.checkDayChange(),
      enabled: () => this.remindersOn(),
    }, SYSTEM_CLOCK));

    this.sync = new CalendarSync({
      store: this.store,
      focused: () => vs.window.state.focused,
      onError: (calendarId, error) => desk.log.warn(`Calendar: syncing ${calendarId} failed: ${errorMessage(error)}`),
      onSignedOut: () => void desk.session.check(),
    });
    this._register({ dispose: () => this.sync.stopAll() });
    this._register(vs.window.onDidChangeWindowState((state) => this.sync.setFocused(state.focused)));
    this._register(this.view.onDidChangeVisibility(() => this.sync.noteActivity()));
    this._register(this.view.onDidExpandElement(() => this.sync.noteActivity()));

    this._register(vs.workspace.registerTextDocumentContentProvider(EVENT_DETAILS_SCHEME, { provideTextDocumentContent: (uri) => this.eventDocument(uri) }));
    this._register(vs.workspace.registerTextDocumentContentProvider(CALENDAR_INFO_SCHEME, { provideTextDocumentContent: () => this.settingsDocument() }));

    this._register(desk.session.onDidChangeSignedIn((signedIn) => {
      this.reset();
      if (signedIn) void this.startTimers();
    }));
    this._register(desk.backend.onDidChange(() => {
      this.reset();
      void desk.session.check().then(() => this.startTimers());
    }));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTING_DAYS)) this.tree.redrawEvents();
      if (event.affectsConfiguration(SETTING_REMINDERS)) this.status.update();
    }));
    void vs.commands.executeCommand('setContext', SHOW_HIDDEN_CONTEXT_KEY, false);
    // Timers wait for the first sign-in check (stored sessions only), after activation has returned.
    void Promise.resolve().then(() => desk.session.isSignedIn()).then((signedIn) => (signedIn ? this.startTimers() : undefined));
  }

  timeZone(): Promise<string> {
    this.zone ??= this.api.getSetting('timezone').then((setting) => {
      const zone = isValidTimeZone(setting.value) ? setting.value : systemTimeZone();
      this.knownZone = zone;
      this.desk.clock.setTimeZone(zone);
      return zone;
    }, (error: unknown) => {
      this.zone = undefined;
      this.desk.log.warn(`Calendar: the time zone setting could not be read (${errorMessage(error)}); using ${systemTimeZone()}`);
      return systemTimeZone();
    });
    return this.zone;
  }

  private daysAhead(): number {
    const value = this.desk.vs.workspace.getConfiguration().get<number>(SETTING_DAYS);
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 60 ? value : 7;
  }

  private remindersOn(): boolean {
    return this.desk.vs.workspace.getConfiguration().get<boolean>(SETTING_REMINDERS) !== false;
  }

  async startTimers(): Promise<void> {
    if (!this.desk.session.signedIn || !this.desk.backend.current) return;
    this.timersWanted = true;
    await this.timeZone();
    this.status.start();
    await this.followAgenda();
  }

  private async followAgenda(): Promise<void> {
    if (!this.timersWanted) return;
    try {
      const calendars = await this.tree.agendaCalendars();
      if (this.timersWanted) this.sync.follow(calendars.map((entry) => entry.id));
    } catch (error) {
      this.desk.log.warn(`Calendar: the calendar list could not be read: ${errorMessage(error)}`);
    }
  }

  /** Sign-out, sign-in or another backend: nothing cached is valid any more. */
  private reset(): void {
    this.timersWanted = false;
    this.sync.stopAll();
    this.status.stop();
    this.store.forget();
    this.dueTasks.forget();
    this.zone = undefined;
    this.tree.refreshAll();
  }

  /** Refresh: a calendar (or the Agenda's calendars) catches up with its sync token; the list itself is read again. */
  private async refresh(node?: CalendarTreeNode): Promise<void> {
    const ids = node?.kind === 'calendar' ? [node.calendarId] : this.store.loadedCalendars();
    if (node?.kind !== 'calendar') this.tree.refreshAll();
    await Promise.all(ids.map((id) => this.store.sync(id).catch((error: unknown) => this.desk.log.warn(`Calendar: refreshing ${id} failed: ${errorMessage(error)}`))));
    this.tree.redrawEvents();
  }

  /** At midnight "Tomorrow" becomes "Today": redraw the rows. */
  private checkDayChange(): void {
    const day = new Date().toISOString().slice(0, 13);
    if (this.lastDay && this.lastDay.slice(0, 10) !== day.slice(0, 10)) this.tree.redrawEvents();
    this.lastDay = day;
  }

  /** desk-calendar-event:/<calendar>/<event>.md → the event (from the store, else events.get) as markdown. */
  private async eventDocument(uri: vscode.Uri): Promise<string> {
    const [calendarId, file] = uri.path.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
    if (!calendarId || !file) return `# ${this.desk.vs.l10n.t('Unknown event')}\n`;
    try {
      const target = await this.commands.events.loadEvent(calendarId, file.replace(/\.md$/, ''));
      const zone = await this.timeZone();
      const occurrence = occurrenceOf(calendarId, target.event, zone);
      const entry = this.tree.entry(calendarId);
      if (!occurrence) return `# ${target.event.summary ?? this.desk.vs.l10n.t('Event')}\n\n${this.desk.vs.l10n.t('This event was cancelled.')}\n`;
      return eventDetailsMarkdown(occurrence, entry ? calendarName(entry) : calendarId, zone, this.desk.vs.env.language, this.desk.vs.l10n.t);
    } catch (error) {
      void this.desk.showError(error, { action: this.desk.vs.l10n.t('Could not open the event') });
      return `# ${this.desk.vs.l10n.t('Could not load the event')}\n\n${errorMessage(error, this.desk.vs.l10n.t)}\n`;
    }
  }

  private async settingsDocument(): Promise<string> {
    try {
      const settings = [];
      for await (const setting of this.api.allSettings()) settings.push(setting);
      return settingsMarkdown(settings, await this.api.getColors(), this.desk.vs.l10n.t);
    } catch (error) {
      return `# ${this.desk.vs.l10n.t('Could not load the settings')}\n\n${errorMessage(error, this.desk.vs.l10n.t)}\n`;
    }
  }
}
