/**
 * Volume commands: details (volumes.get), add to a shelf (addVolume), remove (removeVolume, confirmed), move within a
 * shelf (moveVolume: the command asks the position; drag and drop plans it in tree/dropPlan.ts).
 */
import { isUnreachable } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { Bookshelf, Volume } from '../../../shared/schemas/books';
import { volumeDetailsPath } from '../details';
import { MY_EBOOKS_SHELF_ID } from '../port';
import type { ShelfMove } from '../tree/dropPlan';
import { BooksNode, MY_LIBRARY, ShelfNode } from '../tree/model';
import { shelfLabel, volumeLabel } from '../tree/presentation';
import type { BooksCommandContext, BooksPrompts } from './context';

/** What "Add to Shelf…" did (tests and chained commands read it). */
export interface AddedVolume {
  readonly shelfId: number;
  readonly volumeId: string;
  /** The book was on the shelf already: nothing was sent (Google answers such an addVolume as a success that changes nothing). */
  readonly alreadyOnShelf?: true;
}

export class VolumeCommands {
  constructor(private readonly context: BooksCommandContext, private readonly prompts: BooksPrompts) {}

  private get t() {
    return this.prompts.t;
  }

  /** A volume row, or a volume id (from the search), or one picked from a shelf: volumes.get as a details page. */
  async openVolume(target?: BooksNode | string | Volume): Promise<unknown> {
    let volume: Volume | undefined;
    if (typeof target === 'string') volume = await this.context.api().getVolume(target);
    else if (target && 'kind' in target && target.kind === 'books#volume') volume = target;
    else {
      const node = await this.prompts.resolveVolume(target, this.t('Show the details of which volume?'));
      volume = node?.volume;
    }
    if (!volume) return undefined;
    return this.prompts.openDetails(volumeDetailsPath(volume.id, volumeLabel(volume, this.t)));
  }

  /**
   * addVolume. From a volume row: that volume onto another shelf. From a shelf row: a book found with the live search
   * onto that shelf. `volume` is given by the search's own "Add to Shelf…".
   */
  async addToShelf(node?: BooksNode, volume?: Volume, findVolume?: () => Promise<Volume | undefined>): Promise<AddedVolume | undefined> {
    const book = volume ?? (node?.kind === 'volume' ? node.volume : await findVolume?.());
    if (!book) return undefined;
    let shelf: Bookshelf | undefined;
    if (node?.kind === 'shelf' && node.writable) shelf = node.shelf;
    else {
      const from = node?.kind === 'volume' && node.parent.writable ? node.parent.shelf.id : undefined;
      // My eBooks takes eBooks only (Google and the emulator refuse others): offered when the volume is one, or may be.
      const candidates = (await this.context.model().writableShelves())
        .filter((candidate) => candidate.id !== from)
        .filter((candidate) => candidate.id !== MY_EBOOKS_SHELF_ID || book.saleInfo?.isEbook !== false);
      if (candidates.length === 0) {
        void this.context.desk.vs.window.showInformationMessage(this.t('There is no other shelf to add it to.'));
        return undefined;
      }
      shelf = await this.prompts.pickShelf(candidates, this.t('Add "{0}" to which shelf?', volumeLabel(book, this.t)));
    }
    if (!shelf) return undefined;
    const target = shelf;
    if (await this.isOnShelf(target.id, book.id)) {
      void this.context.desk.vs.window.showInformationMessage(this.t('"{0}" is already on "{1}".', volumeLabel(book, this.t), shelfLabel(target, this.t)));
      await this.prompts.reveal(MY_LIBRARY, target.id, book.id);
      return { shelfId: target.id, volumeId: book.id, alreadyOnShelf: true };
    }
    let kept = false;
    const added = await attempt(this.context.desk, async () => {
      try {
        await this.context.api().addVolume(target.id, book.id);
      } catch (error) {
        // Offline: kept, and sent when the service is back (an add is safe to send again).
        if (!isUnreachable(error) || !this.context.offline) throw error;
        await this.context.offline.keep('add', target.id, book.id, this.t('Add "{0}" to "{1}"', volumeLabel(book, this.t), shelfLabel(target, this.t)));
        kept = true;
      }
      return { shelfId: target.id, volumeId: book.id };
    }, {
      action: this.t('Could not add "{0}" to "{1}"', volumeLabel(book, this.t), shelfLabel(target, this.t)),
      retry: true,
      onSuccess: async () => {
        if (kept) {
          // Shown at once on the shelf, if its rows are loaded; sent when the service is back.
          const shelfRow = this.context.model().shelfNode(MY_LIBRARY, target.id);
          if (shelfRow && this.context.model().addLocally(shelfRow, book)) this.context.tree.rerender(shelfRow);
          void this.context.desk.vs.window.showInformationMessage(this.t('Desk is offline: "{0}" will be added to "{1}" when the connection is back.', volumeLabel(book, this.t), shelfLabel(target, this.t)));
          return;
        }
        this.context.tree.refreshLibrary(MY_LIBRARY, [target.id]);
        void this.context.desk.vs.window.showInformationMessage(this.t('Added "{0}" to "{1}".', volumeLabel(book, this.t), shelfLabel(target, this.t)));
        await this.prompts.reveal(MY_LIBRARY, target.id, book.id);
      },
    });
    return added;
  }

  /**
   * Whether the shelf holds the book, from the rows the view has loaded, else its listing (one page for most shelves).
   * A listing that fails answers false: the add itself is tried and reports what went wrong.
   */
  private async isOnShelf(shelfId: number, volumeId: string): Promise<boolean> {
    try {
      return (await this.context.model().findVolumeNode(MY_LIBRARY, shelfId, volumeId)) !== undefined;
    } catch (error) {
      this.context.desk.log.debug(`Books: could not list shelf ${shelfId} before adding: ${String(error)}`);
      return false;
    }
  }

