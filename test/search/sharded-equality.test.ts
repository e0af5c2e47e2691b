/**
 * The sharded index ranks exactly as a plain in-memory MiniSearch over the same documents with the same
 * options: same matches, same order, scores equal to 1e-9 relative, over hundreds of random and hand-picked
 * queries on the real content plus a few thousand synthetic documents.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { MAX_QUERY_POSTINGS } from '../../generator/search/ranking.ts';
import { createSearch, type RankedResult, type RankingSearch, type SearchQuery } from '../../generator/search/search.ts';
import { createReferenceSearch } from '../helpers/reference-search.ts';
import { loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const SYNTHETIC = 3000;
const RANDOM_QUERIES = 520;

let documents: SearchDocument[];
let sharded: RankingSearch;
let reference: ReturnType<typeof createReferenceSearch>;

beforeAll(async () => {
  const real = await loadSearchDocuments('content');
  documents = [...real, ...syntheticSearchDocuments(real, SYNTHETIC)];
  sharded = createSearch(createMemoryAssets(new Map(writeSearchIndex(documents).map(({ path, body }) => [path, body]))));
  reference = createReferenceSearch(documents);
}, 120_000);

/** Words as people type them: from the documents' own text, mangled the ways the queries below need. */
function createQueries(): SearchQuery[] {
  const random = createRandom(99);
  const words = documents
    .flatMap((document) => `${document.title} ${document.summary}`.split(/\s+/))
    .filter((word) => /^[A-Za-z]{3,}$/.test(word));
  const bodyWords = documents
    .slice(0, 60)
    .flatMap((document) => document.body.split(/\s+/))
    .filter((word) => /^[A-Za-z]{3,}$/.test(word));
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const typo = (word: string) => {
    const at = 1 + Math.floor(random() * (word.length - 1));
    const edits = [
      () => word.slice(0, at) + word.slice(at + 1),
      () => `${word.slice(0, at)}x${word.slice(at + 1)}`,
      () => `${word.slice(0, at)}e${word.slice(at)}`,
      () => `q${word.slice(1)}`,
      () => word.slice(1),
    ];
    return edits[Math.floor(random() * edits.length)]!();
  };
  const shapes = [
    () => pick(words),
    () => pick(bodyWords),
    () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(words)).join(' '),
    () => `how do I ${pick(words)} the ${pick(bodyWords)} for my ${pick(words)}`,
    () => `${pick(words)} ${pick(words).slice(0, 3 + Math.floor(random() * 3))}`,
    () => typo(pick(words.filter((word) => word.length >= 6))),
    () => `${pick(words)} ${typo(pick(words.filter((word) => word.length >= 6)))}`,
  ];
  const types = ['all', 'all', 'services', 'expertise', 'intelligence'];
  const random_queries = Array.from(
    { length: RANDOM_QUERIES },
    (): SearchQuery => ({
      q: shapes[Math.floor(random() * shapes.length)]!(),
      type: pick(types),
      limit: 1 + Math.floor(random() * 50),
      offset: random() < 0.7 ? 0 : Math.floor(random() * 60),
    }),
  );
  const hand = [
    'agentic commerce',
    'shopify',
    'shopfy',
    'optimisation',
    'optimization checkout',
    'the of and',
    '???',
    'zzqxvy',
    'hipaa business associate agreement',
    'market',
    'mar',
    'commerce commerce commerce',
    'café naïve',
    'data privacy measurement attribution incrementality retention lifecycle pricing experiments',
  ].flatMap((q) => ['all', 'intelligence', 'services'].map((type): SearchQuery => ({ q, type, limit: 20, offset: 0 })));
  return [...hand, ...random_queries];
}

const describeAnswer = (items: RankedResult[]) => items.map(({ type, id, score }) => `${type}:${id} ${score}`);

describe('the sharded index against a plain MiniSearch', () => {
  it(`gives the same total, results, order and scores on ${RANDOM_QUERIES} random and 42 hand-picked queries`, async () => {
    const queries = createQueries();
    let compared = 0;
    let budgeted = 0;
    for (const query of queries) {
      const expected = reference(query);
      const actual = await sharded.rank(query);
      expect({ query, total: actual.total, items: describeAnswer(actual.items) }).toEqual({
        query,
        total: expected.total,
        items: describeAnswer(expected.items),
      });
      actual.items.forEach((item, index) => {
        const raw = expected.items[index]!.raw;
        expect(Math.abs(item.raw - raw) / raw, `${query.q}: ${item.id}`).toBeLessThanOrEqual(1e-9);
        compared++;
      });
      if (expected.total > 0 && query.q.split(' ').length > 3) budgeted++;
    }
    expect(queries.length).toBeGreaterThanOrEqual(500);
    // The queries reach deep: thousands of scored results, answered and empty, and long ones.
    expect(compared).toBeGreaterThan(5000);
    expect(budgeted).toBeGreaterThan(20);
    expect(MAX_QUERY_POSTINGS).toBeLessThan(documents.length * 2);
  }, 120_000);
});
