/**
 * The "Desk: Search…" quick pick: renders what EverythingSearch reports, one group per service (a separator with the
 * service's name, then its hits with the service's icon and a one-line context) in a fixed order as each answers, and a
 * row naming each service that failed (Enter searches again). It resolves with the hit the user chose; the command
 * (index.ts) opens it where it lives.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import { Disposable } from '../../core/disposable';
import type { Translate } from '../../shared/l10n';
import { EverythingSearch, SearchGroup, SearchHit, SearchService, SearchSource, SearchState } from './model';
import { appendAll } from '../../shared/arrays';

export interface EverythingPickItem extends vscode.QuickPickItem {
  readonly role: 'hit' | 'failed' | 'empty';
  readonly service?: SearchService;
  /** The account of the row's group, when several accounts are searched. */
  readonly account?: string;
  readonly hit?: SearchHit;
}

const ICONS: Readonly<Record<SearchService, string>> = { tasks: 'checklist', drive: 'file', calendar: 'calendar', books: 'book' };

/** The service's name as the quick pick shows it. */
export function serviceName(service: SearchService, t: Translate): string {
  switch (service) {
    case 'tasks': return t('Tasks');
    case 'drive': return t('Drive');
    case 'calendar': return t('Calendar');
    case 'books': return t('Books');
  }
}

/** A row's identity across renders, so the row the user moved to stays put while other groups arrive. */
function keyOf(item: EverythingPickItem): string {
  const target = item.hit?.target;
  const whose = item.account ?? '';
  if (!target) return `${whose}/${item.role}/${item.service ?? ''}`;
  switch (target.kind) {
    case 'task': return `${whose}/task/${target.listId}/${target.taskId}`;
    case 'file': return `${whose}/file/${target.fileId}`;
    case 'event': return `${whose}/event/${target.calendarId}/${target.event.id}`;
    case 'volume': return `${whose}/volume/${target.volumeId}`;
  }
}

/** How the quick pick names an account in a group's header: "Alice Demo (alice@example.com)", or the address. */
export function accountHeading(account: { readonly email: string; readonly name?: string | undefined }): string {
  return account.name ? `${account.name} (${account.email})` : account.email;
}

export class EverythingPicker extends Disposable {
  readonly quickPick: vscode.QuickPick<EverythingPickItem>;
  readonly search: EverythingSearch;
  /** The hit the user chose; undefined when the pick was closed. */
  readonly done: Promise<SearchHit | undefined>;
  private resolve: (hit: SearchHit | undefined) => void = () => undefined;
  private readonly t: Translate;
  private searched = '';

  /**
   * `onSearch` hears each text searched (the command remembers the last one); `accountHeading` names a group's
   * account in its header (several accounts searched).
   */
  constructor(private readonly vs: typeof vscode, sources: readonly SearchSource[], private readonly options: { initialQuery?: string; debounceMs?: number; onSearch?: (query: string) => void; accountHeading?: (account: string) => string } = {}) {
    super();
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    const quickPick = this._register(vs.window.createQuickPick<EverythingPickItem>());
    this.quickPick = quickPick;
    this.search = new EverythingSearch({
      sources,
      onDidChange: (state) => { this.render(state); },
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    });
    this._register({ dispose: () => { this.search.dispose(); } });
    quickPick.title = this.t('Search Desk');
    quickPick.placeholder = this.t('Search tasks, Drive files, calendar events and books');
    quickPick.matchOnDescription = false;
    quickPick.matchOnDetail = false;
    quickPick.keepScrollPosition = true;
    // The services filtered already: every row is shown (alwaysShow) and the groups keep their order and separators
    // while the text matches some labels. `sortByLabel` is not in the typed API of VS Code 1.100 but the extension
    // host forwards it (the workbench's own searches set it the same way).
    Object.assign(quickPick, { sortByLabel: false });
    this._register(quickPick.onDidChangeValue((value) => { this.search.setQuery(value); }));
    this._register(quickPick.onDidAccept(() => { this.accept(quickPick.activeItems[0]); }));
    this._register(quickPick.onDidHide(() => { this.finish(undefined); }));
    if (options.initialQuery) {
      quickPick.value = options.initialQuery;
      this.search.setQuery(options.initialQuery);
    }
  }

