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
  /** Where blockOrder's columns are in that memory (reserved with these). */
  layout: QueryMemory;
  /** The query's tiers (wordTiers), taken once rather than per block and document. */
  tiers: WordTiers;
  /** One word's impact bounds in a block (document-bounds.ts), where the WebAssembly side writes them. */
  impacts: Float64Array;
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
 * Each word's bound per block, and their sum, the coarse bound (block-passes.as.ts formBounds, wordBounds).
 * Only the blocks a word's forms have are visited. Memory for blockOrder is reserved here too, so that the
 * views returned stay valid.
 */
export function blockBounds(units: PreparedForm[][], at: QueryMemory): BlockBounds {
  const words = units.length;
  const { blocks, buffer: memory } = at;
  const passes = blockPasses();
  const tier = wordTiers(words);
  for (let u = 0; u < words; u++) {
    const base = at.all + u * blocks * 8;
    let count = 0;
    for (const prepared of units[u]!) {
      const n = prepared.blocks.length;
      new Float64Array(memory, at.formBounds, n).set(prepared.bounds);
      new Int32Array(memory, at.formBlocks, n).set(prepared.blocks);
      const isExact = prepared.form.kind === 'exact' ? 1 : 0;
      // A form limited to some fields may have a block with no posting in them: bound 0, nothing found.
      count = passes.formBounds(at.formBlocks, at.formBounds, n, blocks, base, at.exact, at.touched, count, isExact);
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
    layout: at,
    tiers: tier,
    impacts: new Float64Array(memory, at.impacts, RANKING.blockSize),
  };
}

/** The blocks in `[firstBlock, endBlock)` with a bound, best bound first by buckets; each bucket's best bound. */
export function blockOrder({ layout: at }: BlockBounds, firstBlock: number, endBlock: number) {
  const memory = blockPasses().memory.buffer;
  const count = blockPasses().blockOrder(at.coarse, firstBlock, endBlock, at.starts, at.bucketBest, at.order, at.bucketOf, at.next);
  return {
    order: new Int32Array(memory, at.order, count),
    starts: new Int32Array(memory, at.starts, BUCKETS + 1),
    bucketBest: new Float64Array(memory, at.bucketBest, BUCKETS),
  };
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
  const exactFound = bounds.tiers.exact;
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
  return count * most + (count === found.length ? bounds.tiers.complete : 0);
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
  const { found: found0, exact: exact0, foundComplete: found1, exactComplete: exact1 } = bounds.tiers;
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
