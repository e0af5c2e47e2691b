/**
 * `index.bin` on disk (stored-index-disk.ts): the kept documents come back as they were written, and a file
 * whose strings and ends do not agree, or of another version, is no store (the index is then written whole).
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { StoredIndex } from '../../generator/pipeline/outputs/search/search-store.ts';
import { indexFromDisk, indexOnDisk } from '../../generator/pipeline/outputs/search/stored-index-disk.ts';

const stored: StoredIndex = {
  scope: 'scope',
  ids: ['services:seo', 'intelligence:a', 'intelligence:é\n'],
  keys: ['k1\tTerm', '', 'k3\tCafé, Ünïcode'],
  inputs: '\nkey',
  numbers: Uint32Array.from([2, 0, 1]),
  lengths: Uint32Array.from([1, 2, 3, 4, 5, 6]),
  synonyms: 'null',
  digests: new Map([
    ['_api/search/terms/0.json', ['d1', 120]],
    ['_api/search/cards/0.json', ['d2', 4096]],
  ]),
  stamp: 'stamp',
};
const VERSION = 7;
const written = () => deserialize(serialize(indexOnDisk(stored, VERSION))) as ReturnType<typeof indexOnDisk>;

describe("the search store's index.bin on disk", () => {
  it('gives back the documents, keys and parts as written, empty and multi-line strings included', () => {
    expect(indexFromDisk(written(), VERSION)).toEqual(stored);
  });

  it('is no store when an end falls outside its text, the ends stop short, a column differs in length, or the version differs', () => {
    const outside = written();
    outside.keys.ends[1] = outside.keys.text.length + 5;
    const short = written();
    short.ids.ends = short.ids.ends.subarray(0, 2);
    const backwards = written();
    backwards.ids.ends[1] = 0;
    const sizes = written();
    sizes.digests.sizes = sizes.digests.sizes.subarray(1);
    for (const [what, value] of Object.entries({ outside, short, backwards, sizes }))
      expect(indexFromDisk(value, VERSION), what).toBeUndefined();
    expect(indexFromDisk(written(), VERSION + 1)).toBeUndefined();
    expect(indexFromDisk({ ...written(), ids: ['services:seo'] }, VERSION)).toBeUndefined();
  });
});
