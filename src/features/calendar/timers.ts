/**
 * The Calendar feature's clocks: the next-event status bar with its reminders, and one sync-engine poller per Agenda
 * calendar (sync/calendarSync.ts), which slows down while the window is not focused. They start once signed in with
 * a backend up, after the time zone is known, and stop on sign-out or another backend. At midnight the rows are
 * redrawn ("Tomorrow" becomes "Today").
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import { CALENDAR_SETTING } from '../../config/settingKeys';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { SYSTEM_CLOCK } from '../../core/sync/poller';
import type { EventCommands } from './commands/events';
import { NextEventStatus } from './status/statusBar';
import { CalendarSync } from './sync/calendarSync';
import type { EventStore } from './sync/eventStore';
import type { CalendarTimeZone } from './timeZone';
import type { CalendarTreeNode } from './tree/model';
import type { CalendarTreeProvider } from './tree/treeProvider';

export interface CalendarTimersOptions {
  readonly desk: DeskContext;
  readonly tree: CalendarTreeProvider;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly store: EventStore;
  readonly zone: CalendarTimeZone;
  /** What the status bar's event opens and joins with (commands/events.ts). */
  events(): Pick<EventCommands, 'openEvent' | 'joinEvent'>;
}

export class CalendarTimers extends Disposable {
  readonly status: NextEventStatus;
  readonly sync: CalendarSync;
  private wanted = false;
  private lastDay = '';

  constructor(private readonly options: CalendarTimersOptions) {
    super();
    const { desk, tree, view, store, zone } = options;
    const vs = desk.vs;
    const remindersOn = (): boolean => desk.settings().calendarReminders;
    this.status = this._register(new NextEventStatus(vs, {
      occurrences: () => tree.agendaOccurrences(zone.known),
      timeZone: () => zone.known,
      defaultReminders: (calendarId) => (remindersOn() ? tree.entry(calendarId)?.defaultReminders ?? [] : []),
      open: (occurrence) => options.events().openEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event }),
      join: async (occurrence) => void (await options.events().joinEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event })),
      onMinute: () => this.checkDayChange(),
      enabled: remindersOn,
      // The timers follow the first account's calendars (the view's own tree).
      whose: () => desk.session.whose(desk.session.currentAccount),
    }, SYSTEM_CLOCK));

    this.sync = new CalendarSync({
      store,
      focused: () => vs.window.state.focused,
      onError: (calendarId, error) => desk.log.warn(`Calendar: syncing ${calendarId} failed: ${errorMessage(error)}`),
      onSignedOut: () => void desk.session.check(),
    });
    this._register({ dispose: () => this.sync.stopAll() });
    this._register(vs.window.onDidChangeWindowState((state) => this.sync.setFocused(state.focused)));
    this._register(view.onDidChangeVisibility(() => this.sync.noteActivity()));
    this._register(view.onDidExpandElement(() => this.sync.noteActivity()));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CALENDAR_SETTING.reminders)) this.status.update();
    }));
  }

  /** Starts the status bar, reminders and sync when signed in with a backend up (what sign-in does). */
  async start(): Promise<void> {
    const { desk, zone } = this.options;
    if (!desk.session.signedIn || !desk.backend.current) return;
    this.wanted = true;
    await zone.get();
    this.status.start();
    await this.follow();
  }

  /** Syncs the calendars the Agenda shows now (after the calendar list changed). */
  async follow(): Promise<void> {
    if (!this.wanted) return;
    try {
      const calendars = await this.options.tree.agendaCalendars();
      if (this.wanted) this.sync.follow(calendars.map((entry) => entry.id));
    } catch (error) {
      this.options.desk.log.warn(`Calendar: the calendar list could not be read: ${errorMessage(error)}`);
    }
  }

  stop(): void {
    this.wanted = false;
    this.sync.stopAll();
    this.status.stop();
  }

  /** At midnight "Tomorrow" becomes "Today": redraw the rows. */
  private checkDayChange(): void {
    const day = new Date().toISOString().slice(0, 13);
    if (this.lastDay && this.lastDay.slice(0, 10) !== day.slice(0, 10)) this.options.tree.redrawEvents();
    this.lastDay = day;
  }
}
