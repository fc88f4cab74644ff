/**
 * Shelf and library commands: refresh, load more, shelf details (mylibrary.bookshelves.get / bookshelves.get), clear a
 * shelf (clearVolumes, confirmed), and adding or removing another user's public library (bookshelves.list).
 */
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import { shelfDetailsPath } from '../details';
import { booksUserIdIn } from '../publicLibraries';
import type { BooksNode, LibraryNode } from '../tree/model';
import { MY_LIBRARY } from '../tree/model';
import { shelfLabel } from '../tree/presentation';
import type { BooksCommandContext, BooksPrompts } from './context';

export class ShelfCommands {
  /** The user id typed into "Add a Public Library…" that did not work out: offered again, so nothing typed is lost. */
  private libraryDraft = '';

  constructor(private readonly context: BooksCommandContext, private readonly prompts: BooksPrompts) {}

  private get t() {
    return this.prompts.t;
  }

  refresh(node?: BooksNode): void {
    const { tree } = this.context;
    if (!node) { tree.refreshAll(); return; }
    const target = node.kind === 'message' ? node.parent : node;
    if (target.kind === 'library') tree.refreshLibrary(target.owner, this.loadedShelfIds(target));
    else if (target.kind === 'shelf') tree.refreshLibrary(target.parent.owner, [target.shelf.id]);
    else tree.refreshLibrary(target.parent.parent.owner, [target.parent.shelf.id]);
  }

  /** The next page of a shelf's volumes ("Load more…" row). */
  async loadMore(node?: BooksNode): Promise<boolean> {
    const shelf = node?.kind === 'loadMore' ? node.parent : node?.kind === 'shelf' ? node : undefined;
    if (!shelf) return false;
    const loaded = await attempt(this.context.desk, () => this.context.model().loadMore(shelf), { action: this.t('Could not load more volumes'), retry: true, onSuccess: () => { this.context.tree.rerender(shelf); } });
    return loaded ?? false;
  }

  /** mylibrary.bookshelves.get (or bookshelves.get for a public shelf) as a details page. */
  async shelfDetails(node?: BooksNode): Promise<unknown> {
    const shelf = await this.prompts.resolveShelf(node, this.t('Show the details of which shelf?'));
    if (!shelf) return undefined;
    return this.prompts.openDetails(shelfDetailsPath(shelf.parent.owner, shelf.shelf.id, shelfLabel(shelf.shelf, this.t)));
  }

  /** clearVolumes: every volume leaves the shelf, after a modal confirmation. */
  async clearShelf(node?: BooksNode): Promise<boolean> {
    if (node && !this.writableRow(node)) return false;
    const shelf = await this.prompts.resolveShelf(node, this.t('Clear which shelf?'), { writable: true });
    if (!shelf) return false;
    const title = shelfLabel(shelf.shelf, this.t);
    const count = shelf.shelf.volumeCount;
    const message = count === undefined ? this.t('Remove every volume from "{0}"?', title) : count === 1 ? this.t('Remove the 1 volume on "{0}"?', title) : this.t('Remove all {0} volumes from "{1}"?', count, title);
    if (!(await confirmModal(this.context.desk.vs, message, this.t('The books stay in Google Books; only the shelf is emptied. This cannot be undone.'), this.t('Clear Shelf')))) return false;
    const done = await attempt(this.context.desk, async () => {
      await this.context.api().clearVolumes(shelf.shelf.id);
      return true;
    }, { action: this.t('Could not clear "{0}"', title), retry: true, onSuccess: () => { this.context.tree.refreshLibrary(MY_LIBRARY, [shelf.shelf.id]); } });
    return done ?? false;
  }

  /** Asks for a user id, checks that user's public shelves can be listed (bookshelves.list), then shows them. */
  async addPublicLibrary(userIdArgument?: unknown): Promise<string | undefined> {
    const { desk, libraries } = this.context;
    const vs = desk.vs;
    let typed = typeof userIdArgument === 'string' ? userIdArgument.trim() : undefined;
    if (typed === undefined) {
      typed = (await vs.window.showInputBox({
        title: this.t('Add a Public Library'),
        prompt: this.t('The Books user id of the library (a number, as in books.google.com/books?uid=…). Its public shelves are shown; nothing is copied.'),
        placeHolder: this.t('e.g. 113000000000000000001'),
        value: this.libraryDraft,
        ignoreFocusOut: true,
        validateInput: (text) => (booksUserIdIn(text) !== undefined ? undefined : this.t('A Books user id is a number, or the library\'s address with ?uid=…')),
      }))?.trim();
    }
    if (typed === undefined) return undefined;
    const userId = booksUserIdIn(typed);
    if (userId === undefined) {
      void vs.window.showWarningMessage(this.t('"{0}" is not a Books user id (a number): nothing was added.', typed));
      return undefined;
    }
    if (libraries.account && userId === libraries.account) {
      void vs.window.showInformationMessage(this.t('That is your own library: it is shown as My Library.'));
      return undefined;
    }
    this.libraryDraft = userId;
    const id = userId;
    const added = await attempt(desk, async () => {
      // Checked before it is remembered: a mistyped id or a private library answers 404 here, not in the tree.
      await this.context.api().listUserBookshelves(id);
      await libraries.add(id);
      return id;
    }, {
      action: this.t('Could not open the public library of user {0}', id),
      retry: true,
      onSuccess: async () => {
        this.libraryDraft = '';
        this.context.tree.refreshRoots();
        await this.revealLibrary(id);
      },
    });
    return added;
  }

  /** Forgets a public library (only the view's list changes; nothing on the service). */
  async removePublicLibrary(node?: BooksNode): Promise<boolean> {
    const { libraries } = this.context;
    let owner = node?.kind === 'library' && !node.mine ? node.owner : undefined;
    if (owner === undefined && !node) {
      if (libraries.list().length === 0) {
        void this.context.desk.vs.window.showInformationMessage(this.t('No public library has been added.'));
        return false;
      }
      owner = await this.prompts.pick(libraries.list().map((id) => ({ label: this.t('User {0}', id), value: id })), this.t('Remove which public library from the view?'));
    }
    if (owner === undefined) return false;
    const removed = await libraries.remove(owner);
    this.context.model().forgetLibrary(owner);
    this.context.tree.refreshRoots();
    return removed;
  }

  private writableRow(node: BooksNode): boolean {
    return (node.kind === 'shelf' && node.writable) || (node.kind === 'volume' && node.parent.writable);
  }

  private loadedShelfIds(library: LibraryNode): number[] {
    return this.context.model().loadedShelves(library.owner).map((shelf) => shelf.shelf.id);
  }

  private async revealLibrary(owner: string): Promise<void> {
    if (!this.context.view.visible) return;
    try {
      await this.context.view.reveal(this.context.model().library(owner), { select: true, focus: false, expand: true });
    } catch (error) {
      this.context.desk.log.debug(`Books: reveal failed: ${String(error)}`);
    }
  }
}
