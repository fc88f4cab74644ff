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
import { SYSTEM_CLOCK, sourceAs } from '../../core/sync/poller';
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
  /** The first account's own tree (not scoped to the operation's account): what the status item counts as hers. */
  readonly primaryTree?: CalendarTreeProvider;
  /** Another signed-in account's Agenda tree and event store (several accounts), made on first use. */
  otherAccount?(account: string): { readonly tree: CalendarTreeProvider; readonly store: EventStore } | undefined;
}

export class CalendarTimers extends Disposable {
  readonly status: NextEventStatus;
  readonly sync: CalendarSync;
  /** The other signed-in accounts' syncs (several accounts), each polling as its account. */
  private readonly otherSyncs = new Map<string, CalendarSync>();
  private wanted = false;
  private lastDay = '';

  constructor(private readonly options: CalendarTimersOptions) {
    super();
    const { desk, tree, view, store, zone } = options;
    const vs = desk.vs;
    const remindersOn = (): boolean => desk.settings().calendarReminders;
    this.status = this._register(new NextEventStatus(vs, {
      // The first account's own tree: a redraw run in another account's operation must not count that one's as hers.
      occurrences: () => (options.primaryTree ?? tree).agendaOccurrences(zone.known),
      timeZone: () => zone.known,
      defaultReminders: (calendarId) => (remindersOn() ? (options.primaryTree ?? tree).entry(calendarId)?.defaultReminders ?? [] : []),
      open: (occurrence, account) => this.as(account, () => options.events().openEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event })),
      join: (occurrence, account) => this.as(account, async () => { await options.events().joinEvent(undefined, { calendarId: occurrence.calendarId, event: occurrence.event }); }),
      onMinute: () => { this.checkDayChange(); },
      enabled: remindersOn,
      // The first account's calendars are the view's own tree; every other signed-in account's are weighed too.
      whose: () => desk.session.whose(desk.session.currentAccount),
      others: () => desk.session.accounts.slice(1).flatMap((profile) => {
        const other = this.wanted ? options.otherAccount?.(profile.email) : undefined;
        if (!other) return [];
        return [{
          account: profile.email,
          occurrences: () => other.tree.agendaOccurrences(zone.known),
          defaultReminders: (calendarId: string) => (remindersOn() ? other.tree.entry(calendarId)?.defaultReminders ?? [] : []),
          whose: () => desk.session.whose(profile.email),
        }];
      }),
    }, SYSTEM_CLOCK));

    this.sync = new CalendarSync({
      store,
      focused: () => vs.window.state.focused,
      onError: (calendarId, error) => { desk.log.warn(`Calendar: syncing ${calendarId} failed: ${errorMessage(error)}`); },
      onSignedOut: () => void desk.session.check(),
    });
    this._register({ dispose: () => { this.stopOthers(); } });
    this._register({ dispose: () => { this.sync.stopAll(); } });
    this._register(vs.window.onDidChangeWindowState((state) => {
      this.sync.setFocused(state.focused);
      for (const sync of this.otherSyncs.values()) sync.setFocused(state.focused);
    }));
    this._register(view.onDidChangeVisibility(() => { this.sync.noteActivity(); }));
    this._register(view.onDidExpandElement(() => { this.sync.noteActivity(); }));
    // An account added beside the others, or one of several signed out: its syncs start or stop, the others' stay.
    this._register(desk.session.onDidChangeAccounts(() => void this.followOthers()));
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
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() may have run during the await
      if (this.wanted) this.sync.follow(calendars.map((entry) => entry.id));
    } catch (error) {
      this.options.desk.log.warn(`Calendar: the calendar list could not be read: ${errorMessage(error)}`);
    }
    await this.followOthers();
  }

  stop(): void {
    this.wanted = false;
    this.stopOthers();
    this.sync.stopAll();
    this.status.stop();
  }

  /**
   * Several accounts signed in: each other account's Agenda calendars are synced as that account (its pollers'
   * timers keep the account they were started in), so its events count for the status item and its reminders fire.
   * An account signed out of stops its own syncs only.
   */
  private async followOthers(): Promise<void> {
    const { desk } = this.options;
    const others = this.wanted ? desk.session.accounts.slice(1).map((profile) => profile.email) : [];
    for (const [account, sync] of this.otherSyncs) {
      if (others.includes(account)) continue;
      sync.stopAll();
      this.otherSyncs.delete(account);
    }
    await Promise.all(others.map(async (account) => {
      const other = this.options.otherAccount?.(account);
      if (!other) return;
      let sync = this.otherSyncs.get(account);
      if (!sync) {
        // Every poll asks as that account, whoever starts it (a timer, a focus change).
        const store = other.store;
        const boundStore = new Proxy(store, {
          get: (target, property) => (property === 'source'
            ? (calendarId: string) => sourceAs(target.source(calendarId), account, (who, work) => desk.session.runAs(who, work))
            : (Reflect.get(target, property, target) as unknown)),
        });
        sync = new CalendarSync({
          store: boundStore,
          focused: () => desk.vs.window.state.focused,
          onError: (calendarId, error) => { desk.log.warn(`Calendar: syncing ${calendarId} of another account failed: ${errorMessage(error)}`); },
          onSignedOut: () => void desk.session.check(),
        });
        this.otherSyncs.set(account, sync);
      }
      const started = sync;
      try {
        await desk.session.runAs(account, async () => {
          const calendars = await other.tree.agendaCalendars();
          if (this.otherSyncs.get(account) === started) started.follow(calendars.map((entry) => entry.id));
        });
      } catch (error) {
        desk.log.warn(`Calendar: another account's calendar list could not be read: ${errorMessage(error)}`);
      }
    }));
    this.status.update();
  }

  private stopOthers(): void {
    for (const sync of this.otherSyncs.values()) sync.stopAll();
    this.otherSyncs.clear();
  }

  /** Runs `work` as `account` (an event of another signed-in account), else as the first. */
  private as<T>(account: string | undefined, work: () => Promise<T>): Promise<T> {
    return account ? this.options.desk.session.runAs(account, work) : work();
  }

  /** At midnight "Tomorrow" becomes "Today": redraw the rows. */
  private checkDayChange(): void {
    const day = new Date().toISOString().slice(0, 13);
    if (this.lastDay && this.lastDay.slice(0, 10) !== day.slice(0, 10)) this.options.tree.redrawEvents();
    this.lastDay = day;
  }
}
