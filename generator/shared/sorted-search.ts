/**
 * Binary search in ascending lists (terms in code-unit order, as compare-text.ts sorts them, or numbers): the
 * one loop the dictionary's readers, its in-place update and the semantic encoder's blocks all search with.
 * Runtime-neutral.
 */

/** How many of ascending `values` sort before `value`, or, with `orEqual`, at or before it. */
function countBefore<T extends string | number>(values: readonly T[], value: T, orEqual: boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const item = values[mid]!;
    if (item < value || (orEqual && item === value)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index whose value is >= `value`; `values.length` when every value sorts before it. */
export const firstAtOrAfter = <T extends string | number>(values: readonly T[], value: T) => countBefore(values, value, false);

/** The last index whose value is <= `value`; -1 when `value` sorts before them all. */
export const lastAtOrBefore = <T extends string | number>(values: readonly T[], value: T) => countBefore(values, value, true) - 1;
