/**
 * What skipping needs (scoring.ts): each block's bound, the order blocks are scored in, and a tighter bound
 * checked just before a block is scored. Runtime-neutral.
 *
 * - The coarse bound of a block is the sum over words of what the word may add there: its tiers when some
 *   form has a posting in the block (the exact tier when its own term has one) and the saturated BM25 part
 *   of the best form's bound (the writer's per-block bound times the form's weight), plus a complete match's
 *   tier (a longer query's) when every word's own term has a posting there.
 * - The quick bound of a block where no document is found with every word of a query of several words
 *   (match-count.ts bitsets, 16 documents at once) is one word fewer than the query's times the most one
 *   word may add there.
 * - Blocks are visited best bound first (the coarse or the quick one, whichever is lower), by buckets of
 *   bounds (a counting sort, no comparison sort), each bucket's blocks in document order; a bucket whose
 *   best bound cannot reach the page ends the walk. So the blocks where one document holds every word of a
 *   long question come first, and fill the page before the many where the words are spread over documents.
 * - The tight bound of a block is the best over its documents of what the words found in that document
 *   (match-count.ts bitsets) may add: a block where no document holds every word is bounded by the most any
 *   one document holds, which is what lets a query of many words skip most blocks. The documents' own bounds,
 *   from the impacts, come last (wasm/block-walk.as.ts).
 */
import type { PreparedForm } from './prepared-form.ts';
import { completeTier, RANKING, wordScore, wordsRuleFor } from './ranking.ts';
import { blockPasses } from './block-passes.ts';
import { BUCKETS, type QueryMemory } from './query-memory.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/**
 * A word's tiers alone (ranking.ts wordScore of a BM25 part of 0). The passes over blocks and documents below
 * add the saturated part, `best / (best + RANKING.saturation)`, to them in place: the same arithmetic as
 * wordScore, without two calls per block and document, which a fresh isolate's unoptimized code pays dearly.
 */
export const tiers = (words: number, exact: boolean, complete: boolean) => wordScore(words, exact, 0, complete);

/**
 * Per word and block, the best form's bound; per block the coarse bound. Views of the WebAssembly side's
 * memory (block-passes.ts), valid until the next search.
 */
export interface BlockBounds {
  /** `words * blocks`: word `u`'s best form's bound in `block` at `u * blocks + block` (0: no form there). */
  best: Float64Array;
  coarse: Float64Array;
  blocks: number;
  words: number;
  /** Where blockOrder's columns are in that memory (reserved with these). */
  layout: QueryMemory;
  /** The query's tiers (wordTiers), taken once rather than per block and document. */
  tiers: WordTiers;
}

/** A word's tiers in a query of `words` words: found, found exactly, each in a complete match; a complete match's own. */
export function wordTiers(words: number) {
  return {
    found: tiers(words, false, false),
    exact: tiers(words, true, false),
    foundComplete: tiers(words, false, true),
    exactComplete: tiers(words, true, true),
    complete: completeTier(words),
  };
}

export type WordTiers = ReturnType<typeof wordTiers>;

/**
 * Each word's bound per block, and their sum, the coarse bound (wasm/block-order.as.ts formBounds, wordBounds),
 * for the documents of `range` (`[first, end)`) and a page ending at `pageEnd` (-1: every match kept). Only the
 * blocks a word's forms have are visited. When a query of more than RANKING.wordsRule.upTo words has at least
 * `pageEnd` complete matches (every word's own term in one document: the AND of the words' exact sets), the
 * page is complete matches only (a complete match's tier outweighs every other document's score), so only the
 * blocks that hold one are bounded: the others have no bound, and the walk never visits them. Memory for
 * blockOrder is reserved here too, so that the views returned stay valid.
 */
export function blockBounds(units: PreparedForm[][], at: QueryMemory, range: readonly [number, number], pageEnd: number): BlockBounds {
  const words = units.length;
  const { blocks, buffer: memory } = at;
  const passes = blockPasses();
  const tier = wordTiers(words);
  const completeOnly =
    pageEnd >= 0 &&
    !wordsRuleFor(words) &&
    passes.completeBlocks(at.exactSets, words, at.setBytes, blocks, range[0], range[1], at.completeBlocks) >= pageEnd;
  const only = completeOnly ? at.completeBlocks : 0;
  for (let u = 0; u < words; u++) {
    const base = at.all + u * blocks * 8;
    let count = 0;
    for (const prepared of units[u]!) {
      const n = prepared.count;
      const { kept, whole } = prepared;
      // A common term's blocks and bounds are kept beside its record (query-memory.ts); a rare term's are copied.
      const formBlocks = kept ? kept.columns : at.formBlocks;
      const formBounds = kept ? kept.bounds : at.formBounds;
      if (!kept) {
        new Float64Array(memory, at.formBounds, n).set(whole!.bounds);
        new Int32Array(memory, at.formBlocks, n).set(whole!.blocks);
      }
      const isExact = prepared.form.kind === 'exact' ? 1 : 0;
      const weight = prepared.boundWeight;
      // A form limited to some fields may have a block with no posting in them: bound 0, nothing found.
      // Until a form has touched a block, the word's bounds are all 0: the form's blocks are simply set.
      count =
        count === 0
          ? passes.firstFormBounds(formBlocks, formBounds, weight, n, blocks, base, at.exact, at.touched, isExact, only)
          : passes.formBounds(formBlocks, formBounds, weight, n, blocks, base, at.exact, at.touched, count, isExact, only);
      if (count < 0) throw new Error(CORRUPT);
    }
    passes.wordBounds(
      at.touched,
      count,
      base,
      at.exact,
      at.coarse,
      at.exactWords,
      tier.found,
      tier.exact,
      RANKING.saturation,
      words,
      tier.complete,
    );
  }
  return {
    best: new Float64Array(memory, at.all, words * blocks),
    coarse: new Float64Array(memory, at.coarse, blocks),
    blocks,
    words,
    layout: at,
    tiers: tier,
  };
}

/**
 * The blocks of `range` (documents `[first, end)`) with a bound, best bound first by buckets (the coarse
 * bound, or the quick one where lower: wasm/block-order.as.ts orderBounds, blockOrder); each bucket's best
 * bound, and each block's bound the order is by.
 */
export function blockOrder({ layout: at, blocks, words, tiers }: BlockBounds, range: readonly [number, number]) {
  const passes = blockPasses();
  const memory = passes.memory.buffer;
  const { orderBound } = at;
  const size = RANKING.blockSize;
  const [firstBlock, endBlock] = [Math.floor(range[0] / size), Math.ceil(range[1] / size)];
  const sets = [at.found, at.setBytes, at.all, blocks, words] as const;
  passes.orderBounds(at.coarse, firstBlock, endBlock, orderBound, ...sets, tiers.exact, RANKING.saturation);
  const count = passes.blockOrder(orderBound, firstBlock, endBlock, at.starts, at.bucketBest, at.order, at.bucketOf, at.next);
  return {
    bounds: new Float64Array(memory, orderBound, blocks),
    order: new Int32Array(memory, at.order, count),
    starts: new Int32Array(memory, at.starts, BUCKETS + 1),
    bucketBest: new Float64Array(memory, at.bucketBest, BUCKETS),
  };
}
