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
  const onShelf = new Set(order);
  const moving = [...new Set(dragged)].filter((id) => onShelf.has(id))
    // Shelf order, not selection order: a block keeps the order it had.
    .sort((a, b) => order.indexOf(a) - order.indexOf(b));
  if (moving.length === 0) return [];
  if (target.kind === 'volume' && moving.includes(target.volumeId)) return [];
  const rest = order.filter((id) => !moving.includes(id));
  let insertAt = 0;
  if (target.kind === 'volume') {
    const anchor = rest.indexOf(target.volumeId);
    if (anchor < 0) return [];
    const fromAbove = order.indexOf(moving[0] as string) < order.indexOf(target.volumeId);
    insertAt = fromAbove ? anchor + 1 : anchor;
  }
  const wanted = [...rest.slice(0, insertAt), ...moving, ...rest.slice(insertAt)];
  if (wanted.every((id, index) => order[index] === id)) return [];

  // Place the block from its last volume to its first, each right before the one placed after it (or before the
  // volume that follows the block), simulating each call so every position is the index at the time of its call.
  const current = [...order];
  const moves: ShelfMove[] = [];
  let next: string | undefined = rest[insertAt];
  for (const volumeId of [...moving].reverse()) {
    current.splice(current.indexOf(volumeId), 1);
    const position = next === undefined ? current.length : current.indexOf(next);
    current.splice(position, 0, volumeId);
    moves.push({ volumeId, position });
    next = volumeId;
  }
  return moves;
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
