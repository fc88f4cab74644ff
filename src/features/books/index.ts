import { markViewOffline } from '../../core/offline/offlineStatus';
import { BooksOfflineWrites } from './offline';
import type * as vscode from 'vscode';
import { BOOKS_TREE_VIEW } from '../../config/treeViews';
import { VIEW_CACHE_SLOTS } from '../../config/viewCacheSlots';
import { BooksClient } from '../../api/books';
import { DESK_SCOPES, SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { BooksCommands } from './commands';
import type { BooksApi } from './port';
import { PublicLibraries } from './publicLibraries';
import { BooksDragAndDropController } from './tree/dragAndDrop';
import { BooksNode, BooksTreeModel, isMyShelvesSnapshot, MY_LIBRARY } from './tree/model';
import type { Bookshelf } from '../../shared/schemas/books';
import { FirstRowsFromCache, type ViewCache } from '../../core/storage/viewCache';
import { BOOKS_VIEW_ID, BooksTreeProvider } from './tree/treeProvider';

/** The Books slice as activate() returns it to tests. */
export interface BooksSlice {
  api(): BooksApi;
  model(): BooksTreeModel;
  readonly tree: BooksTreeProvider;
  readonly view: vscode.TreeView<BooksNode>;
  readonly commands: BooksCommands;
  readonly dragAndDrop: BooksDragAndDropController;
  readonly libraries: PublicLibraries;
  /** Re-reads the signed-in account (its public libraries) and reloads the tree; resolves when done. */
  reload(): Promise<void>;
}

/**
 * Wires the Bookshelves view: the lazily built client, the tree model and provider, drag and drop within a shelf, the
 * commands (live search included), the public libraries remembered per account, and the `desk-book:` details
 * documents. Nothing here touches the network: the tree loads when VS Code first asks for its rows.
 */
/** The view's slot in the view cache: My Library's shelves as last shown. */
const BOOKS_CACHE = VIEW_CACHE_SLOTS.myLibrary;

/** My Library's shelves as the Books view last showed them (from disk, no request), e.g. for the search. */
export function cachedShelves(cache: ViewCache): Promise<Bookshelf[] | undefined> {
  return cache.read(BOOKS_CACHE, isMyShelvesSnapshot);
}

export function registerBooks(desk: DeskContext): BooksSlice {
  return desk.register(new BooksFeature(desk));
}

class BooksFeature extends Disposable implements BooksSlice {
  private client: BooksApi | undefined;
  private modelValue: BooksTreeModel;
  /** My Library's shelves of the last session, shown at the first start (shared by the models of one session). */
  private readonly firstRows: FirstRowsFromCache<Bookshelf[]>;
  private reloading: Promise<void> = Promise.resolve();
  readonly tree: BooksTreeProvider;
  readonly view: vscode.TreeView<BooksNode>;
  readonly commands: BooksCommands;
  readonly dragAndDrop: BooksDragAndDropController;
  readonly libraries: PublicLibraries;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.libraries = new PublicLibraries(desk.extensionContext.globalState, desk.vs.l10n.t);
    this.firstRows = new FirstRowsFromCache(desk.viewCache.view(BOOKS_CACHE, isMyShelvesSnapshot), () => this.tree.rerender(this.modelValue.library(MY_LIBRARY)), {
      // Another account's shelves (or no one signed in): the library rows too (signed out: the welcome view).
      onDropped: () => this.tree.refreshRoots(),
    });
    this.firstRows.prefetch();
    this.modelValue = this.newModel();
    this.tree = this._register(new BooksTreeProvider(vs, {
      model: () => this.modelValue,
      isSignedIn: async () => {
        const signedIn = await desk.session.isSignedIn();
        // The first expansion after activation: the account's public libraries must be known first.
        if (signedIn) await this.reloading;
        return signedIn;
      },
      log: (message) => desk.log.warn(message),
      myUserId: () => this.libraries.account,
      day: (ms) => desk.clock.day(ms),
    }));
    let commands: BooksCommands | undefined;
    this.dragAndDrop = new BooksDragAndDropController(vs, () => this.modelValue, { move: (shelf, moves) => (commands ? commands.move(shelf, moves) : Promise.resolve()) });
    this.view = this._register(vs.window.createTreeView(BOOKS_VIEW_ID, { treeDataProvider: this.tree, dragAndDropController: this.dragAndDrop, ...BOOKS_TREE_VIEW.options }));
    this._register(markViewOffline(desk, this.view));
    // Shelf changes that cannot reach the service wait in Desk's queue (the view reloads when it is back).
    const offline = new BooksOfflineWrites({ desk, api: () => this.api() });
    for (const replayer of offline.register()) this._register(replayer);
    commands = new BooksCommands({ desk, api: () => this.api(), model: () => this.modelValue, tree: this.tree, view: this.view, libraries: this.libraries, offline });
    this.commands = commands;
    for (const disposable of commands.register()) this._register(disposable);

    this._register(desk.session.onDidChangeSignedIn(() => void this.reload()));
    this._register(desk.onDidComeOnline(() => void this.reload()));
    this._register(desk.backend.onDidChange(() => {
      this.client = undefined;
      void this.reload();
    }));
    // The remembered account's public libraries at once (its cached shelves show before the account check answers);
    // the check then sets the account, and the library rows are redrawn if it is another.
    this.libraries.use(desk.backend.expected.kind, desk.viewCache.rememberedAccount());
    const assumed = this.libraries.account;
    this.reloading = this.readAccount().then(() => {
      if (this.libraries.account !== assumed) this.tree.refreshRoots();
    });
  }

  /** The Books client, built on first use (and again after a backend switch). */
  api(): BooksApi {
    this.client ??= new BooksClient(this.desk.httpClient((endpoints) => endpoints.books, DESK_SCOPES));
    return this.client;
  }

  model(): BooksTreeModel {
    return this.modelValue;
  }

  reload(): Promise<void> {
    this.reloading = this.readAccount().then(() => {
      this.modelValue = this.newModel();
      this.tree.refreshAll();
    });
    return this.reloading;
  }

  private newModel(): BooksTreeModel {
    const pageSize = this.modelValue?.pageSize;
    return new BooksTreeModel(() => this.api(), { publicLibraries: () => this.libraries.list(), cache: this.firstRows, ...(pageSize ? { pageSize } : {}) });
  }

  /** The account whose public libraries are shown: the session the Books requests use (stored sessions, no network). */
  private async readAccount(): Promise<void> {
    let account: string | undefined;
    try {
      const sessions = await this.desk.auth.listSessions();
      account = sessions.find((session) => SCOPES.books.every((scope) => session.scopes.includes(scope)))?.account.id;
    } catch (error) {
      this.desk.log.warn(`Books: could not read the signed-in account: ${String(error)}`);
    }
    this.libraries.use(this.desk.backend.expected.kind, account);
  }
}
