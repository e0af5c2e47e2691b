/**
 * What skipping needs (scoring.ts): each block's bound, the order blocks are scored in, and a tighter bound
 * checked just before a block is scored. Runtime-neutral.
 *
 * - The coarse bound of a block is the sum over words of what the word may add there: its tiers when some
 *   form has a posting in the block (the exact tier when its own term has one) and the saturated BM25 part
 *   of the best form's bound (the writer's per-block bound times the form's weight), plus a complete match's
 *   tier (a longer query's) when every word's own term has a posting there.
 * - Blocks are visited best coarse bound first, by buckets of bounds (a counting sort, no comparison sort),
 *   each bucket's blocks in document order; a bucket whose best bound cannot reach the page ends the walk.
 * - The tight bound of a block is the best over its documents of what the words found in that document
 *   (match-count.ts bitsets) may add: a block where no document holds every word is bounded by the most any
 *   one document holds, which is what lets a query of many words skip most blocks. The documents' own bounds,
 *   from the impacts, come last (document-bounds.ts).
 */
import type { WordBits } from './match-count.ts';
import type { PreparedForm } from './prepared-form.ts';
import { completeTier, RANKING, wordScore } from './ranking.ts';
import { scratchBytes, scratchFloats, scratchInts } from './scratch-space.ts';

const CORRUPT = 'postings: record is truncated or corrupt';
const BUCKETS = 4096;

/**
 * A word's tiers alone (ranking.ts wordScore of a BM25 part of 0). The passes over blocks and documents below
 * add the saturated part, `best / (best + RANKING.saturation)`, to them in place: the same arithmetic as
 * wordScore, without two calls per block and document, which a fresh isolate's unoptimized code pays dearly.
 */
export const tiers = (words: number, exact: boolean, complete: boolean) => wordScore(words, exact, 0, complete);

/** Per word and block, the best form's bound; per block the coarse bound. Valid until the next search (scratch space). */
export interface BlockBounds {
  /** `words * blocks`: word `u`'s best form's bound in `block` at `u * blocks + block` (0: no form there). */
  best: Float64Array;
  coarse: Float64Array;
  blocks: number;
}

/**
 * Each word's bound per block, and their sum, the coarse bound. Only the blocks a word's forms have are
 * visited (a first search runs this before the engine has optimized it, so passes over every block count).
 */
export function blockBounds(units: PreparedForm[][], blocks: number): BlockBounds {
  const coarse = scratchFloats('coarse', blocks);
  const all = scratchFloats('word-bounds', units.length * blocks);
  const exact = scratchBytes('exact-blocks', blocks);
  const touched = scratchInts('touched-blocks', blocks);
  // Per block, how many words have their own term there: a block where all have may hold a complete match.
  const exactWords = scratchInts('exact-words', blocks);
  const complete = completeTier(units.length);
  const saturation = RANKING.saturation;
  const found = tiers(units.length, false, false);
  const exactFound = tiers(units.length, true, false);
  for (let u = 0; u < units.length; u++) {
    const base = u * blocks;
    let count = 0;
    for (const prepared of units[u]!) {
      const { blocks: list, bounds } = prepared;
      const isExact = prepared.form.kind === 'exact';
      for (let i = 0; i < list.length; i++) {
        const block = list[i]!;
        const bound = bounds[i]!;
        if (!(block >= 0 && block < blocks)) throw new Error(CORRUPT);
        // A form limited to some fields may have a block with no posting in them: bound 0, nothing found.
        if (bound === 0) continue;
        if (all[base + block] === 0) {
          touched[count++] = block;
          exact[block] = 0;
        }
        if (bound > all[base + block]!) all[base + block] = bound;
        if (isExact) exact[block] = 1;
      }
    }
    for (let i = 0; i < count; i++) {
      const block = touched[i]!;
      const bound = all[base + block]!;
      coarse[block]! += (exact[block] === 1 ? exactFound : found) + bound / (bound + saturation);
      if (exact[block] === 1 && ++exactWords[block]! === units.length) coarse[block]! += complete;
    }
  }
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
  const starts = scratchInts('bucket-starts', BUCKETS + 1);
  const bucketOf = scratchInts('block-buckets', Math.max(0, endBlock - firstBlock)).fill(-1);
  for (let block = firstBlock; block < endBlock; block++) {
    const bound = coarse[block]!;
    if (bound === 0) continue;
    const bucket = BUCKETS - 1 - Math.floor((bound - low) * scale);
    bucketOf[block - firstBlock] = bucket;
    starts[bucket + 1]!++;
  }
  for (let b = 0; b < BUCKETS; b++) starts[b + 1]! += starts[b]!;
  const order = scratchInts('block-order', starts[BUCKETS]!);
  const next = scratchInts('bucket-next', BUCKETS);
  next.set(starts.subarray(0, BUCKETS));
  const bucketBest = scratchFloats('bucket-best', BUCKETS);
  for (let block = firstBlock; block < endBlock; block++) {
    const bucket = bucketOf[block - firstBlock]!;
    if (bucket < 0) continue;
    order[next[bucket]!++] = block;
    if (coarse[block]! > bucketBest[bucket]!) bucketBest[bucket] = coarse[block]!;
  }
  return { order, starts, bucketBest };
}

