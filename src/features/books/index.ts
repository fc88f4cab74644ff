import { markViewOffline } from '../../core/offline/offlineStatus';
import { BooksOfflineWrites } from './offline';
import type * as vscode from 'vscode';
import { BOOKS_TREE_VIEW } from '../../config/treeViews';
import { BooksClient } from '../../api/books';
import { DESK_SCOPES, SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { BooksCommands } from './commands';
import type { BooksApi } from './port';
import { PublicLibraries } from './publicLibraries';
import { BooksDragAndDropController } from './tree/dragAndDrop';
import { BooksNode, BooksTreeModel } from './tree/model';
import { MY_SHELVES_SNAPSHOT } from './tree/snapshot';
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
/** For the search (its bundle imports this index): the reader lives with the view's slot. */
export { cachedShelves } from './tree/snapshot';

export function registerBooks(desk: DeskContext): BooksSlice {
  return desk.register(new BooksFeature(desk));
}

class BooksFeature extends Disposable implements BooksSlice {
  private client: BooksApi | undefined;
  private modelValue: BooksTreeModel;
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
    // Every model keeps My Library's shelves in the view's slot (tree/snapshot.ts); the first shows the last session's.
    this.modelValue = this.newModel();
    this.modelValue.prefetchFirstRows();
    this.tree = this._register(new BooksTreeProvider(vs, {
      model: () => this.modelValue,
      isSignedIn: async () => {
        const signedIn = await desk.session.isSignedIn();
        // The first expansion after activation: the account's public libraries must be known first.
        if (signedIn) await this.reloading;
        return signedIn;
      },
      log: (message) => { desk.log.warn(message); },
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
    this.libraries.useLast(desk.backend.expected.kind);
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
      this.modelValue = this.newModel(this.modelValue.pageSize);
      // A later model (sign-in, back online, another backend) loads: cached shelves were of the session's start.
      this.modelValue.reset();
      this.tree.refreshAll();
    });
    return this.reloading;
  }

  /** `pageSize`: the page size of the model it replaces (none for the first). */
  private newModel(pageSize?: number): BooksTreeModel {
    return new BooksTreeModel(() => this.api(), {
      publicLibraries: () => this.libraries.list(),
      cache: this.desk.viewCache.slot(MY_SHELVES_SNAPSHOT),
      onFirstRowsReplaced: (myLibrary) => { this.tree.rerender(myLibrary); },
      // Another account's shelves (or no one signed in): the library rows too (signed out: the welcome view).
      onFirstRowsDropped: () => { this.tree.refreshRoots(); },
      ...(pageSize ? { pageSize } : {}),
    });
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
