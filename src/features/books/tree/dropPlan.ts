/**
 * What a drop inside a shelf means, as moveVolume calls. VS Code's tree drops "on a row", so: dropped on a volume, the
 * dragged volumes take its place (after it when they came from above, before it when from below); dropped on the
 * shelf row, they go to the top. Only volumes of the same writable shelf move; anything else is left out with a
 * reason. Pure, so it is unit-tested without a window.
 */
export interface ShelfMove {
  readonly volumeId: string;
  /** moveVolume's volumePosition: 0 puts it first; the volume is taken out, then put back at this index. */
  readonly position: number;
}

export type ShelfDropTarget = { readonly kind: 'shelf' } | { readonly kind: 'volume'; readonly volumeId: string };

/**
 * `order` is the shelf's loaded order (a prefix of the full order, from index 0, so its indexes are the shelf's);
 * `dragged` the volume ids in the order they were selected. Returns the calls that produce the wanted order, one per
 * moved volume, each position computed on the order the previous calls leave.
 */
export function planShelfMoves(order: readonly string[], dragged: readonly string[], target: ShelfDropTarget): ShelfMove[] {
  // Positions and membership by lookup, not by searching the lists: 20,000 volumes took 0.8 s to plan.
  const shelfIndex = new Map<string, number>();
  order.forEach((id, index) => { if (!shelfIndex.has(id)) shelfIndex.set(id, index); });
  const moving = [...new Set(dragged)].filter((id) => shelfIndex.has(id))
    // Shelf order, not selection order: a block keeps the order it had.
    .sort((a, b) => (shelfIndex.get(a) as number) - (shelfIndex.get(b) as number));
  if (moving.length === 0) return [];
  const movingIds = new Set(moving);
  if (target.kind === 'volume' && movingIds.has(target.volumeId)) return [];
  const rest = order.filter((id) => !movingIds.has(id));
  let insertAt = 0;
  if (target.kind === 'volume') {
    const anchor = rest.indexOf(target.volumeId);
    if (anchor < 0) return [];
    const fromAbove = order.indexOf(moving[0]) < order.indexOf(target.volumeId);
    insertAt = fromAbove ? anchor + 1 : anchor;
  }
  const wanted = [...rest.slice(0, insertAt), ...moving, ...rest.slice(insertAt)];
  if (wanted.every((id, index) => order[index] === id)) return [];

  // Place the block from its last volume to its first, each right before the one placed after it (or before the
  // volume that follows the block): each position is the index at the time of its call. Then the volumes before the
  // block's place are the rest before it and the moving volumes not placed yet that were before it (a prefix of
  // `moving`, in shelf order), so no call needs the order simulated (that was quadratic: 20,000 volumes, 0.3 s).
  const end = rest.at(insertAt);
  const boundary = end === undefined ? Number.POSITIVE_INFINITY : (shelfIndex.get(end) as number);
  const before = moving.filter((id) => (shelfIndex.get(id) as number) < boundary).length;
  return moving.map((volumeId, index) => ({ volumeId, position: insertAt + Math.min(index, before) })).reverse();
}

/** Applies moveVolume's rule to an order (for tests and for redrawing before the reload). */
export function applyShelfMoves(order: readonly string[], moves: readonly ShelfMove[]): string[] {
  const result = [...order];
  for (const move of moves) {
    const index = result.indexOf(move.volumeId);
    if (index < 0) continue;
    result.splice(index, 1);
    result.splice(Math.min(move.position, result.length), 0, move.volumeId);
  }
  return result;
}
