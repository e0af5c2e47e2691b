/**
 * What skipping needs (scoring.ts): each block's bound, the order blocks are scored in, and a tighter bound
 * checked just before a block is scored. Runtime-neutral.
 *
 * - The coarse bound of a block is the sum over words of what the word may add there: its tiers when some
 *   form has a posting in the block (the exact tier when its own term has one) and the saturated BM25 part
 *   of the best form's bound (the writer's per-block bound times the form's weight).
 * - Blocks are visited best coarse bound first, by buckets of bounds (a counting sort, no comparison sort),
 *   each bucket's blocks in document order; a bucket whose best bound cannot reach the page ends the walk.
 * - The tight bound of a block is the best over its documents of what the words found in that document
 *   (match-count.ts bitsets) may add: a block where no document holds every word is bounded by the most any
 *   one document holds, which is what lets a query of many words skip most blocks.
 */
import type { WordBits } from './match-count.ts';
import type { PreparedForm } from './prepared-form.ts';
import { RANKING, wordScore } from './ranking.ts';

const CORRUPT = 'postings: record is truncated or corrupt';
const BUCKETS = 4096;

/** Per word and block, the best form's bound; per block the coarse bound. */
export interface BlockBounds {
  /** `words * blocks`: word `u`'s best form's bound in `block` at `u * blocks + block` (0: no form there). */
  best: Float64Array;
  coarse: Float64Array;
  blocks: number;
}

/** Each word's bound per block, and their sum, the coarse bound. */
export function blockBounds(units: PreparedForm[][], blocks: number): BlockBounds {
  const coarse = new Float64Array(blocks);
  const all = new Float64Array(units.length * blocks);
  const exact = new Uint8Array(blocks);
  units.forEach((forms, u) => {
    const best = all.subarray(u * blocks, (u + 1) * blocks);
    exact.fill(0);
    for (const prepared of forms) {
      const { blocks: list, bounds } = prepared;
      const isExact = prepared.form.kind === 'exact';
      for (let i = 0; i < list.length; i++) {
        const block = list[i]!;
        if (block >= blocks || block < 0) throw new Error(CORRUPT);
        if (bounds[i]! > best[block]!) best[block] = bounds[i]!;
        if (isExact) exact[block] = 1;
      }
    }
    for (let block = 0; block < blocks; block++) if (best[block]! > 0) coarse[block]! += wordScore(exact[block] === 1, best[block]!);
  });
  return { best: all, coarse, blocks };
}

/** The blocks in `[firstBlock, endBlock)` with a bound, best bound first by buckets; each bucket's best bound. */
export function blockOrder(coarse: Float64Array, firstBlock: number, endBlock: number) {
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (let block = firstBlock; block < endBlock; block++) {
    const bound = coarse[block]!;
    if (bound === 0) continue;
    if (bound < low) low = bound;
    if (bound > high) high = bound;
  }
  const scale = high > low ? (BUCKETS - 1) / (high - low) : 0;
  const starts = new Int32Array(BUCKETS + 1);
  const bucketOf = (bound: number) => BUCKETS - 1 - Math.floor((bound - low) * scale);
  for (let block = firstBlock; block < endBlock; block++) if (coarse[block]! > 0) starts[bucketOf(coarse[block]!) + 1]!++;
  for (let b = 0; b < BUCKETS; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(starts[BUCKETS]!);
  const next = starts.slice(0, BUCKETS);
  const bucketBest = new Float64Array(BUCKETS);
  for (let block = firstBlock; block < endBlock; block++) {
    const bound = coarse[block]!;
    if (bound === 0) continue;
    const bucket = bucketOf(bound);
    order[next[bucket]!++] = block;
    if (bound > bucketBest[bucket]!) bucketBest[bucket] = bound;
  }
  return { order, starts, bucketBest };
}

/**
 * The tight bound of `block`: the best over its documents of the sum, over the words found in that document,
 * of the word's tiers (exact when its own term is there) and its BM25 part's bound in the block.
 */
export function tightBound(bits: WordBits, bounds: BlockBounds, block: number): number {
  const size = RANKING.blockSize;
  const { found, exact } = bits;
  let best = 0;
  for (let document = block * size; document < (block + 1) * size; document++) {
    const byte = document >> 3;
    const bit = 1 << (document & 7);
    let sum = 0;
    for (let u = 0; u < found.length; u++) {
      if (!(found[u]![byte]! & bit)) continue;
      sum += wordScore((exact[u]![byte]! & bit) !== 0, bounds.best[u * bounds.blocks + block]!);
    }
    if (sum > best) best = sum;
  }
  return best;
}
