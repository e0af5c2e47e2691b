/** The scoring kernel: the compiled module matches its source, and it refuses malformed postings. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileKernel } from '../../generator/search/compile-kernel.ts';
import { encodeRecord, readRecordFields } from '../../generator/search/postings-codec.ts';
import { Accumulator } from '../../generator/search/scoring.ts';

describe('the scoring kernel', () => {
  it('is scoring.wat compiled as it is now (npm run build:kernel)', async () => {
    expect(readFileSync('generator/search/scoring-kernel.ts', 'utf8')).toBe(await compileKernel());
  });

  it('scores a segment, and refuses one that runs past its end or past the last document', () => {
    const record = encodeRecord([[0, 2, 5, 3, 1, 4]], [0]);
    const [field] = readRecordFields(record, 0, record.length, 1);
    const [start, end] = field!.segments[0]!;
    const accumulator = new Accumulator(4);
    accumulator.startQuery(4);
    accumulator.startWord();
    accumulator.addField({ bytes: record, segments: [[start, end, 0]], df: 2, averageLength: 4, weight: 1 });
    accumulator.endWord(0, 0);
    expect(accumulator.count).toBe(2);
    expect(accumulator.window(1, 0, 10).map(({ document }) => document)).toEqual([0, 3]);
    const cut = () => accumulator.addField({ bytes: record, segments: [[start, end - 1, 0]], df: 2, averageLength: 4, weight: 1 });
    expect(cut).toThrow('truncated or corrupt');
    const small = new Accumulator(3);
    small.startQuery(3);
    small.startWord();
    expect(() => small.addField({ bytes: record, segments: [[start, end, 0]], df: 2, averageLength: 4, weight: 1 })).toThrow('corrupt');
  });

  it('pages deep into many matches as it pages near the top', () => {
    const documents = Array.from({ length: 6000 }, (_, i) => i);
    const record = encodeRecord([documents.flatMap((document) => [document, 1 + (document % 7), 3 + (document % 11)])], [0]);
    const [field] = readRecordFields(record, 0, record.length, 1);
    const accumulator = new Accumulator(documents.length);
    accumulator.startQuery(documents.length);
    accumulator.startWord();
    accumulator.addField({ bytes: record, segments: [[...field!.segments[0]!, 0]], df: documents.length, averageLength: 8, weight: 1 });
    accumulator.endWord(0, 0);
    const all = accumulator.window(1, 0, 6000);
    expect(all).toHaveLength(6000);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.score > b.score || (a.score === b.score && a.document < b.document)).toBe(true);
    }
    // Near the top the kernel's heap picks the page; past 4,096 every match is sorted: both agree.
    expect(accumulator.window(1, 100, 20)).toEqual(all.slice(100, 120));
    expect(accumulator.window(1, 5000, 50)).toEqual(all.slice(5000, 5050));
  });
});
