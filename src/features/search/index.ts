/**
 * "Desk: Search…": one quick pick over every service (picker.ts over model.ts and one source per service), each hit
 * opened where it lives through the other features' own commands (reveal in its tree, then its editor or details).
 * The clients are built on first use; each pick gets fresh sources, so what they cache lives as long as the pick,
 * but for the tasks (no search in the Tasks API: a later pick reads only what changed, sources/tasks.ts).
 */
import { BooksClient } from '../../api/books';
import { CalendarClient } from '../../api/calendar';
import { DriveClient } from '../../api/drive';
import { TasksClient } from '../../api/tasks';
import { attempt, registerCommands } from '../../core/commands';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { recallForAccount, rememberForAccount } from '../../core/storage/accountMemory';
import { DESK_SCOPES } from '../../config/scopes';
import { BOOKS_COMMAND, CALENDAR_COMMAND, DESK_COMMAND, DRIVE_COMMAND, SEARCH_COMMAND, TASKS_COMMAND } from '../../config/commandIds';
import { readAhead, SearchHit, SearchSource } from './model';
import { accountHeading, EverythingPicker } from './picker';
import { BooksSearchSource } from './sources/books';
import { CalendarSearchSource } from './sources/calendar';
import { DriveSearchSource } from './sources/drive';
import { TaskSearchMemory, TasksSearchSource } from './sources/tasks';
import { cachedShelves } from '../books';
import { cachedCalendars } from '../calendar';
import { cachedMyDriveRows } from '../drive';
import { cachedTaskLists } from '../tasks';

/** globalState key of the last text searched per account (core/storage/accountMemory.ts), put back in the box next time. */
export const LAST_QUERY_KEY = 'desk.search.lastQuery';

/** The Search feature as activate() returns it to tests. */
export interface SearchSlice {
  /** Opens the pick (what the command does) and resolves with the hit chosen, after opening it; undefined if closed. */
  run(options?: { debounceMs?: number }): Promise<SearchHit | undefined>;
  /** The pick on screen, if any (tests type into it and accept rows). */
  readonly picker: EverythingPicker | undefined;
  /** Opens a hit where it lives (what Enter does). */
  open(hit: SearchHit): Promise<void>;
}

export function registerSearch(desk: DeskContext): SearchSlice {
  return desk.register(new SearchFeature(desk));
}

class SearchFeature extends Disposable implements SearchSlice {
  private clients: { tasks: TasksClient; drive: DriveClient; calendar: CalendarClient; books: BooksClient } | undefined;
  private current: EverythingPicker | undefined;
  /** The tasks the last pick loaded, for the next pick of the account (forgotten at sign-in/out and backend change). */
  private readonly taskMemory = new TaskSearchMemory();

  constructor(private readonly desk: DeskContext) {
    super();
    this._register(desk.session.onDidChangeSignedIn(() => { this.taskMemory.forget(); }));
    // One of several accounts signed out: its tasks go, the others' stay.
    this._register(desk.session.onDidChangeAccounts((accounts) => {
      for (const account of this.taskMemory.accounts()) if (!accounts.some((profile) => profile.email === account)) this.taskMemory.forget(account);
    }));
    this._register(desk.backend.onDidChange(() => { this.taskMemory.forget(); }));
    for (const disposable of registerCommands(desk, { [SEARCH_COMMAND.everything]: () => this.run() })) this._register(disposable);
  }

  get picker(): EverythingPicker | undefined {
    return this.current;
  }

  async run(options: { debounceMs?: number } = {}): Promise<SearchHit | undefined> {
    const vs = this.desk.vs;
    if (!(await this.desk.session.isSignedIn())) {
      const signIn = vs.l10n.t('Sign In');
      const choice = await vs.window.showInformationMessage(vs.l10n.t('Desk: sign in to search your tasks, Drive, calendars and books.'), signIn);
      if (choice === signIn) await vs.commands.executeCommand(DESK_COMMAND.signIn);
      return undefined;
    }
    this.current?.dispose();
    await this.desk.session.isSignedIn();
    // Several accounts signed in: each is searched, its groups headed with its name and e-mail; one: as always.
    const profiles = this.desk.session.accounts;
    const several = profiles.length > 1;
    const accounts = several ? profiles.map((profile) => profile.email) : [this.desk.session.viewAccount()];
    const sources = accounts.flatMap((account, index) => this.sources(account, index === 0, several));
    const memento = this.desk.extensionContext.globalState;
    // Each account's own last text: another account's search never shows. The first account's is put back; a text
    // searched in several accounts is remembered for each of them.
    const lastQuery = recallForAccount(memento, LAST_QUERY_KEY, accounts.at(0) ?? '');
    const picker = new EverythingPicker(vs, sources, {
      initialQuery: typeof lastQuery === 'string' ? lastQuery : '',
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      onSearch: (query) => void this.rememberQuery(accounts, query),
      accountHeading: (account) => accountHeading(profiles.find((profile) => profile.email === account) ?? { email: account }),
    });
    this.current = picker;
    picker.show();
    const hit = await picker.done;
    picker.dispose();
    for (const source of sources) source.dispose?.();
    if (this.current === picker) this.current = undefined;
    if (hit) await attempt(this.desk, () => this.open(hit), { action: vs.l10n.t('Could not open "{0}"', hit.title) });
    return hit;
  }

