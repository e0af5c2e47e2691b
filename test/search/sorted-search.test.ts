/** The one binary search the dictionary, its update and the semantic encoder share, against a linear scan. */
import { describe, expect, it } from 'vitest';
import { firstAtOrAfter, firstAtOrAfterBy, lastAtOrBefore } from '../../generator/shared/sorted-search.ts';

const linearLast = <T>(values: readonly T[], value: T) => values.findLastIndex((item) => item <= value);
const linearFirst = <T>(values: readonly T[], value: T) => {
  const index = values.findIndex((item) => item >= value);
  return index < 0 ? values.length : index;
};

describe('sorted search', () => {
  it('finds the last value at or before, and the first at or after, as a scan does, in strings and numbers', () => {
    const words = ['', 'a', 'ab', 'ab', 'b', 'ba', 'z', 'é'];
    for (const probe of ['', 'a', 'aa', 'ab', 'abc', 'b', 'c', 'zz', 'é', 'ë', '0']) {
      for (let length = 0; length <= words.length; length++) {
        const list = words.slice(0, length);
        expect(lastAtOrBefore(list, probe), `${probe} in ${list}`).toBe(linearLast(list, probe));
        expect(firstAtOrAfter(list, probe), `${probe} in ${list}`).toBe(linearFirst(list, probe));
      }
    }
    const starts = [0, 3, 3, 7, 100];
    for (let probe = -1; probe <= 101; probe++) {
      expect(lastAtOrBefore(starts, probe)).toBe(linearLast(starts, probe));
      expect(firstAtOrAfter(starts, probe)).toBe(linearFirst(starts, probe));
    }
  });

  it('finds the first item at or after a number read from each item, as a scan of those numbers does', () => {
    const items = [0, 3, 3, 7, 100].map((rank) => ({ rank }));
    for (let probe = -1; probe <= 101; probe++) {
      const ranks = items.map((item) => item.rank);
      expect(firstAtOrAfterBy(items, (item) => item.rank, probe)).toBe(linearFirst(ranks, probe));
    }
  });
});
