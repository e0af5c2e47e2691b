/**
 * Scoring with exact skipping: the page of results a query asks for, and the exact number of matches, read
 * from postings records (record-reader.ts) with the rules of ranking.ts. Runtime-neutral.
 *
 * Documents are cut into blocks of RANKING.blockSize consecutive numbers. For each block, each query word
 * has an upper bound on what it can add to a document there: ranking.ts `wordScore` of the best bound among
 * its forms (the writer stores each block's best score per term) and of whether its own term is there, when
 * some form of it (exact, prefix, typo, synonym) has a posting in the block. Blocks are scored whole, best bound first, into a
 * heap the size of the page; once a block's bound rounds below the heap's lowest score, no later block can
 * change the page, and scoring stops (MaxScore over aligned blocks). So every word always counts, and the
 * page is the one scoring every document would give (test/search/pruning.test.ts compares both).
 *
 * `total` is counted apart without scoring: one bit per document, set from each form's documents (a dense
 * term's bitset is OR-ed whole), then counted in the type's range.
 */
import { explainDocument, type WordExplanation } from './explain.ts';
import { blockBounds, blockOrder } from './block-bounds.ts';
import { prepareWalk } from './block-walk.ts';
import { wordBits } from './match-count.ts';
import { PreparedForm, type Unit } from './prepared-form.ts';
import type { ScoreContext } from './postings-codec.ts';
import { placeQuery } from './query-memory.ts';
import { wordsRuleFor } from './ranking.ts';

/** A ranked result: its document, its score rounded to 4 decimals as clients see it, and before rounding. */
export interface Ranked {
  document: number;
  score: number;
  raw: number;
  explanation?: WordExplanation[];
}

export interface RankOptions {
  /** Also explain each result's score (explain.ts). */
  explain?: boolean;
  /** `[first, end)`: the document numbers of the types searched. */
  range: readonly [number, number];
  offset: number;
  limit: number;
  /** Score every block (the reference the skipping is tested against). */
  exhaustive?: boolean;
}

/** The deepest page end kept in a heap; a deeper page sorts every match. */
const HEAP_LIMIT = 4096;

/** The page `[offset, offset + limit)` of `units`' matches in `range`, and how many there are. */
export function rank(units: Unit[], context: ScoreContext, options: RankOptions): { total: number; page: Ranked[] } {
  const prepared = units.map(({ forms }) => forms.map((form) => new PreparedForm(form, context)));
  const { range, offset, limit, exhaustive } = options;
  const every = exhaustive || offset + limit > HEAP_LIMIT;
  const memory = placeQuery(prepared, context.documents, every ? range[1] - range[0] : offset + limit);
  const bits = wordBits(prepared, range, memory);
  const total = bits.total;
  const end = Math.min(total, offset + limit);
  if (offset >= end) return { total, page: [] };
  const bounds = blockBounds(prepared, memory, range, every ? -1 : end);
  const order = blockOrder(bounds, range);
  // Every block's bound from the impacts is taken a chunk of the walk at a time once the walk proves long, for
  // a query of a few words: its cost grows with every form's postings, and a longer query's walk is cut short
  // by the quick bound (most words in one document), which its order is by (block-bounds.ts), instead.
  const walk = prepareWalk(prepared, bits, bounds, order, {
    range,
    capacity: every ? -1 : end,
    atOnce: !exhaustive && wordsRuleFor(units.length),
    averages: context.averageFieldLength,
    documents: context.documents,
  });
  const page = walk
    .run()
    .slice(offset, end)
    .map(({ units, document, raw }): Ranked => ({ document, score: units / 10_000, raw }));
  if (options.explain) {
    const words = units.map(({ word }, u) => ({ word, forms: prepared[u]! }));
    for (const result of page) result.explanation = explainDocument(words, result.document);
  }
  return { total, page };
}
