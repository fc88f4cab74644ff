/**
 * The Calendar feature as one Disposable: the tree (Agenda + calendars), the event store kept current with sync tokens
 * (one sync-engine poller per Agenda calendar), the commands, the event-details and settings documents, the free/busy
 * webview and the next-event status bar with its reminders. Nothing touches the network during activation: the tree
 * loads when VS Code first asks for its rows, and timers start only after the first sign-in check says signed in.
 */
import { markViewOffline } from '../../core/offline/offlineStatus';
import { CalendarOfflineWrites } from './offline';
import { CALENDAR_TREE_VIEW } from '../../config/treeViews';
import type * as vscode from 'vscode';
import { CalendarClient } from '../../api/calendar';
import { DESK_SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { CalendarCommands, SHOW_HIDDEN_CONTEXT_KEY } from './commands';
import { CalendarPrompts } from './commands/context';
import type { CalendarApi } from './port';
import { CALENDAR_SETTING } from '../../config/settingKeys';
import type { NextEventStatus } from './status/statusBar';
import type { CalendarSync } from './sync/calendarSync';
import { EventStore } from './sync/eventStore';
import { CalendarTimers } from './timers';
import { CalendarTimeZone } from './timeZone';
import { CALENDAR_VIEW_ID, CalendarTreeNode } from './tree/model';
import { AGENDA_SNAPSHOT } from './tree/snapshot';
import { CalendarTreeOptions, CalendarTreeProvider } from './tree/treeProvider';
import { accountScoped, AccountRootNode, AccountRootsProvider } from '../../core/accounts/accountRoots';
import { DueTaskStore } from './agenda/dueTaskStore';
import { DueTasksInAgenda } from './agenda/dueTasksInAgenda';
import { Drafts } from '../../core/ui/drafts';

/** The Calendar slice as activate() returns it to tests. */
export interface CalendarSlice {
  readonly api: CalendarApi;
  /** The Agenda tree of the account the operation runs as (the first account's outside one). */
  readonly tree: CalendarTreeProvider;
  /** What the view shows: the first account's Agenda, or one root per account when several are signed in. */
  readonly roots: AccountRootsProvider<CalendarTreeNode>;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly commands: CalendarCommands;
  /** The event store of the account the operation runs as (the first account's outside one). */
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

/** For the search (its bundle imports this index): the reader lives with the view's slot. */
export { cachedCalendars } from './tree/snapshot';

export function registerCalendar(desk: DeskContext): CalendarSlice {
  return desk.register(new CalendarFeature(desk));
}

class CalendarFeature extends Disposable implements CalendarSlice {
  readonly api: CalendarApi;
  readonly tree: CalendarTreeProvider;
  readonly roots: AccountRootsProvider<CalendarTreeNode>;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly commands: CalendarCommands;
  readonly store: EventStore;
  readonly dueTasks: DueTaskStore;
  readonly agendaTasks: DueTasksInAgenda;
  private readonly zone: CalendarTimeZone;
  private readonly timers: CalendarTimers;
  private showHidden = false;

  constructor(desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.api = new CalendarClient(desk.httpClient((endpoints) => endpoints.calendar, DESK_SCOPES));
    this.zone = new CalendarTimeZone(desk, () => this.api);
    const storeOf = (onChange: (calendarId: string) => void, zone: CalendarTimeZone = this.zone): EventStore => new EventStore({
      api: () => this.api,
      now: () => desk.clock.now(),
      timeZone: () => zone.known,
      horizonDays: () => desk.settings().calendarDaysAhead + 1,
      // The Agenda's days come first (one page even in a calendar of 100,000 events), the window behind them.
      firstDays: () => desk.settings().calendarDaysAhead,
      onChange,
    });
    const primaryStore = storeOf((calendarId) => {
      primary.redrawCalendar(calendarId);
      this.status.update();
    });
    const agendaTasks = this._register(new DueTasksInAgenda(desk, { redraw: () => { this.tree.redrawEvents(); } }));
    this.agendaTasks = agendaTasks;
    this.dueTasks = agendaTasks.store;
    const treeOptions = (store: EventStore, zone: CalendarTimeZone = this.zone): CalendarTreeOptions => ({
      api: () => this.api,
      store,
      timeZone: () => zone.get(),
      daysAhead: () => desk.settings().calendarDaysAhead,
      showHidden: () => this.showHidden,
      isSignedIn: () => desk.session.isSignedIn(),
      withProgress: (work) => Promise.resolve(vs.window.withProgress({ location: { viewId: CALENDAR_VIEW_ID } }, work)),
      log: (message) => { desk.log.warn(message); },
      locale: vs.env.language,
      now: () => desk.clock.now(),
      onCalendars: () => void this.timers.follow(),
    });
    // Each account's Agenda keeps its first rows in its own slot (tree/snapshot.ts); the first account's is shown alone.
    const primary: CalendarTreeProvider = this._register(new CalendarTreeProvider(vs, { ...treeOptions(primaryStore), dueTasks: agendaTasks.treeOptions(), cache: desk.viewCache.slot(AGENDA_SNAPSHOT) }));
    primary.prefetchFirstRows();
    // Several accounts: one root per account. Another account's Agenda has its own event store (synced as that
    // account when its rows load), its own Calendar time zone (its settings; Desk's clock follows the first account's),
    // its own due tasks and its own cache slot.
    const otherStores = new Map<string, EventStore>();
    this.roots = this._register(new AccountRootsProvider<CalendarTreeNode>(vs, {
      session: desk.session,
      primary,
      create: (account) => {
        let tree: CalendarTreeProvider | undefined;
        const zone = new CalendarTimeZone(desk, () => this.api, { followedByClock: false });
        const store = storeOf((calendarId) => {
          tree?.redrawCalendar(calendarId);
          this.status.update();
        }, zone);
        otherStores.set(account, store);
        const dueTasks = agendaTasks.treeOptionsOf(account, () => tree?.redrawEvents());
        // The first account's sync follows the first account's calendars only (timers.ts syncs the others').
        tree = new CalendarTreeProvider(vs, { ...treeOptions(store, zone), dueTasks, cache: desk.viewCache.slot(AGENDA_SNAPSHOT, account), onCalendars: () => undefined });
        tree.prefetchFirstRows();
        return tree;
      },
      onRemoved: (account) => {
        otherStores.delete(account);
        agendaTasks.dropAccount(account);
      },
      icon: 'account',
    }));
    const stores = { treeOf: (account: string) => otherStores.get(account), otherTrees: () => [...otherStores.values()] };
    this.store = accountScoped(primaryStore, stores, desk.session, ['forget']);
    this.tree = accountScoped(primary, this.roots, desk.session, ['refreshAll', 'redrawEvents', 'forgetKnown']);
    // Due tasks have checkboxes; a day's row has none (each checkbox is one task).
    // The view's rows are CalendarTreeNode but for the account roots (several accounts), which no command acts on.
    this.view = this._register(vs.window.createTreeView<CalendarTreeNode | AccountRootNode>(CALENDAR_VIEW_ID, { treeDataProvider: this.roots, ...CALENDAR_TREE_VIEW.options })) as unknown as vscode.TreeView<CalendarTreeNode>;
    this._register(markViewOffline(desk, this.view));
    agendaTasks.attach(this.view);

    const now = (): number => desk.clock.now();
    const timeZone = (): Promise<string> => this.timeZone();
    // New events that cannot reach the service wait in Desk's queue; a replayed one is caught up with the sync token.
    const offline = new CalendarOfflineWrites({ desk, api: () => this.api, store: this.store, onInserted: (calendarId) => this.store.sync(calendarId).catch((error: unknown) => { desk.log.warn(`Calendar: sync after a replayed insert failed: ${String(error)}`); }) });
    for (const replayer of offline.register()) this._register(replayer);
    const context = { desk, api: () => this.api, tree: this.tree, view: this.view, store: this.store, timeZone, now, prompts: new CalendarPrompts(vs, this.tree, this.store, timeZone, now), drafts: new Drafts(), offline };
    this.commands = new CalendarCommands(context, {
      setShowHidden: async (show) => {
        this.showHidden = show;
        await vs.commands.executeCommand('setContext', SHOW_HIDDEN_CONTEXT_KEY, show);
        this.tree.refreshAll();
      },
      // The status bar item's click; the item exists before the commands are called.
      openNextEvent: async () => {
        const next = this.status.current;
        const account = this.status.currentAccount;
        const open = async (): Promise<unknown> => next && this.commands.events.openEvent(undefined, { calendarId: next.calendarId, event: next.event });
        // The soonest event may be another signed-in account's: it opens as that account.
        if (next) await (account ? desk.session.runAs(account, open) : open());
        else await vs.commands.executeCommand(`${CALENDAR_TREE_VIEW.id}.focus`);
      },
    });
    for (const disposable of this.commands.register()) this._register(disposable);
    this.timers = this._register(new CalendarTimers({
      desk, tree: this.tree, primaryTree: primary, view: this.view, store: this.store, zone: this.zone, events: () => this.commands.events,
      // Another signed-in account's agenda and store, for the status item and its reminders.
      otherAccount: (account) => {
        const tree = this.roots.treeOf(account) as CalendarTreeProvider | undefined;
        const store = otherStores.get(account);
        return tree && store && tree !== primary ? { tree, store } : undefined;
      },
    }));

    this._register(desk.session.onDidChangeSignedIn((signedIn) => {
      this.reset();
      if (signedIn) void this.startTimers();
    }));
    // An account added beside the first or signed out of: the status item says whose it is (or no longer needs to).
    this._register(desk.session.onDidChangeAccounts(() => { this.status.update(); }));
    // Back online: the Agenda reloads and every calendar's sync polls now.
    this._register(desk.onDidComeOnline(() => {
      this.tree.refreshAll();
      this.timers.sync.pollNow();
    }));
    this._register(desk.backend.onDidChange(() => {
      this.reset();
      void desk.session.check().then(() => this.startTimers());
    }));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CALENDAR_SETTING.daysAhead)) this.tree.redrawEvents();
    }));
    void vs.commands.executeCommand('setContext', SHOW_HIDDEN_CONTEXT_KEY, false);
    // Timers wait for the first sign-in check (stored sessions only), after activation has returned.
    void Promise.resolve().then(() => desk.session.isSignedIn()).then((signedIn) => (signedIn ? this.startTimers() : undefined));
  }

  get sync(): CalendarSync { return this.timers.sync; }
  get status(): NextEventStatus { return this.timers.status; }
  timeZone(): Promise<string> { return this.zone.get(); }
  startTimers(): Promise<void> { return this.timers.start(); }

  /** Sign-out, sign-in or another backend: nothing cached is valid any more. */
  private reset(): void {
    this.timers.stop();
    this.store.forget();
    this.agendaTasks.forgetAll();
    this.zone.forget();
    this.tree.forgetKnown();
    this.tree.refreshAll();
  }
}
