/**
 * Skipping is exact: the search over the index's parts, which scores only the blocks that can reach the
 * page asked for, gives the same total, results, order and scores as scoring every block, and as a brute
 * force over the documents themselves (test/helpers/reference-search.ts), on hundreds of random and
 * hand-picked queries over the real content plus a few thousand synthetic documents. The part of the
 * ranking that is still MiniSearch's (BM25+ with the field boosts) is compared with a plain MiniSearch.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { blockBounds, blockOrder } from '../../generator/search/block-bounds.ts';
import { prepareWalk } from '../../generator/search/block-walk.ts';
import { KEPT_LIMIT, keptSpace, letKeptGo, placeQuery } from '../../generator/search/query-memory.ts';
import type { SearchDocument, SearchMeta } from '../../generator/search/index-format.ts';
import { createIndexParts, type IndexParts } from '../../generator/search/index-reader.ts';
import { wordBits } from '../../generator/search/match-count.ts';
import { PreparedForm } from '../../generator/search/prepared-form.ts';
import { planQuery } from '../../generator/search/query-plan.ts';
import { rank } from '../../generator/search/scoring.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { RANKING, wordsRuleFor } from '../../generator/search/ranking.ts';
import { createSearch, type RankedResult, type RankingSearch, type SearchQuery } from '../../generator/search/search.ts';
import { createMiniSearch, createReferenceSearch } from '../helpers/reference-search.ts';
import { loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const SYNTHETIC = 3000;
const RANDOM_QUERIES = 400;

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
  const randomQueries = Array.from(
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
  return [...hand, ...randomQueries];
}

const describeAnswer = (items: RankedResult[]) => items.map(({ type, id, score, raw }) => `${type}:${id} ${score} ${raw}`);

/** The index's answer to `query` is the brute force's over the documents themselves: total, records, order and scores. */
async function expectBruteForceAnswer(query: Parameters<RankingSearch['rank']>[0]): Promise<void> {
  const expected = reference(query);
  const actual = await sharded.rank(query);
  expect({ query, total: actual.total, items: describeAnswer(actual.items) }).toEqual({
    query,
    total: expected.total,
    items: describeAnswer(expected.items),
  });
}