  /** Opens a hit where it lives, as its account (a hit of one of several accounts searched). */
  async open(hit: SearchHit): Promise<void> {
    if (hit.account !== undefined && this.desk.session.accounts.length > 1) {
      const account = hit.account;
      await this.desk.session.runAs(account, () => this.openHere({ ...hit, account: undefined }));
      return;
    }
    await this.openHere(hit);
  }

  private async rememberQuery(accounts: readonly string[], query: string): Promise<void> {
    const memento = this.desk.extensionContext.globalState;
    for (const account of accounts) await rememberForAccount(memento, LAST_QUERY_KEY, account, query);
  }

  private async openHere(hit: SearchHit): Promise<void> {
    const commands = this.desk.vs.commands;
    const target = hit.target;
    switch (target.kind) {
      case 'task':
        await commands.executeCommand(TASKS_COMMAND.revealTask, target.listId, target.taskId, { open: true });
        return;
      case 'file':
        await commands.executeCommand(DRIVE_COMMAND.revealFile, target.fileId, { open: !target.folder });
        return;
      case 'event':
        await commands.executeCommand(CALENDAR_COMMAND.openEvent, undefined, { calendarId: target.calendarId, event: target.event });
        return;
      case 'volume':
        await commands.executeCommand(BOOKS_COMMAND.openVolume, target.volumeId);
        return;
    }
  }

  /**
   * One source per service for `account`. The first account's read what the views' caches know; another account's
   * (several signed in) search as that account, and their groups say whose.
   */
  private sources(account: string, first: boolean, several: boolean): SearchSource[] {
    const desk = this.desk;
    const t = desk.vs.l10n.t;
    this.clients ??= {
      tasks: new TasksClient(desk.httpClient((endpoints) => endpoints.tasks, DESK_SCOPES)),
      drive: new DriveClient(desk.httpClient((endpoints) => endpoints.drive, DESK_SCOPES)),
      calendar: new CalendarClient(desk.httpClient((endpoints) => endpoints.calendar, DESK_SCOPES)),
      books: new BooksClient(desk.httpClient((endpoints) => endpoints.books, DESK_SCOPES)),
    };
    const { tasks, drive, calendar, books } = this.clients;
    // What the views' caches know (read from disk, no request) lets each source ask for contents without first
    // waiting for the list of what to search in.
    // They are read once, as the quick pick opens: while the user types, not after.
    const cache = desk.viewCache;
    const known = <T>(read: () => Promise<T>): (() => Promise<T | undefined>) => (first ? readAhead(read) : () => Promise.resolve(undefined));
    const sources: SearchSource[] = [
      new TasksSearchSource(tasks, t, { locale: desk.vs.env.language, today: () => desk.clock.today() }, known(() => cachedTaskLists(cache)), { memory: this.taskMemory, account }),
      new DriveSearchSource(drive, t, known(() => cachedMyDriveRows(cache))),
      new CalendarSearchSource(calendar, { t, locale: desk.vs.env.language, dateTime: (ms) => desk.clock.dateTime(ms), knownCalendars: known(() => cachedCalendars(cache)) }),
      new BooksSearchSource(books, t, known(() => cachedShelves(cache))),
    ];
    if (!several) return sources;
    return sources.map((source): SearchSource => ({
      service: source.service,
      account,
      search: (query, signal) => desk.session.runAs(account, () => source.search(query, signal)),
      ...(source.dispose ? { dispose: () => source.dispose?.() } : {}),
    }));
  }
}
