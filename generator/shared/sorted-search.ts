/**
 * Binary search in ascending lists (terms in code-unit order, as compare-text.ts sorts them, or numbers): the
 * one loop the dictionary's readers, its in-place update and the semantic encoder's blocks all search with.
 * Runtime-neutral.
 */

/** How many of the ascending values `valueAt(0 .. length - 1)` sort before `value`, or, with `orEqual`, at or before it. */
function countBefore<T extends string | number>(length: number, valueAt: (index: number) => T, value: T, orEqual: boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const item = valueAt(mid);
    if (item < value || (orEqual && item === value)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index whose value is >= `value`; `values.length` when every value sorts before it. */
export const firstAtOrAfter = <T extends string | number>(values: readonly T[], value: T) =>
  countBefore(values.length, (index) => values[index]!, value, false);

/** The last index whose value is <= `value`; -1 when `value` sorts before them all. */
export const lastAtOrBefore = <T extends string | number>(values: readonly T[], value: T) =>
  countBefore(values.length, (index) => values[index]!, value, true) - 1;

/** As `firstAtOrAfter`, over items kept in ascending order of a number read from each (a record's rank in its list). */
export const firstAtOrAfterBy = <T>(items: readonly T[], numberOf: (item: T) => number, value: number) =>
  countBefore(items.length, (index) => numberOf(items[index]!), value, false);
