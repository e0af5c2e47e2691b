/**
 * A common term's record spliced after random edits (a document entering or leaving the term, changing the
 * fields it holds it in or only its pairs; many documents in one block, the first and last blocks, a block
 * gained or emptied) is byte for byte the record built whole from the same postings.
 */
import { describe, expect, it, vi } from 'vitest';
import { RANKING, SEARCH_FIELDS } from '../../generator/search/ranking.ts';
import { boundAverages, RecordBuilder } from '../../generator/search/record-builder.ts';
import type { Pairs } from '../../generator/search/block-edits.ts';
import { spliceRecord } from '../../generator/search/record-splice.ts';
import { ByteWriter } from '../../generator/search/postings-codec.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const FIELDS = SEARCH_FIELDS.length;
const BLOCKS = 40;
const DOCUMENTS = BLOCKS * RANKING.blockSize - 5;
const GRID = boundAverages([6.3, 3.1, 2.2, 21.7, 412.9]);

/** A term's postings: by document, its pairs. */
type Postings = Map<number, Pairs>;

function encode(postings: Postings, documents = DOCUMENTS): Uint8Array {
  const builder = new RecordBuilder();
  for (const document of [...postings.keys()].sort((a, b) => a - b)) {
    for (const [fieldId, tf, length] of postings.get(document)!) builder.add(fieldId, document, tf, length);
  }
  return builder.encode({ documents, averageFieldLength: GRID });
}

describe('a spliced record', () => {
  it('is the record built whole from the same postings, after random edits of every kind', () => {
    const random = createRandom(7);
    const pick = (n: number) => Math.floor(random() * n);
    const pairsOf = (): Pairs => {
      const pairs: Pairs = [];
      // Titles mostly, bodies often, and now and then every field: scores from weak to the record's best.
      for (let field = 0; field < FIELDS; field++) {
        if (random() < [0.3, 0.2, 0.15, 0.25, 0.7][field]!)
          pairs.push([field, 1 + pick(field === 4 ? 30 : 3), 1 + pick(field === 4 ? 900 : 12)]);
      }
      return pairs.length > 0 ? pairs : [[4, 1 + pick(5), 1 + pick(900)]];
    };
    const kinds = { enter: 0, leave: 0, fields: 0, pairs: 0, gained: 0, emptied: 0, spliced: 0, whole: 0 };
    for (let round = 0; round < 300; round++) {
      // Sparse and dense terms (the bitset from an eighth of the documents on), some blocks empty.
      const density = [0.09, 0.2, 0.6][round % 3]!;
      const postings: Postings = new Map();
      for (let document = 0; document < DOCUMENTS; document++) {
        if (random() < density && !(round % 5 === 0 && Math.floor(document / RANKING.blockSize) % 4 === 1))
          postings.set(document, pairsOf());
      }
      const before = encode(postings);
      const old = new Set(postings.keys());
      const edits = new Map<number, Pairs>();
      // Documents anywhere, in one block, or in the first and last blocks; or a block emptied.
      const where = round % 5;
      const base = pick(BLOCKS) * RANKING.blockSize;
      for (let n = 1 + pick(where === 1 ? 12 : 4); n > 0; n--) {
        const document =
          where === 0
            ? pick(DOCUMENTS)
            : where === 1
              ? Math.min(DOCUMENTS - 1, base + pick(RANKING.blockSize))
              : where === 2
                ? pick(RANKING.blockSize)
                : DOCUMENTS - 1 - pick(RANKING.blockSize - 5);
        const was = postings.get(document);
        const roll = random();
        let now: Pairs;
        if (!was) now = roll < 0.7 ? pairsOf() : [];
        else if (roll < 0.3) now = [];
        else if (roll < 0.6) now = was.map(([fieldId]) => [fieldId, 1 + pick(4), 1 + pick(fieldId === 4 ? 900 : 14)]);
        else now = pairsOf();
        if (!was && now.length > 0) kinds.enter++;
        if (was && now.length === 0) kinds.leave++;
        if (was && now.length > 0) {
          const mask = (pairs: Pairs) => pairs.reduce((sum, [fieldId]) => sum | (1 << fieldId), 0);
          if (mask(was) === mask(now)) kinds.pairs++;
          else kinds.fields++;
        }
        edits.set(document, now);
        if (now.length > 0) postings.set(document, now);
        else postings.delete(document);
      }
      if (where === 4) {
        for (let document = base; document < Math.min(DOCUMENTS, base + RANKING.blockSize); document++) {
          if (postings.delete(document)) edits.set(document, []);
        }
      }
      const blockOf = (document: number) => Math.floor(document / RANKING.blockSize);
      const blocksWith = (set: Iterable<number>) => new Set([...set].map(blockOf));
      const after = encode(postings);
      const spliced = spliceRecord(before, edits, DOCUMENTS, GRID);
      if (!spliced) {
        kinds.whole++;
        continue;
      }
      kinds.spliced++;
      const [was, now] = [blocksWith(old), blocksWith(postings.keys())];
      kinds.gained += [...now].filter((block) => !was.has(block)).length;
      kinds.emptied += [...was].filter((block) => !now.has(block)).length;
      expect(Buffer.from(spliced.bytes).toString('hex'), `round ${round}`).toBe(Buffer.from(after).toString('hex'));
      const df = SEARCH_FIELDS.map((_, field) => [...postings.values()].filter((pairs) => pairs.some(([id]) => id === field)).length);
      expect(spliced.df).toEqual(df);
    }
    // Every kind of edit was met, and spliced; only a change of kind or of the bitset's presence is built whole.
    for (const kind of ['enter', 'leave', 'fields', 'pairs', 'gained', 'emptied'] as const) expect(kinds[kind], kind).toBeGreaterThan(5);
    expect(kinds.spliced).toBeGreaterThan(250);
  });

  it('is left to the builder when the term becomes rare or its bitset comes or goes', () => {
    const postings: Postings = new Map(Array.from({ length: BLOCKS }, (_, i) => [i * 7, [[4, 2, 100]] as Pairs]));
    const before = encode(postings);
    expect(spliceRecord(before, new Map([[0, []]]), DOCUMENTS, GRID)).toBeUndefined();
    const dense: Postings = new Map(Array.from({ length: Math.ceil(DOCUMENTS / 8) }, (_, i) => [i * 8, [[4, 2, 100]] as Pairs]));
    expect(spliceRecord(encode(dense), new Map([[0, []]]), DOCUMENTS, GRID)).toBeUndefined();
    expect(spliceRecord(encode(dense), new Map([[1, [[0, 1, 3]] as Pairs]]), DOCUMENTS, GRID)).toBeDefined();
  });

  it('copies the table entries of the blocks an edit left as they were, encoding only the others', () => {
    // A dense term over 400 blocks; one document's body made a little longer, its score staying below the best.
    const documents = 400 * RANKING.blockSize;
    const postings: Postings = new Map(
      Array.from({ length: documents }, (_, document) => [document, [[4, 1 + (document % 3), 300]] as Pairs]),
    );
    const before = encode(postings, documents);
    const edit: Pairs = [[4, 1, 306]];
    postings.set(3000, edit);
    const varint = vi.spyOn(ByteWriter.prototype, 'varint');
    const spliced = spliceRecord(before, new Map([[3000, edit]]), documents, GRID);
    const calls = varint.mock.calls.length;
    varint.mockRestore();
    expect(Buffer.from(spliced!.bytes).toString('hex')).toBe(Buffer.from(encode(postings, documents)).toString('hex'));
    // Four numbers an entry: encoding every entry's would take 1,600 and more.
    expect(calls).toBeLessThan(100);
  });
});