  /** removeVolume, after a modal confirmation. */
  async removeFromShelf(node?: BooksNode): Promise<boolean> {
    if (node && node.kind !== 'volume' && node.kind !== 'shelf') return false;
    const row = await this.prompts.resolveVolume(node, this.t('Remove which volume?'), { writable: true });
    if (!row) return false;
    const title = volumeLabel(row.volume, this.t);
    const shelfTitle = shelfLabel(row.parent.shelf, this.t);
    if (!(await confirmModal(this.context.desk.vs, this.t('Remove "{0}" from "{1}"?', title, shelfTitle), this.t('The book stays in Google Books and on your other shelves.'), this.t('Remove')))) return false;
    // No Retry: removeVolume is not idempotent (a repeat of a call that landed answers "not on the shelf").
    const done = await attempt(this.context.desk, async () => {
      try {
        await this.context.api().removeVolume(row.parent.shelf.id, row.volume.id);
      } catch (error) {
        // Offline: kept, and sent when the service is back (a 404 then means it is off the shelf already).
        if (!isUnreachable(error) || !this.context.offline) throw error;
        await this.context.offline.keep('remove', row.parent.shelf.id, row.volume.id, this.t('Remove "{0}" from "{1}"', title, shelfTitle));
        // Shown at once: the row leaves the shelf (the refresh below keeps what is loaded while offline).
        if (this.context.model().removeLocally(row.parent, row.volume.id)) this.context.tree.rerender(row.parent);
        void this.context.desk.vs.window.showInformationMessage(this.t('Desk is offline: "{0}" will be removed from "{1}" when the connection is back.', title, shelfTitle));
      }
      return true;
    }, { action: this.t('Could not remove "{0}" from "{1}"', title, shelfTitle), onSuccess: () => { this.context.tree.refreshLibrary(MY_LIBRARY, [row.parent.shelf.id]); } });
    return done ?? false;
  }

  /** moveVolume to a position the user types (1 is first). Answers the new 0-based position. */
  async moveWithinShelf(node?: BooksNode, positionArgument?: unknown): Promise<number | undefined> {
    if (node && node.kind !== 'volume' && node.kind !== 'shelf') return undefined;
    const row = await this.prompts.resolveVolume(node, this.t('Move which volume?'), { writable: true });
    if (!row) return undefined;
    const count = Math.max(row.parent.shelf.volumeCount ?? 0, (await this.prompts.allVolumes(row.parent)).length);
    const title = volumeLabel(row.volume, this.t);
    let answer = typeof positionArgument === 'number' ? String(positionArgument) : undefined;
    answer ??= await this.context.desk.vs.window.showInputBox({
      title: this.t('Move "{0}"', title),
      prompt: this.t('New position on "{0}": 1 is first, {1} is last (now {2}).', shelfLabel(row.parent.shelf, this.t), count, row.position + 1),
      value: String(row.position + 1),
      ignoreFocusOut: true,
      validateInput: (text) => (positionOf(text, count) === undefined ? this.t('A whole number from 1 to {0}.', count) : undefined),
    });
    if (answer === undefined) return undefined;
    const position = positionOf(answer, count);
    if (position === undefined) {
      void this.context.desk.vs.window.showWarningMessage(this.t('"{0}" is not a position from 1 to {1}: nothing was moved.', answer, count));
      return undefined;
    }
    if (position === row.position) return position;
    await this.move(row.parent, [{ volumeId: row.volume.id, position }]);
    return position;
  }

  /** Runs moveVolume calls in order (drag and drop, Move Within Shelf), then reloads the shelf. */
  async move(shelf: ShelfNode, moves: readonly ShelfMove[]): Promise<void> {
    // No Retry: a sequence that failed half-way must be looked at again (the shelf reloads either way).
    // Offline, the moves not sent are kept, in order, and sent when the service is back (a move repeated lands in the same place).
    // Set in attempt()'s work, which TypeScript's narrowing does not follow (hence `as boolean`).
    let kept = false as boolean;
    await attempt(this.context.desk, async () => {
      for (const move of moves) {
        if (!kept) {
          try {
            await this.context.api().moveVolume(shelf.shelf.id, move.volumeId, move.position);
            continue;
          } catch (error) {
            if (!isUnreachable(error) || !this.context.offline) throw error;
            kept = true;
          }
        }
        await this.context.offline?.keepMove(shelf.shelf.id, move.volumeId, move.position, this.t('Move a volume to position {0} on "{1}"', move.position + 1, shelfLabel(shelf.shelf, this.t)));
        // Shown at once, as it will be once sent: the shelf redraws from what is loaded, without a request.
        if (this.context.model().moveLocally(shelf, move.volumeId, move.position)) this.context.tree.rerender(shelf);
      }
      if (kept) void this.context.desk.vs.window.showInformationMessage(this.t('Desk is offline: the move on "{0}" is kept and sent when the connection is back.', shelfLabel(shelf.shelf, this.t)));
    }, { action: this.t('Could not move the volume on "{0}"', shelfLabel(shelf.shelf, this.t)) });
    if (kept) return;
    this.context.tree.refreshShelf(shelf);
    const first = moves.at(-1);
    if (first) await this.prompts.reveal(shelf.parent.owner, shelf.shelf.id, first.volumeId);
  }
}

/** "3" → 2 (0-based), within 1..count. */
export function positionOf(text: string, count: number): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= Math.max(count, 1) ? value - 1 : undefined;
}
