/**
 * The last and tightest bounds skipping uses (scoring.ts), per document of a block: before the block is
 * scored, each document's from the impacts the writer keeps per posting (postings-codec.ts), so a block
 * whose documents cannot reach the page is dropped without decoding a single (tf, length) pair; while it is
 * scored, each document's bound takes a word's real score in place of its impact's bound, word by word.
 * Runtime-neutral.
 */
import type { WordBits } from './match-count.ts';
import { findBlock, type PreparedForm } from './prepared-form.ts';
import { RANKING, wordScore } from './ranking.ts';

/**
 * Each document's bound in `block`: the sum, over the words found in it (`bits`), of the word's tiers (exact
 * when its own term is there) and of its BM25 part's bound in that document, the best of its forms' impact
 * bounds (kept per word and slot in `words`, `u * blockSize + slot`). Each document's own bound goes to
 * `slots` (0 outside `range`); the best of them is returned. Never below tightBound's, never below a score.
 */
export function documentBounds(
  units: PreparedForm[][],
  bits: WordBits,
  block: number,
  range: readonly [number, number],
  slots: Float64Array,
  words: Float64Array,
): number {
  const size = RANKING.blockSize;
  const { found, exact } = bits;
  words.fill(0, 0, units.length * size);
  for (let u = 0; u < units.length; u++) {
    for (const prepared of units[u]!) {
      const at = findBlock(prepared.blocks, block);
      if (at >= 0) prepared.boundsInto(at, words, u * size);
    }
  }
  let best = 0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    slots[slot] = 0;
    if (document < range[0] || document >= range[1]) continue;
    const byte = document >> 3;
    const bit = 1 << (document & 7);
    let complete = true;
    for (let u = 0; u < found.length && complete; u++) complete = (found[u]![byte]! & exact[u]![byte]! & bit) !== 0;
    let sum = 0;
    for (let u = 0; u < found.length; u++) {
      if (found[u]![byte]! & bit) sum += wordScore(found.length, (exact[u]![byte]! & bit) !== 0, words[u * size + slot]!, complete);
    }
    slots[slot] = sum;
    if (sum > best) best = sum;
  }
  return best;
}

/**
 * After word `u` of `block` is scored (`scores`: its best form's score per slot, from `offset`), each
 * document's bound in `slots` with the word's bound there (`words`, as documentBounds left it) replaced by
 * what it really adds; the best of them.
 */
export function lowerSlots(
  bits: WordBits,
  block: number,
  u: number,
  scores: Float64Array,
  offset: number,
  slots: Float64Array,
  words: Float64Array,
): number {
  const size = RANKING.blockSize;
  let best = 0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    const bit = 1 << (document & 7);
    if (slots[slot]! > 0 && bits.found[u]![document >> 3]! & bit) {
      const isExact = (bits.exact[u]![document >> 3]! & bit) !== 0;
      // The word's tiers are the same in both (a complete match's share included): only its BM25 part changes.
      slots[slot]! +=
        wordScore(bits.found.length, isExact, scores[offset + slot]!, false) -
        wordScore(bits.found.length, isExact, words[u * size + slot]!, false);
    }
    if (slots[slot]! > best) best = slots[slot]!;
  }
  return best;
}
