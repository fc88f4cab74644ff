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
  return firstIndex(items.length, (index) => isBefore(items[index]));
}

/**
 * `sorted` and `added` (each in `compare` order) merged into one new array. The prefix of `sorted` before `added`'s
 * first item is copied without comparing, so adding a page that sorts after everything costs log N comparisons.
 */
export function mergeSorted<T>(sorted: readonly T[], added: readonly T[], compare: (a: T, b: T) => number): T[] {
  const first = added[0];
  if (first === undefined) return [...sorted];
  const split = lowerBound(sorted, (item) => compare(item, first) <= 0);
  const merged = sorted.slice(0, split);
  let left = split;
  let right = 0;
  while (left < sorted.length && right < added.length) {
    const fromSorted = sorted[left];
    const fromAdded = added[right];
    if (compare(fromSorted, fromAdded) <= 0) {
      merged.push(fromSorted);
      left++;
    } else {
      merged.push(fromAdded);
      right++;
    }
  }
  for (; left < sorted.length; left++) merged.push(sorted[left]);
  for (; right < added.length; right++) merged.push(added[right]);
  return merged;
}
