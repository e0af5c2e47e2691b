// The blocks' bounds from the impacts, many blocks at once (impact-bounds.ts): once a walk proves long it
// takes the next blocks' bounds in one call, so most of a walk over thousands of blocks is dropped by one
// comparison each. A block's bound is the one walk-bounds.as.ts lowerByImpacts would give it, over the
// documents that may still reach the page when the blocks are taken.
import { FORM_BYTES, IS_EXACT, KIND, WORD, findEntry, impactsInto, rareInto, wantedImpactsInto } from './forms.as';
import { below } from './walk-heap.as';
import {
  EXACT, FORM_COUNT, FORM_WEIGHTS, FORMS, FOUND, IMPACT_OUT, SATURATED, SCRATCH, TIERS,
  blockSet, end, field, first, saturation, size, tier, wordBest, words,
} from './walk-state.as';

/**
 * Every form's values in `block` (a common term's impacts times the form's weight, a rare term's exact
 * scores) into its word's slots in `scratch` (f64 per word and slot), marking the word's own term in `flags`
 * (a byte per word and slot), for the documents in `live` (a bit per slot; other slots may be written, and
 * are never read). A word's own common term's documents in the block are the word's exact set there
 * (walk-bounds.as.ts boundsInto), so its impacts are taken by rank, with no doc gap read. -1: malformed.
 */
function formsInto(block: i32, live: i32, scratch: i32, flags: i32): i32 {
  const forms = field(FORMS);
  const weights = field(FORM_WEIGHTS);
  for (let f = 0; f < field(FORM_COUNT); f++) {
    const form = forms + f * FORM_BYTES;
    const c = findEntry(form, block);
    if (c < 0) continue;
    const u = load<i32>(form + WORD);
    const mark = load<i32>(form + IS_EXACT) != 0;
    const into = scratch + ((u * size) << 3);
    if (load<i32>(form + KIND) == 0) {
      if (rareInto(form, c, block, size, into, flags + u * size, mark) < 0) return -1;
      continue;
    }
    const weight = load<f64>(weights + (f << 6));
    let status = mark ? wantedImpactsInto(form, c, blockSet(EXACT, u, block), live, weight, into, flags + u * size, true) : 1;
    if (status > 0) status = impactsInto(form, c, block, size, live, weight, into, flags + u * size, mark);
    if (status < 0) return -1;
  }
  return 0;
}

/**
 * The best over the `live` documents of the sum over the words found there of the word's tiers (the walk's
 * TIERS: found, exact, found in a complete match, exact in one) and its saturated value. Each document's two
 * sums (as if complete, as if not) are taken in one pass over the words, in word order, so the one kept is
 * the same number as if taken alone.
 */
function bestDocument(live: i32, scratch: i32, flags: i32): f64 {
  const tiers = field(TIERS);
  let best = 0.0;
  for (let left = live; left != 0; left &= left - 1) {
    const slot = ctz<i32>(left);
    let complete = true;
    let partial = 0.0;
    let whole = 0.0;
    for (let u = 0; u < words; u++) {
      const s = load<f64>(scratch + ((u * size + slot) << 3));
      if (!(s > 0)) {
        complete = false;
        continue;
      }
      const flag = <i32>load<u8>(flags + u * size + slot);
      if (!flag) complete = false;
      const value = s / (s + saturation);
      partial += load<f64>(tiers + (flag << 3)) + value;
      whole += load<f64>(tiers + ((2 + flag) << 3)) + value;
    }
    const sum = complete ? whole : partial;
    if (sum > best) best = sum;
  }
  return best;
}

/**
 * The documents of `block` in the walk's range that may still reach the page: only those holding a word
 * (exactly, where need be) without which no document can. A document lacking word `u` (or holding it only
 * through a neighbour) is bounded by the sum, in word order as tightBound takes it, of every other word's
 * best tier outside a complete match and its saturated bound (and `u`'s found tier and bound); when that
 * cannot reach the page now, it never will, since the page only rises.
 */
function liveDocuments(block: i32): i32 {
  const origin = block * size;
  let live = 0;
  for (let u = 0; u < words; u++) live |= blockSet(FOUND, u, block);
  if (first > origin) live &= -1 << min(first - origin, 31);
  if (end < origin + size) live &= (1 << max(end - origin, 0)) - 1;
  const saturated = field(SATURATED);
  for (let u = 0; u < words; u++) {
    const bound = wordBest(u, block);
    store<f64>(saturated + (u << 3), bound / (bound + saturation));
  }
  const found = tier(0);
  const exact = tier(1);
  for (let u = 0; u < words; u++) {
    let lacking = 0.0;
    let inexact = 0.0;
    for (let v = 0; v < words; v++) {
      const part = load<f64>(saturated + (v << 3));
      if (v != u) lacking += exact + part;
      inexact += (v == u ? found : exact) + part;
    }
    if (below(inexact)) live &= blockSet(EXACT, u, block);
    else if (below(lacking)) live &= blockSet(FOUND, u, block);
  }
  return live;
}

/**
 * The bound lowerByImpacts gives, for the `listLength` blocks at `list` (i32) at once, before the walk needs
 * it, into the walk's IMPACT_OUT (f64 per block). Only the documents that may still reach the page
 * (liveDocuments) are bounded, so a block is dropped as before; a block with none gets 0. The walk's
 * SCRATCH (words * size f64, then words * size bytes) is work space. -1: malformed.
 */
export function impactBlockBounds(list: i32, listLength: i32): i32 {
  const scratch = field(SCRATCH);
  const flags = scratch + words * size * 8;
  const out = field(IMPACT_OUT);
  for (let k = 0; k < listLength; k++) {
    const block = load<i32>(list + (k << 2));
    const live = liveDocuments(block);
    for (let u = 0; u < words; u++) {
      for (let left = live; left != 0; left &= left - 1) {
        const slot = u * size + ctz<i32>(left);
        store<f64>(scratch + (slot << 3), 0.0);
        store<u8>(flags + slot, 0);
      }
    }
    if (formsInto(block, live, scratch, flags) < 0) return -1;
    store<f64>(out + (block << 3), bestDocument(live, scratch, flags));
  }
  return 0;
}
