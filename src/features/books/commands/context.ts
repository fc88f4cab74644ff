/**
 * What every Books command part shares: the desk, the port, the tree model and view, the remembered public libraries,
 * and the questions the commands ask when run from the palette without a row (which shelf, which volume).
 */
import type { BooksOfflineWrites } from '../offline';
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import { showDetails } from '../../../core/ui/detailsView';
import type { Bookshelf } from '../../../shared/schemas/books';
import { BOOK_DETAILS_SCHEME } from '../details';
import type { BooksApi } from '../port';
import type { PublicLibraries } from '../publicLibraries';
import { BooksNode, BooksTreeModel, MY_LIBRARY, ShelfNode, VolumeNode } from '../tree/model';
import { shelfDescription, shelfLabel, Translate, volumeDescription, volumeLabel } from '../tree/presentation';
import type { BooksTreeProvider } from '../tree/treeProvider';

export interface BooksCommandContext {
  readonly desk: DeskContext;
  readonly api: () => BooksApi;
  readonly model: () => BooksTreeModel;
  readonly tree: BooksTreeProvider;
  readonly view: vscode.TreeView<BooksNode>;
  readonly libraries: PublicLibraries;
  /** Shelf changes that cannot reach the service are kept and sent later (see ../offline.ts). */
  readonly offline?: BooksOfflineWrites;
}

export class BooksPrompts {
  readonly t: Translate;

  constructor(private readonly context: BooksCommandContext) {
    this.t = (message, ...args) => context.desk.vs.l10n.t(message, ...args);
  }

  private get vs(): typeof vscode {
    return this.context.desk.vs;
  }

  async pick<T>(items: Array<{ label: string; description?: string; detail?: string; value: T }>, placeHolder: string): Promise<T | undefined> {
    const picked = await this.vs.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true, matchOnDescription: true });
    return picked?.value;
  }

  /** A shelf row of `owner`'s library (loads the library if needed), for a shelf the user picks. */
  async shelfNode(owner: string, shelfId: number): Promise<ShelfNode | undefined> {
    const model = this.context.model();
    await model.children(model.library(owner));
    return model.shelfNode(owner, shelfId);
  }

  /** The row's shelf, or one of My Library's shelves picked in a quick pick (only writable ones when asked). */
  async resolveShelf(node: BooksNode | undefined, placeHolder: string, options: { writable?: boolean } = {}): Promise<ShelfNode | undefined> {
    const fromRow = node?.kind === 'shelf' ? node : node?.kind === 'volume' || node?.kind === 'loadMore' ? node.parent : node?.kind === 'message' && node.parent.kind === 'shelf' ? node.parent : undefined;
    if (fromRow) return options.writable && !fromRow.writable ? undefined : fromRow;
    const model = this.context.model();
    const shelves = options.writable ? await model.writableShelves() : await model.shelves(MY_LIBRARY);
    if (shelves.length === 0) {
      void this.vs.window.showInformationMessage(this.t('There is no bookshelf to choose from.'));
      return undefined;
    }
    const shelf = await this.pickShelf(shelves, placeHolder);
    return shelf ? this.shelfNode(MY_LIBRARY, shelf.id) : undefined;
  }

  async pickShelf(shelves: readonly Bookshelf[], placeHolder: string): Promise<Bookshelf | undefined> {
    return this.pick(shelves.map((shelf) => ({
      label: shelfLabel(shelf, this.t),
      description: shelfDescription(shelf, this.t),
      value: shelf,
    })), placeHolder);
  }

  /** The row's volume, or a shelf then one of its volumes picked in quick picks. */
  async resolveVolume(node: BooksNode | undefined, placeHolder: string, options: { writable?: boolean } = {}): Promise<VolumeNode | undefined> {
    if (node?.kind === 'volume') return options.writable && !node.parent.writable ? undefined : node;
    const shelf = await this.resolveShelf(node, this.t('Which shelf?'), options);
    if (!shelf) return undefined;
    const volumes = await this.allVolumes(shelf);
    if (volumes.length === 0) {
      void this.vs.window.showInformationMessage(this.t('There are no volumes on "{0}".', shelfLabel(shelf.shelf, this.t)));
      return undefined;
    }
    const picked = await this.pick(volumes.map((row) => ({ label: volumeLabel(row.volume, this.t), description: volumeDescription(row.volume, this.t), value: row })), placeHolder);
    return picked;
  }

  /** Every volume row of a shelf, loading the remaining pages (for pickers and the position prompt). */
  async allVolumes(shelf: ShelfNode, maxPages = 25): Promise<VolumeNode[]> {
    const model = this.context.model();
    let rows = await model.children(shelf);
    for (let page = 0; page < maxPages && model.hasMore(shelf); page++) {
      await model.loadMore(shelf);
      rows = await model.children(shelf);
    }
    return rows.filter((row): row is VolumeNode => row.kind === 'volume');
  }

  /** Opens a `desk-book:` document: in the markdown preview where installed, else as a read-only text editor. */
  async openDetails(path: string): Promise<vscode.Uri> {
    const vs = this.vs;
    const uri = vs.Uri.from({ scheme: BOOK_DETAILS_SCHEME, authority: this.context.desk.session.viewAccount(), path });
    // One read-only tab titled with the book or shelf: the path's last part, without its ".md" (see core/ui/detailsView.ts).
    await showDetails(vs, uri, decodeURIComponent(path.split('/').pop() ?? path).replace(/\.md$/, ''));
    return uri;
  }

  /** Reveals a volume row after a change, if the view is open (a failed reveal is only logged). */
  async reveal(owner: string, shelfId: number, volumeId: string): Promise<void> {
    if (!this.context.view.visible) return;
    try {
      const node = await this.context.model().findVolumeNode(owner, shelfId, volumeId);
      if (node) await this.context.view.reveal(node, { select: true, focus: false, expand: false });
    } catch (error) {
      this.context.desk.log.debug(`Books: reveal failed: ${String(error)}`);
    }
  }
}
