/**
 * Renders the Bookshelves tree model: libraries, shelves (volume count and access as the description), volumes
 * (authors · year · pages), "Load more…" rows and messages. Hovers are built in resolveTreeItem, only when shown.
 */
import { BOOKS_TREE_VIEW } from '../../../config/treeViews';
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { Disposable } from '../../../core/disposable';
import { NotSignedInError } from '../../../core/accounts/session';
import { BooksNode, BooksTreeModel, LibraryNode, MessageNode, ShelfNode } from './model';
import { contextValueFor, shelfDescription, shelfLabel, shelfTooltip, Translate, volumeDescription, volumeLabel, volumeTooltip } from './presentation';
import { messageTreeItem } from '../../../core/ui/treeMessage';
import { BOOKS_COMMAND } from '../../../config/commandIds';

export const BOOKS_VIEW_ID = BOOKS_TREE_VIEW.id;

export interface BooksTreeOptions {
  readonly model: () => BooksTreeModel;
  readonly isSignedIn: () => Promise<boolean>;
  readonly log: (message: string) => void;
  /** The signed-in account's Books user id, shown on My Library's hover (what others type to see its public shelves). */
  readonly myUserId?: () => string | undefined;
  /** How a day reads in hovers ("Fri 27 Nov"): the DeskClock's `day`. */
  readonly day?: (ms: number) => string;
}

export class BooksTreeProvider extends Disposable implements vscode.TreeDataProvider<BooksNode> {
  private readonly changeEmitter: vscode.EventEmitter<BooksNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<BooksNode | undefined>;
  private readonly t: Translate;

  constructor(private readonly vs: typeof vscode, private readonly options: BooksTreeOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<BooksNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
  }

  private get model(): BooksTreeModel {
    return this.options.model();
  }

  // ---- refresh

  /** Everything again. */
  refreshAll(): void {
    this.model.reset();
    this.changeEmitter.fire(undefined);
  }

  /** A library's shelves (counts) and the volumes of `shelfIds` reload; expanded shelves keep their place. */
  refreshLibrary(owner: string, shelfIds: readonly number[] = []): void {
    this.model.invalidateLibrary(owner, shelfIds);
    this.changeEmitter.fire(this.model.library(owner));
  }

  /** One shelf's volumes reload (its row stays). */
  refreshShelf(shelf: ShelfNode): void {
    this.model.invalidateShelf(shelf.parent.owner, shelf.shelf.id);
    this.changeEmitter.fire(shelf);
  }

  /** The library rows changed (a public library added or removed). */
  refreshRoots(): void {
    this.changeEmitter.fire(undefined);
  }

  /** Redraws a shelf after "Load more…" fetched its next page. */
  rerender(node: BooksNode): void {
    this.changeEmitter.fire(node);
  }

  // ---- TreeDataProvider

  async getChildren(node?: BooksNode): Promise<BooksNode[]> {
    // Signed out: the welcome view. My Library's cached shelves show without waiting for that check.
    if (!node) return (await this.model.startsFromCache()) || (await this.options.isSignedIn()) ? this.model.roots() : [];
    if (node.kind !== 'library' && node.kind !== 'shelf') return [];
    try {
      const refreshingBefore = this.model.refreshing;
      const children = await this.model.children(node);
      // The cache was read for these rows, after My Library's own row was drawn: redraw it to say "refreshing…".
      // After this answer is in: a change of the row while VS Code waits for its children loses them.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the refresh may have started during the await
      if (!refreshingBefore && this.model.refreshing) setTimeout(() => { this.rerender(node); }, 0);
      return children;
    } catch (error) {
      if (error instanceof NotSignedInError) return [];
      const what = node.kind === 'library' ? this.libraryLabel(node) : shelfLabel(node.shelf, this.t);
      this.options.log(`Books: could not load ${what}: ${errorMessage(error)}`);
      const message: MessageNode = { kind: 'message', id: `message/${node.id}/error`, parent: node, key: 'error', detail: errorMessage(error, this.t) };
      return [message];
    }
  }

  getParent(node: BooksNode): BooksNode | undefined {
    return this.model.parentOf(node);
  }

  getTreeItem(node: BooksNode): vscode.TreeItem {
    const vs = this.vs;
    const { TreeItemCollapsibleState: State, ThemeIcon } = vs;
    const t = this.t;
    let item: vscode.TreeItem;
    switch (node.kind) {
      case 'library':
        item = new vs.TreeItem(this.libraryLabel(node), node.mine ? State.Expanded : State.Collapsed);
        item.iconPath = new ThemeIcon(node.mine ? 'library' : 'person');
        if (!node.mine) item.description = t('public shelves');
        else if (this.model.refreshing) item.description = t('refreshing…');
        break;
      case 'shelf': {
        const mine = node.parent.mine;
        item = new vs.TreeItem(shelfLabel(node.shelf, t), State.Collapsed);
        item.iconPath = new ThemeIcon(node.writable ? 'folder-library' : 'lock');
        item.description = shelfDescription(node.shelf, t);
        item.accessibilityInformation = { label: [shelfLabel(node.shelf, t), item.description, mine && !node.writable ? t('read-only') : undefined].filter(Boolean).join(', ') };
        break;
      }
      case 'volume': {
        item = new vs.TreeItem(volumeLabel(node.volume, t), State.None);
        item.iconPath = new ThemeIcon('book');
        item.description = volumeDescription(node.volume, t);
        item.command = { command: BOOKS_COMMAND.openVolume, title: t('Open Volume Details'), arguments: [node] };
        item.accessibilityInformation = { label: [volumeLabel(node.volume, t), item.description].filter(Boolean).join(', ') };
        break;
      }
      case 'loadMore':
        item = new vs.TreeItem(t('Load more…'), State.None);
        item.iconPath = new ThemeIcon('ellipsis');
        item.command = { command: BOOKS_COMMAND.loadMore, title: t('Load more'), arguments: [node] };
        break;
      case 'message':
        item = messageTreeItem(vs, { label: this.messageText(node), error: node.key === 'error', retryCommand: BOOKS_COMMAND.refresh, retryArguments: [node.parent] });
        break;
    }
    item.id = node.id;
    item.contextValue = contextValueFor(node);
    return item;
  }

  /** Hovers are built only when shown: descriptions can be long and most rows are never hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: BooksNode): vscode.TreeItem {
    if (node.kind === 'volume') {
      item.tooltip = new this.vs.MarkdownString(volumeTooltip(node.volume, this.t));
    } else if (node.kind === 'shelf') {
      item.tooltip = new this.vs.MarkdownString(shelfTooltip(node.shelf, { mine: node.parent.mine, writable: node.writable, owner: node.parent.owner, ...(this.options.day ? { day: this.options.day } : {}) }, this.t));
    } else if (node.kind === 'library') {
      const userId = node.mine ? this.options.myUserId?.() : node.owner;
      item.tooltip = node.mine
        ? (userId ? this.t('Your bookshelves. Your Books user id is {0}.', userId) : this.t('Your bookshelves'))
        : this.t('The public bookshelves of Books user {0}', node.owner);
    }
    return item;
  }

  private libraryLabel(node: LibraryNode): string {
    return node.mine ? this.t('My Library') : this.t('User {0}', node.owner);
  }

  private messageText(node: MessageNode): string {
    switch (node.key) {
      case 'noShelves': return this.t('No bookshelves');
      case 'noPublicShelves': return this.t('No public bookshelves');
      case 'noVolumes': return this.t('No volumes on this shelf');
      case 'offline': return this.t('Not available offline');
      case 'error': return this.t('Could not load: {0}', node.detail ?? '');
    }
  }
}
