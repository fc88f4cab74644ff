/** Array appends and splices without spreading into a call: a spread passes each item as an argument on the stack, which overflows past ~100,000 items. */

/** Appends every item of `items` to `target`, one push each (cheap, and safe at any length). */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** Inserts `items` into `target` before index `at`, moving the tail once (what `splice(at, 0, ...items)` does, without the spread). */
export function insertAll<T>(target: T[], at: number, items: readonly T[]): void {
  const count = items.length;
  if (count === 0) return;
  const oldLength = target.length;
  const start = Math.max(0, Math.min(at, oldLength));
  target.length = oldLength + count;
  target.copyWithin(start + count, start, oldLength);
  for (let index = 0; index < count; index++) target[start + index] = items[index];
}
