/** Binary search over sorted data, shared by the emulator's indexes and the extension's line lookups. */

/** The first index below `count` that `isBefore` rejects, for a predicate that holds up to some index and not after. */
export function firstIndex(count: number, isBefore: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first item of sorted `items` that `isBefore` rejects (where an item meeting it would go). */
export function lowerBound<T>(items: readonly T[], isBefore: (item: T) => boolean): number {
  return firstIndex(items.length, (index) => isBefore(items[index] as T));
}