/**
 * A quick bound of `block` for a query of several words: the most words any one document of the block is
 * found with (counted for all 16 documents at once, a bit-sliced sum of the words' 16-bit sets) times the
 * most one word may add there. Cheaper than tightBound, which it never undercuts.
 */
export function quickBound(bits: WordBits, bounds: BlockBounds, block: number): number {
  const { found } = bits;
  const size = RANKING.blockSize;
  // Four bit planes count to 15; blocks of 16 documents are two bytes of each set.
  if (size !== 16 || found.length > 15) return Number.POSITIVE_INFINITY;
  const at = block * 2;
  const exactFound = tiers(found.length, true, false);
  let one = 0;
  let two = 0;
  let four = 0;
  let eight = 0;
  let most = 0;
  for (let u = 0; u < found.length; u++) {
    const set = found[u]![at]! | (found[u]![at + 1]! << 8);
    if (set === 0) continue;
    const carry1 = one & set;
    one ^= set;
    const carry2 = two & carry1;
    two ^= carry1;
    const carry4 = four & carry2;
    four ^= carry2;
    eight |= carry4;
    const bound = bounds.best[u * bounds.blocks + block]!;
    const best = exactFound + bound / (bound + RANKING.saturation);
    if (best > most) most = best;
  }
  // The largest count, plane by plane from the highest: keep the documents that have each bit, if any do.
  let count = 0;
  let slots = 0xffff;
  if (slots & eight) {
    slots &= eight;
    count |= 8;
  }
  if (slots & four) {
    slots &= four;
    count |= 4;
  }
  if (slots & two) {
    slots &= two;
    count |= 2;
  }
  if (slots & one) count |= 1;
  // A document found with every word may be a complete match.
  return count * most + (count === found.length ? completeTier(found.length) : 0);
}

/** Per word, its saturated bound in the block tightBound is bounding (reused). */
let saturated = new Float64Array(16);

/**
 * The tight bound of `block`: the best over its documents of the sum, over the words found in that document,
 * of the word's tiers (exact when its own term is there) and its BM25 part's bound in the block. Each
 * document's own bound goes to `slots` (by slot in the block; 0 outside `range`), for scoreBlock to lower
 * word by word as it learns the real scores.
 */
export function tightBound(
  bits: WordBits,
  bounds: BlockBounds,
  block: number,
  range: readonly [number, number],
  slots: Float64Array,
): number {
  const size = RANKING.blockSize;
  const { found, exact } = bits;
  const words = found.length;
  // Each word's saturated bound is the same in every document of the block: taken once, then added to its tiers.
  if (saturated.length < words) saturated = new Float64Array(words);
  for (let u = 0; u < words; u++) {
    const bound = bounds.best[u * bounds.blocks + block]!;
    saturated[u] = bound / (bound + RANKING.saturation);
  }
  const found0 = tiers(words, false, false);
  const exact0 = tiers(words, true, false);
  const found1 = tiers(words, false, true);
  const exact1 = tiers(words, true, true);
  let best = 0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    const byte = document >> 3;
    const bit = 1 << (document & 7);
    let complete = true;
    for (let u = 0; u < words && complete; u++) complete = (found[u]![byte]! & exact[u]![byte]! & bit) !== 0;
    const foundTier = complete ? found1 : found0;
    const exactTier = complete ? exact1 : exact0;
    let sum = 0;
    for (let u = 0; u < words; u++) {
      if (!(found[u]![byte]! & bit)) continue;
      sum += ((exact[u]![byte]! & bit) !== 0 ? exactTier : foundTier) + saturated[u]!;
    }
    slots[slot] = document >= range[0] && document < range[1] ? sum : 0;
    if (slots[slot]! > best) best = slots[slot]!;
  }
  return best;
}
