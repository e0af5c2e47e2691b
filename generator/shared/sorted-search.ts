/**
 * Binary search in ascending lists (terms in code-unit order, as compare-text.ts sorts them, numbers, or records
 * in a collection's order): the one loop the dictionary's readers, its in-place update, the semantic encoder's
 * blocks, the list windows and a steady build's kept loads and kept order all search with.
 * Runtime-neutral.
 */

/** How many of the first `length` items `isBefore` holds for, when it holds for a leading run of them and no other. */
function countBefore(length: number, isBefore: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isBefore(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index whose value is >= `value`; `values.length` when every value sorts before it. */
export const firstAtOrAfter = <T extends string | number>(values: readonly T[], value: T) =>
  countBefore(values.length, (index) => values[index]! < value);

/** The last index whose value is <= `value`; -1 when `value` sorts before them all. */
export const lastAtOrBefore = <T extends string | number>(values: readonly T[], value: T) =>
  countBefore(values.length, (index) => values[index]! <= value) - 1;

/** As `firstAtOrAfter`, over items kept in ascending order of a value read from each (a record's rank in its list, its file). */
export const firstAtOrAfterBy = <T, K extends string | number>(items: readonly T[], keyOf: (item: T) => K, value: K) =>
  countBefore(items.length, (index) => keyOf(items[index]!) < value);

/** The first index of `sorted` (ascending by `compare`) whose item does not sort before `item`: where `item` goes. */
export const insertionPoint = <T>(sorted: readonly T[], item: T, compare: (a: T, b: T) => number) =>
  countBefore(sorted.length, (index) => compare(sorted[index]!, item) < 0);
