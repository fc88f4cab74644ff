/**
 * The live search quick pick: results appear as the user types (VolumeSearch debounces and cancels), a "More
 * results…" row pages on, and each result offers Open Details and Add to Shelf as buttons (Enter asks which). The
 * picker resolves with what the user chose; the command (commands/search.ts) carries it out.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { Disposable } from '../../../core/disposable';
import type { Volume } from '../../../shared/schemas/books';
import type { BooksApi } from '../port';
import { htmlToText, Translate, volumeDescription, volumeLabel } from '../tree/presentation';
import { SearchState, VolumeSearch } from './volumeSearch';

export type SearchChoice =
  | { readonly action: 'pick'; readonly volume: Volume }
  | { readonly action: 'details'; readonly volume: Volume }
  | { readonly action: 'add'; readonly volume: Volume };

export interface SearchPickItem extends vscode.QuickPickItem {
  readonly kind?: never;
  readonly role: 'volume' | 'more' | 'error' | 'empty' | 'hint';
  readonly volume?: Volume;
  /** For hints: the prefix put into the box. */
  readonly insert?: string;
}

/** The field prefixes volumes.list understands, offered while the box is empty. */
const PREFIXES: ReadonlyArray<[string, string]> = [
  ['intitle:', 'words in the title'],
  ['inauthor:', 'an author'],
  ['subject:', 'a category'],
  ['isbn:', 'an ISBN-10 or ISBN-13'],
  ['inpublisher:', 'a publisher'],
];

export class VolumeSearchPicker extends Disposable {
  readonly quickPick: vscode.QuickPick<SearchPickItem>;
  readonly session: VolumeSearch;
  /** What the user chose; undefined when the picker was closed. */
  readonly done: Promise<SearchChoice | undefined>;
  private resolve: (choice: SearchChoice | undefined) => void = () => undefined;
  private readonly t: Translate;
  private readonly detailsButton: vscode.QuickInputButton;
  private readonly addButton: vscode.QuickInputButton;
  /** Set by "More results…": the index of the first volume of the page on its way. */
  private moreFrom: number | undefined;

  constructor(vs: typeof vscode, api: Pick<BooksApi, 'searchVolumes'>, options: { initialQuery?: string; debounceMs?: number } = {}) {
    super();
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
    const t = this.t;
    this.detailsButton = { iconPath: new vs.ThemeIcon('book'), tooltip: t('Open Details') };
    this.addButton = { iconPath: new vs.ThemeIcon('add'), tooltip: t('Add to Shelf…') };
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
    this.session = new VolumeSearch({ api, onDidChange: (state) => { this.render(state); }, ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}) });
    this._register({ dispose: () => { this.session.dispose(); } });

    const quickPick = this._register(vs.window.createQuickPick<SearchPickItem>());
    this.quickPick = quickPick;
    quickPick.title = t('Search Google Books');
    quickPick.placeholder = t('Type to search: words, "a phrase", or intitle:, inauthor:, subject:, isbn:, inpublisher: before a word');
    quickPick.matchOnDescription = false;
    quickPick.matchOnDetail = false;
    // Pages are appended: the list must not jump back to the top after "More results…".
    quickPick.keepScrollPosition = true;
    quickPick.ignoreFocusOut = false;
    this._register(quickPick.onDidChangeValue((value) => { this.session.setQuery(value); }));
    this._register(quickPick.onDidAccept(() => { this.accept(quickPick.activeItems[0]); }));
    this._register(quickPick.onDidTriggerItemButton((event) => {
      if (!event.item.volume) return;
      this.finish({ action: event.button === this.addButton ? 'add' : 'details', volume: event.item.volume });
    }));
    this._register(quickPick.onDidHide(() => { this.finish(undefined); }));
    if (options.initialQuery) {
      quickPick.value = options.initialQuery;
      this.session.setQuery(options.initialQuery);
    }
    this.render(this.session.current);
  }

  show(): void {
    this.quickPick.show();
  }

  /** As if the user typed `text` (tests drive the picker through this; the box's own typing fires the same). */
  type(text: string): void {
    this.quickPick.value = text;
    this.session.setQuery(text);
  }

  /** As if the user pressed Enter on `item` (default: the first row). */
  accept(item: SearchPickItem | undefined = this.quickPick.items.at(0)): void {
    if (!item) return;
    switch (item.role) {
      case 'volume':
        if (item.volume) this.finish({ action: 'pick', volume: item.volume });
        return;
      case 'more':
        this.moreFrom = this.session.current.volumes.length;
        void this.session.loadMore();
        return;
      case 'error':
        void this.session.searchNow();
        return;
      case 'hint':
        this.type(item.insert ?? '');
        return;
      case 'empty':
        return;
    }
  }

  /** As if the user clicked a result's button. */
  trigger(item: SearchPickItem, action: 'details' | 'add'): void {
    if (item.volume) this.finish({ action, volume: item.volume });
  }

  private finish(choice: SearchChoice | undefined): void {
    this.resolve(choice);
    this.quickPick.hide();
  }

  private render(state: SearchState): void {
    const quickPick = this.quickPick as vscode.QuickPick<SearchPickItem> | undefined;
    if (!quickPick) return; // the first state arrives before the quick pick exists
    const t = this.t;
    quickPick.busy = state.loading;
    const items: SearchPickItem[] = [];
    if (state.query === '' && !state.loading) {
      for (const [prefix, meaning] of PREFIXES) {
        items.push({ role: 'hint', label: `$(filter) ${prefix}`, description: t(meaning), insert: prefix, alwaysShow: true });
      }
    }
    for (const volume of state.volumes) {
      // Every row stays visible: the service filtered already, the quick pick must not filter again.
      items.push({
        role: 'volume',
        label: volumeLabel(volume, t),
        description: volumeDescription(volume, t),
        detail: this.detailOf(volume),
        volume,
        alwaysShow: true,
        buttons: [this.detailsButton, this.addButton],
      });
    }
    if (state.error !== undefined) {
      items.push({ role: 'error', label: `$(error) ${t('Search failed: {0}', errorMessage(state.error, t))}`, description: t('Enter to try again'), alwaysShow: true });
    } else if (state.hasMore) {
      items.push({ role: 'more', label: `$(ellipsis) ${t('More results…')}`, description: t('{0} of about {1} shown', state.volumes.length, state.totalItems), alwaysShow: true });
    } else if (state.query !== '' && !state.loading && state.volumes.length === 0) {
      items.push({ role: 'empty', label: `$(info) ${t('No books found for "{0}"', state.query)}`, alwaysShow: true });
    }
    quickPick.items = items;
    // After "More results…" the first new volume is the natural next row.
    if (this.moreFrom !== undefined && !state.loading) {
      const firstNew = state.volumes.at(this.moreFrom);
      this.moreFrom = undefined;
      const row = firstNew ? items.find((item) => item.volume === firstNew) : undefined;
      if (row) quickPick.activeItems = [row];
    }
  }

  private detailOf(volume: Volume): string | undefined {
    const snippet = volume.searchInfo?.textSnippet ? htmlToText(volume.searchInfo.textSnippet) : undefined;
    const publisher = volume.volumeInfo.publisher;
    const text = snippet ?? publisher;
    if (!text) return undefined;
    return text.length > 140 ? `${text.slice(0, 139).trimEnd()}…` : text;
  }
}