describe('skipping blocks against scoring every document', () => {
  it(`gives the same total, results, order and scores on ${RANDOM_QUERIES} random and 42 hand-picked queries`, async () => {
    const queries = createQueries();
    let compared = 0;
    let multiword = 0;
    for (const query of queries) {
      const pruned = await sharded.rank(query);
      const exhaustive = await sharded.rank(query, { exhaustive: true });
      expect({ query, total: pruned.total, items: describeAnswer(pruned.items) }).toEqual({
        query,
        total: exhaustive.total,
        items: describeAnswer(exhaustive.items),
      });
      compared += pruned.items.length;
      if (pruned.total > 0 && query.q.split(' ').length > 3) multiword++;
    }
    expect(queries.length).toBeGreaterThanOrEqual(400);
    // The queries reach deep: thousands of scored results, answered and empty, and long ones.
    expect(compared).toBeGreaterThan(4000);
    expect(multiword).toBeGreaterThan(20);
  }, 120_000);

  it('gives the brute force answers when the common terms kept in the module memory are let go between queries', async () => {
    // A limit a few records fill: the kept space starts again every few queries, and the scratch after it moves.
    letKeptGo();
    keptSpace.limit = 64 * 1024;
    try {
      for (const query of createQueries().filter((_, i) => i % 6 === 1)) await expectBruteForceAnswer(query);
    } finally {
      keptSpace.limit = KEPT_LIMIT;
    }
  }, 120_000);

  it('agrees with a brute force over the documents themselves', async () => {
    for (const query of createQueries().filter((_, i) => i % 4 === 0)) await expectBruteForceAnswer(query);
  }, 120_000);

  it("scores a word's own term with MiniSearch's BM25+ and field boosts", async () => {
    const mini = createMiniSearch(documents);
    let compared = 0;
    // Words too short for typos, followed by a word found nowhere, so that no prefix applies: only own terms.
    for (const word of ['data', 'cart', 'shop', 'feed', 'risk', 'team']) {
      const expected = new Map(mini.search(word).map((result) => [result.id, result.score]));
      const actual = await sharded.rank({ q: `${word} qqzzqq`, type: 'all', limit: 100, offset: 0 });
      expect(actual.total).toBe(expected.size);
      for (const item of actual.items) {
        // One word, so the words rule applies: raw = word + exact tiers + s / (s + saturation), s being the BM25 part.
        const part = item.raw - RANKING.wordsRule.word - RANKING.wordsRule.exact;
        const s = (RANKING.saturation * part) / (1 - part);
        const score = expected.get(`${item.type}:${item.id}`)!;
        expect(Math.abs(s - score) / score).toBeLessThan(1e-6);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  }, 120_000);
});

describe('block bounds', () => {
  let parts: IndexParts;
  let meta: SearchMeta;

  beforeAll(async () => {
    parts = createIndexParts(createMemoryAssets(new Map(writeSearchIndex(documents).map(({ path, body }) => [path, body]))));
    meta = await parts.meta();
  }, 120_000);

  /** Every document's score (exhaustive), each block's coarse and tight bounds, and each word's sets. */
  async function boundsOf(q: string, pageEnd = -1) {
    const units = await planQuery(parts, meta, q);
    const range: [number, number] = [0, meta.documents];
    const { page } = rank(units, meta, { range, offset: 0, limit: meta.documents, exhaustive: true });
    const prepared = units.map(({ forms }) => forms.map((form) => new PreparedForm(form, meta)));
    const memory = placeQuery(prepared, meta.documents, 20);
    const bits = wordBits(prepared, range, memory);
    const bounds = blockBounds(prepared, memory, range, pageEnd);
    const order = blockOrder(bounds, range);
    // The bounds the walk over blocks uses, as the WebAssembly module computes them (no page yet: none drops a block).
    const walk = prepareWalk(prepared, bits, bounds, order, {
      range,
      capacity: 20,
      atOnce: true,
      averages: meta.averageFieldLength,
      documents: meta.documents,
    });
    // Each document's bound from the impacts, every word lowered: [the block's best, then per slot].
    const perDocument = (block: number) => {
      const slots = walk.documentBounds(block);
      return [Math.max(...slots), ...slots];
    };
    return {
      page,
      bits,
      bounds,
      perDocument,
      // Every block's bound from the impacts, taken at once (what a long walk uses), before any page.
      atOnce: () => walk.impactBounds(),
      // The same against the first page of 20 the walk found.
      atOnceAfterPage: () => {
        walk.run();
        return walk.impactBounds(true);
      },
      tight: (block: number) => walk.tightBound(block).best,
      // The bound the walk's order is by: the coarse one, or the quick one where lower.
      ordered: order.bounds,
    };
  }

  it("bound each document from its impacts never below its score, and far below the block's bound", async () => {
    let dropped = 0;
    for (const q of [
      'agentic commerce checkout',
      'data privacy measurement attribution',
      'shopify market retention pricing',
      'optimisation mar',
      'commerce',
    ]) {
      const { page, bounds, perDocument, tight } = await boundsOf(q);
      const last = page[Math.min(20, page.length) - 1]!.raw;
      for (const { document, raw } of page) {
        const [best, ...slots] = perDocument(Math.floor(document / RANKING.blockSize));
        expect(raw).toBeLessThanOrEqual(slots[document % RANKING.blockSize]! * (1 + 1e-12));
        expect(best).toBeLessThanOrEqual(tight(Math.floor(document / RANKING.blockSize)) * (1 + 1e-12));
      }
      // Blocks the block bounds keep for a first page of 20 and the documents' own bounds drop.
      for (let block = 0; block < bounds.blocks; block++) if (tight(block) >= last && perDocument(block)[0]! < last) dropped++;
    }
    expect(dropped).toBeGreaterThan(100);
  }, 120_000);

  it("taken for every block at once, are each block's documents' bounds from the impacts", async () => {
    let compared = 0;
    for (const q of ['agentic commerce checkout', 'data privacy measurement attribution', 'optimisation mar', 'commerce', 'paymnets']) {
      const { page, bounds, perDocument, atOnce } = await boundsOf(q);
      const all = atOnce();
      for (let block = 0; block < bounds.blocks; block++) {
        const one = perDocument(block)[0]!;
        expect(Math.abs(all[block]! - one)).toBeLessThanOrEqual(one * 1e-12);
        if (one > 0) compared++;
      }
      for (const { document, raw } of page) expect(raw).toBeLessThanOrEqual(all[Math.floor(document / RANKING.blockSize)]! * (1 + 1e-12));
    }
    expect(compared).toBeGreaterThan(500);
  }, 120_000);

  it('taken at once against a page, bound only the documents that can still reach it, and keep every block of the page', async () => {
    let lowered = 0;
    for (const q of ['agentic commerce checkout', 'data privacy measurement attribution', 'optimisation mar', 'commerce']) {
      const all = (await boundsOf(q)).atOnce();
      const { page, bounds, atOnceAfterPage } = await boundsOf(q);
      const after = atOnceAfterPage();
      const last = page[19]!.raw;
      for (let block = 0; block < bounds.blocks; block++) {
        expect(after[block]!).toBeLessThanOrEqual(all[block]! * (1 + 1e-12));
        // A block that can still reach the page keeps the bound it had before any page.
        if (after[block]! >= last) expect(Math.abs(after[block]! - all[block]!)).toBeLessThanOrEqual(all[block]! * 1e-12);
        if (after[block]! < all[block]!) lowered++;
      }
      for (const { document, raw } of page.slice(0, 20))
        expect(raw).toBeLessThanOrEqual(after[Math.floor(document / RANKING.blockSize)]! * (1 + 1e-12));
    }
    expect(lowered).toBeGreaterThan(100);
  }, 120_000);

  it('are never below a document of the block, and the tight one is below the coarse one where no document holds every word', async () => {
    let tighter = 0;
    let quicker = 0;
    for (const q of [
      'agentic commerce checkout',
      'data privacy measurement attribution',
      'shopify market retention pricing',
      'optimisation mar',
    ]) {
      const { page, bits, bounds, tight, ordered } = await boundsOf(q);
      // Tighter by a tier under the words rule; by a quarter of a word's saturated part in a longer question.
      const margin = wordsRuleFor(bits.found.length) ? RANKING.wordsRule.exact : 0.25;
      for (const { document, raw } of page) {
        const block = Math.floor(document / RANKING.blockSize);
        expect(raw).toBeLessThanOrEqual(tight(block) * (1 + 1e-12));
        expect(tight(block)).toBeLessThanOrEqual(bounds.coarse[block]! * (1 + 1e-12));
      }
      for (let block = 0; block < bounds.blocks; block++) {
        if (tight(block) < bounds.coarse[block]! - margin) tighter++;
        // The walk's order is by the coarse bound or the quick one (most words in one document times the most
        // one word adds), never below the tight one.
        expect(ordered[block]).toBeGreaterThanOrEqual(tight(block) * (1 - 1e-12));
        expect(ordered[block]).toBeLessThanOrEqual(bounds.coarse[block]!);
        if (ordered[block]! < bounds.coarse[block]! - margin) quicker++;
      }
      // A block with nothing found has no bound at all.
      const scored = new Set(page.map(({ document }) => Math.floor(document / RANKING.blockSize)));
      for (let block = 0; block < bounds.blocks; block++) if (!scored.has(block)) expect(tight(block)).toBe(0);
    }
    // Words spread over different documents of a block: the tight bound drops a tier, or a good part of a word,
    // and so does the bound the walk's order is by.
    expect(tighter).toBeGreaterThan(100);
    expect(quicker).toBeGreaterThan(100);
  }, 120_000);

  it('bound and order only the blocks with a complete match when a long query has enough of them to fill the page', async () => {
    // Four common words: 166 documents hold each one's own term (a complete match, 400 and more).
    const q = 'agent commerce checkout pricing';
    const { page, bounds, ordered } = await boundsOf(q);
    // A copy: the next search's bounds take the same memory.
    const every = Array.from(ordered);
    const complete = page.filter(({ raw }) => raw >= 400);
    expect(complete.length).toBe(166);
    const holding = new Set(complete.map(({ document }) => Math.floor(document / RANKING.blockSize)));
    const orderedFor = async (pageEnd: number) => Array.from((await boundsOf(q, pageEnd)).ordered);
    const onlyComplete = await boundsOf(q, 166);
    for (let block = 0; block < bounds.blocks; block++) {
      expect(onlyComplete.ordered[block]! > 0).toBe(holding.has(block));
      expect(onlyComplete.bounds.coarse[block]! > 0).toBe(holding.has(block));
    }
    expect(every.filter((bound) => bound > 0).length).toBeGreaterThan(holding.size + 50);
    // One more than the complete matches: every block as before.
    expect(await orderedFor(167)).toEqual(every);
    // Pages that end among the complete matches and past them give what scoring every block gives.
    for (const offset of [0, 140, 147, 160]) {
      const query = { q, type: 'all', limit: 20, offset };
      const pruned = await sharded.rank(query);
      const exhaustive = await sharded.rank(query, { exhaustive: true });
      expect(describeAnswer(pruned.items)).toEqual(describeAnswer(exhaustive.items));
    }
  }, 120_000);

  it('count every match from the words sets, as scoring every document does', async () => {
    for (const q of ['commerce', 'shopfy checkout', 'mar', 'hipaa business associate agreement']) {
      const { page, bits } = await boundsOf(q);
      expect(bits.total).toBe(page.length);
      for (const { document } of page) expect(bits.found.some((set) => (set[document >> 3]! >> (document & 7)) & 1)).toBe(true);
    }
  }, 120_000);
});