  show(): void {
    this.quickPick.show();
  }

  /** As if the user typed `text` (tests drive the pick through this; typing in the box fires the same). */
  type(text: string): void {
    this.quickPick.value = text;
    this.search.setQuery(text);
  }

  /** As if the user pressed Enter on `item` (default: the first row). */
  accept(item: EverythingPickItem | undefined = this.quickPick.items.find((candidate) => candidate.kind !== this.vs.QuickPickItemKind.Separator)): void {
    if (!item) return;
    if (item.role === 'hit' && item.hit) this.finish(item.hit);
    else if (item.role === 'failed') this.search.searchNow();
  }

  private finish(hit: SearchHit | undefined): void {
    this.resolve(hit);
    this.quickPick.hide();
  }

  private render(state: SearchState): void {
    const quickPick = this.quickPick as vscode.QuickPick<EverythingPickItem> | undefined;
    if (!quickPick) return;
    if (state.query !== '' && state.query !== this.searched) {
      this.searched = state.query;
      this.options.onSearch?.(state.query);
    }
    const vs = this.vs;
    const t = this.t;
    quickPick.busy = state.busy;
    const items: EverythingPickItem[] = [];
    for (const group of state.groups) appendAll(items, this.groupItems(group));
    const settled = state.groups.length > 0 && state.groups.every((group) => group.status !== 'searching');
    if (settled && items.length === 0) items.push({ role: 'empty', label: t('Nothing found for "{0}"', state.query), iconPath: new vs.ThemeIcon('info'), alwaysShow: true });
    const rows = (list: readonly EverythingPickItem[]) => list.filter((item) => item.kind !== vs.QuickPickItemKind.Separator);
    // A row the user moved to stays under the keys while other groups arrive; the first row is VS Code's own choice,
    // not the user's, so it follows the new first row (a group shown above it, e.g. Tasks answering after Drive).
    const active = quickPick.activeItems.at(0);
    const shownFirst = rows(quickPick.items).at(0);
    const movedTo = active && shownFirst && keyOf(active) !== keyOf(shownFirst) ? keyOf(active) : undefined;
    quickPick.items = items;
    const selectable = rows(items);
    const focus = (movedTo === undefined ? undefined : selectable.find((item) => keyOf(item) === movedTo)) ?? selectable.at(0);
    if (focus) quickPick.activeItems = [focus];
  }

  private groupItems(group: SearchGroup): EverythingPickItem[] {
    const vs = this.vs;
    const t = this.t;
    const name = serviceName(group.service, t);
    // Several accounts searched: each header says whose group it is ("Alice Demo (alice@example.com) · Tasks").
    const account = group.account;
    const whose = account === undefined ? {} : { account };
    const heading = account === undefined ? name : t('{0} · {1}', this.options.accountHeading?.(account) ?? account, name);
    const separator = { role: 'empty', label: heading, kind: vs.QuickPickItemKind.Separator } as const;
    if (group.status === 'searching') return [];
    if (group.status === 'failed') {
      return [separator, {
        role: 'failed',
        service: group.service,
        ...whose,
        label: t("{0}: couldn't search — {1}", heading, errorMessage(group.error, t)),
        detail: t('Enter to search again'),
        iconPath: new vs.ThemeIcon('warning'),
        alwaysShow: true,
      }];
    }
    if (group.hits.length === 0) return [];
    return [separator, ...group.hits.map((hit): EverythingPickItem => ({
      role: 'hit',
      service: group.service,
      ...whose,
      hit,
      label: hit.title,
      detail: hit.context,
      iconPath: new vs.ThemeIcon(hit.target.kind === 'file' && hit.target.folder ? 'folder' : ICONS[group.service]),
      alwaysShow: true,
    }))];
  }
}
