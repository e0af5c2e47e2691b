/**
 * The last and tightest bounds skipping uses (scoring.ts), per document of a block: before the block is
 * scored, each document's from the impacts the writer keeps per posting (postings-codec.ts), word by word,
 * so a block whose documents cannot reach the page is dropped without decoding a single (tf, length) pair
 * (and, for a query of many words, often after reading the impacts of a few of them); while it is scored,
 * each document's bound takes a word's real score in place of its bound, word by word.
 * Runtime-neutral.
 */
import type { BlockBounds, WordTiers } from './block-bounds.ts';
import type { WordBits } from './match-count.ts';
import { findBlock, type PreparedForm } from './prepared-form.ts';
import { RANKING } from './ranking.ts';

/**
 * Lowers each document's bound in `slots` (as tightBound leaves it: every word at its bound in the block)
 * word by word, in `order`, to the word's bound in that very document, the best of its forms' impact bounds
 * (kept per word and slot in `words`, `u * blockSize + slot`; a word not reached keeps its block bound
 * there). True as soon as no document can reach the page (`below`): the block is skipped, and its other
 * words' impacts are not read. Never below a document's score.
 */
export function lowerByImpacts(
  units: PreparedForm[][],
  bits: WordBits,
  bounds: BlockBounds,
  block: number,
  order: readonly number[],
  slots: Float64Array,
  words: Float64Array,
  below: (bound: number) => boolean,
): boolean {
  const size = RANKING.blockSize;
  // One word's impact bounds, gathered before they replace its block bound.
  const { impacts } = bounds;
  for (let u = 0; u < units.length; u++) words.fill(bounds.best[u * bounds.blocks + block]!, u * size, (u + 1) * size);
  for (let w = 0; w < order.length; w++) {
    const u = order[w]!;
    // The word's impact bounds are gathered apart, then put in place of its block bound exactly as a real
    // score is once the word is scored (lowerSlots), and kept in `words` for that later replacement.
    impacts.fill(0);
    const forms = units[u]!;
    for (let f = 0; f < forms.length; f++) {
      const at = findBlock(forms[f]!.blocks, block);
      if (at >= 0) forms[f]!.boundsInto(at, impacts, 0);
    }
    const best = lowerSlots(bits, bounds.tiers, block, u, impacts, 0, slots, words);
    words.set(impacts, u * size);
    if (below(best)) return true;
  }
  return false;
}

/**
 * After word `u` of `block` is scored (`scores`: its best form's score per slot, from `offset`), each
 * document's bound in `slots` with the word's bound there (`words`, as lowerByImpacts left it) replaced by
 * what it really adds; the best of them.
 */
export function lowerSlots(
  bits: WordBits,
  tier: WordTiers,
  block: number,
  u: number,
  scores: Float64Array,
  offset: number,
  slots: Float64Array,
  words: Float64Array,
): number {
  const size = RANKING.blockSize;
  const saturation = RANKING.saturation;
  const found = bits.found[u]!;
  const exact = bits.exact[u]!;
  const { found: foundTier, exact: exactTier } = tier;
  let best = 0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    const bit = 1 << (document & 7);
    if (slots[slot]! > 0 && found[document >> 3]! & bit) {
      const tier = (exact[document >> 3]! & bit) !== 0 ? exactTier : foundTier;
      // The word's tiers are the same in both (a complete match's share included): only its BM25 part changes.
      // wordScore's arithmetic, in place (block-bounds.ts tiers).
      const score = scores[offset + slot]!;
      const bound = words[u * size + slot]!;
      slots[slot]! += tier + score / (score + saturation) - (tier + bound / (bound + saturation));
    }
    if (slots[slot]! > best) best = slots[slot]!;
  }
  return best;
}
