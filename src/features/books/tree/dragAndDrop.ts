/** Drag volumes within a writable shelf of My Library to reorder it (moveVolume); see dropPlan.ts for what a drop means. */
import { BOOKS_MIME, BOOKS_TREE_VIEW } from '../../../config/treeViews';
import type * as vscode from 'vscode';
import * as z from '../../../shared/schemas/zod';
import { planShelfMoves, ShelfDropTarget, ShelfMove } from './dropPlan';
import type { BooksNode, BooksTreeModel, ShelfNode } from './model';

export { BOOKS_MIME };

/** What a drag carries: plain references (checked on drop, since a data transfer holds anything). */
const draggedSchema = z.array(z.object({ owner: z.string(), shelfId: z.number(), volumeId: z.string() }));

export interface BooksDropHandler {
  /** Runs the moves in order and refreshes the shelf; reports errors itself. */
  move(shelf: ShelfNode, moves: readonly ShelfMove[]): Promise<void>;
}

export class BooksDragAndDropController implements vscode.TreeDragAndDropController<BooksNode> {
  readonly dragMimeTypes = BOOKS_TREE_VIEW.dragAndDrop.dragMimeTypes;
  readonly dropMimeTypes = BOOKS_TREE_VIEW.dragAndDrop.dropMimeTypes;

  constructor(private readonly vs: typeof vscode, private readonly model: () => BooksTreeModel, private readonly handler: BooksDropHandler) {}

  handleDrag(source: readonly BooksNode[], dataTransfer: vscode.DataTransfer): void {
    // Only volumes of shelves that take changes can be dragged at all.
    const refs = source.flatMap((node) => (node.kind === 'volume' && node.parent.writable ? [{ owner: node.parent.parent.owner, shelfId: node.parent.shelf.id, volumeId: node.volume.id }] : []));
    if (refs.length > 0) dataTransfer.set(BOOKS_MIME, new this.vs.DataTransferItem(refs));
  }

  async handleDrop(target: BooksNode | undefined, dataTransfer: vscode.DataTransfer): Promise<void> {
    const parsed = draggedSchema.safeParse(dataTransfer.get(BOOKS_MIME)?.value);
    if (!parsed.success || !target) return;
    const shelf = target.kind === 'shelf' ? target : target.kind === 'volume' ? target.parent : undefined;
    if (!shelf?.writable) return;
    // Within one shelf only: a volume dragged from another shelf is not moved (add it there with "Add to Shelf…").
    const dragged = parsed.data.filter((ref) => ref.owner === shelf.parent.owner && ref.shelfId === shelf.shelf.id).map((ref) => ref.volumeId);
    const dropTarget: ShelfDropTarget = target.kind === 'volume' ? { kind: 'volume', volumeId: target.volume.id } : { kind: 'shelf' };
    const moves = planShelfMoves(this.model().loadedOrder(shelf), dragged, dropTarget);
    if (moves.length > 0) await this.handler.move(shelf, moves);
  }
}
