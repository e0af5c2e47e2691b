/**
 * A postings record depends on its own term's postings, the number of documents and the grid point of the
 * averages only: an edit elsewhere that moves an average within its grid step leaves the record's bytes as
 * they were, and its bounds stay upper bounds of the scores the reader computes with the averages themselves.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import {
  type DictionaryBlock,
  dictionaryPath,
  postingsPath,
  SEARCH_META_PATH,
  type SearchDocument,
  type SearchMeta,
} from '../../generator/search/index-format.ts';
import { analyseField, writeSearchIndex } from '../../generator/search/index-writer.ts';
import { boundAverages } from '../../generator/search/record-builder.ts';
import { createSearch } from '../../generator/search/search.ts';
import { createRandom } from '../helpers/synthetic-content.ts';
import { loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';

describe('the averages bounds are scored with', () => {
  it('are the averages rounded up by less than a 32nd, to binary fractions that round to themselves', () => {
    const random = createRandom(5);
    for (let i = 0; i < 2000; i++) {
      const average = random() * 10 ** (random() * 6 - 2);
      const [grid] = boundAverages([average]);
      expect(grid).toBeGreaterThanOrEqual(average);
      expect(grid! - average).toBeLessThan(average / 32);
      expect(boundAverages([grid!])).toEqual([grid]);
      expect(Number.isInteger(grid! * 2 ** 40)).toBe(true);
    }
    expect(boundAverages([0, 1, 2, 3.01])).toEqual([0, 1, 2, 3.0625]);
  });
});

/** Each term's record bytes, by term. */
function records(files: { path: string; body: string | Uint8Array }[]): Map<string, string> {
  const byPath = new Map(files.map(({ path, body }) => [path, body]));
  const meta = JSON.parse(byPath.get(SEARCH_META_PATH) as string) as SearchMeta;
  const found = new Map<string, string>();
  meta.blocks.forEach((_, block) => {
    const { terms, locations } = JSON.parse(byPath.get(dictionaryPath(block)) as string) as DictionaryBlock;
    terms.forEach((term, i) => {
      const [shard, offset, length] = locations.slice(i * 3, i * 3 + 3) as [number, number, number];
      found.set(term, Buffer.from((byPath.get(postingsPath(shard)) as Uint8Array).subarray(offset, offset + length)).toString('hex'));
    });
  });
  return found;
}

const textOf = (files: { path: string; body: string | Uint8Array }[]) =>
  new Map(files.map(({ path, body }) => [path, typeof body === 'string' ? body : Buffer.from(body).toString('base64')]));

describe('a record after an edit elsewhere', () => {
  it('keeps its bytes while the averages stay in their grid step, and the search answers stay exact', async () => {
    const real = await loadSearchDocuments('content');
    const documents = [...real, ...syntheticSearchDocuments(real, 600, 3)];
    const before = writeSearchIndex(documents);
    const target = documents.findIndex((document) => document.body.split(' ').length > 200);
    // Two words more in one body: the body average moves by a 300th of a word.
    const edited: SearchDocument[] = documents.map((document, i) =>
      i === target ? { ...document, body: `${document.body} zyxwvutsrq qponmlkjih` } : document,
    );
    const after = writeSearchIndex(edited);
    const meta = (files: typeof before) => JSON.parse(textOf(files).get(SEARCH_META_PATH)!) as SearchMeta;
    expect(meta(after).averageFieldLength).not.toEqual(meta(before).averageFieldLength);
    expect(meta(after).boundAverages).toEqual(meta(before).boundAverages);
    // Every record but those of the edited document's terms has the same bytes.
    const own = new Set(analyseField(edited[target]!.body).terms.filter((_, i) => i % 2 === 0));
    const recordsBefore = records(before);
    const recordsAfter = records(after);
    let same = 0;
    for (const [term, bytes] of recordsBefore) {
      if (own.has(term)) continue;
      expect(recordsAfter.get(term), term).toEqual(bytes);
      same++;
    }
    expect(same).toBeGreaterThan(1000);
    const search = createSearch(createMemoryAssets(new Map(after.map(({ path, body }) => [path, body]))));
    for (const q of ['agentic commerce', 'retrieval evaluation', 'zyxwvutsrq', 'payment reconciliation automation']) {
      const skipping = await search.rank({ q, type: 'all', limit: 10, offset: 0 });
      const exhaustive = await search.rank({ q, type: 'all', limit: 10, offset: 0 }, { exhaustive: true });
      expect(skipping).toEqual(exhaustive);
    }
  }, 60_000);
});
