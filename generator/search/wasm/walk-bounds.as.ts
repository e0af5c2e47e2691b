// The bounds that drop a block before it is scored (scoring.ts), after the bound the walk's order is by
// (block-order.as.ts): the tight bound (each document's words and their tiers), and each document's own
// bound lowered word by word from its forms' impacts. Each is compared with the page (walk-heap.as.ts below).
import { FORM_BYTES, IS_EXACT, KIND, findEntry, impactsInto, rareInto, wantedImpactsInto } from './forms.as';
import { below } from './walk-heap.as';
import {
  EXACT, FORM_WEIGHTS, FORMS, FOUND, IMPACTS, SATURATED, SLOTS, WORD_BOUNDS, WORD_FORMS, WORD_ORDER,
  blockSet, end, field, first, saturation, size, tier, wordBest, words,
} from './walk-state.as';

/** The slots of the block tightBound last bounded that may still reach the page (a bit each). */
let live = 0;

/** The slots tightBound left live (block-scoring.as.ts scores only those). */
export function liveSlots(): i32 {
  return live;
}

/**
 * The tight bound of `block`: per document, the sum over the words found in it of the word's
 * tiers and its saturated bound in the block, into the slots (0 outside the range); the best of them.
 * Word by word over the block's 16-bit sets, each document's sum still taken in word order.
 */
export function tightBound(block: i32): f64 {
  const saturated = field(SATURATED);
  const slots = field(SLOTS);
  let complete = 0xffff;
  for (let u = 0; u < words; u++) {
    const bound = wordBest(u, block);
    store<f64>(saturated + (u << 3), bound / (bound + saturation));
    complete &= blockSet(FOUND, u, block) & blockSet(EXACT, u, block);
  }
  memory.fill(slots, 0, size << 3);
  for (let u = 0; u < words; u++) {
    const exact = blockSet(EXACT, u, block);
    const part = load<f64>(saturated + (u << 3));
    for (let found = blockSet(FOUND, u, block); found != 0; found &= found - 1) {
      const slot = ctz(found);
      const at = slots + (slot << 3);
      const t = tier((((complete >> slot) & 1) << 1) | ((exact >> slot) & 1));
      store<f64>(at, load<f64>(at) + (t + part));
    }
  }
  let best = 0.0;
  live = 0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    const at = slots + (slot << 3);
    const sum = load<f64>(at);
    // A document that cannot reach the page now cannot later in this block (its bound only falls): 0, so
    // lowerSlots passes over it.
    const value = document >= first && document < end && !below(sum) ? sum : 0.0;
    store<f64>(at, value);
    if (value > 0) live |= 1 << slot;
    if (value > best) best = value;
  }
  return best;
}

/**
 * Word `u`'s bound in each document of `block` (`bounds`, f64 per word and
 * slot) replaced in the slots by what `scores` (f64 per slot) say it adds; the best slot. Only the slots
 * tightBound left above 0 are read: the others stay 0.
 */
export function lowerSlots(block: i32, u: i32, scores: i32): f64 {
  const slots = field(SLOTS);
  const bounds = field(WORD_BOUNDS) + ((u * size) << 3);
  const found = blockSet(FOUND, u, block);
  const exact = blockSet(EXACT, u, block);
  const foundTier = tier(0);
  const exactTier = tier(1);
  let best = 0.0;
  for (let left = live; left != 0; left &= left - 1) {
    const slot = ctz<i32>(left);
    const at = slots + (slot << 3);
    if (load<f64>(at) > 0 && ((found >> slot) & 1) != 0) {
      const t = ((exact >> slot) & 1) != 0 ? exactTier : foundTier;
      const score = load<f64>(scores + (slot << 3));
      const bound = load<f64>(bounds + (slot << 3));
      store<f64>(at, load<f64>(at) + (t + score / (score + saturation) - (t + bound / (bound + saturation))));
    }
    if (load<f64>(at) > best) best = load<f64>(at);
  }
  return best;
}

/**
 * Form `f`'s bound in each document of its entry `c` (block `block`) into the impacts, where above; for a
 * word's own common term, in the live documents only (its documents in the block are the word's exact set
 * there, so no doc gap need be read). -1: malformed.
 */
function boundsInto(f: i32, c: i32, block: i32, u: i32): i32 {
  const form = field(FORMS) + f * FORM_BYTES;
  const into = field(IMPACTS);
  if (load<i32>(form + KIND) == 0) return rareInto(form, c, block, size, into, 0, false);
  const weight = load<f64>(field(FORM_WEIGHTS) + (f << 6));
  if (load<i32>(form + IS_EXACT) != 0) {
    const status = wantedImpactsInto(form, c, blockSet(EXACT, u, block), live, weight, into, 0, false);
    if (status <= 0) return status;
  }
  return impactsInto(form, c, block, size, live, weight, into, 0, false);
}

/**
 * Each document's bound in the slots (as tightBound leaves them) lowered
 * word by word, in the walk's word order, to the word's bound in that very document from its forms'
 * impacts. 1 as soon as no document can reach the page, 0 when some may, -1 on a malformed body.
 */
export function lowerByImpacts(block: i32): i32 {
  const bounds = field(WORD_BOUNDS);
  const impacts = field(IMPACTS);
  const order = field(WORD_ORDER);
  const wordForms = field(WORD_FORMS);
  // Only the live slots' bounds and impacts are read (lowerSlots), so only theirs are written.
  for (let u = 0; u < words; u++) {
    const value = wordBest(u, block);
    for (let left = live; left != 0; left &= left - 1) store<f64>(bounds + ((u * size + ctz<i32>(left)) << 3), value);
  }
  for (let w = 0; w < words; w++) {
    const u = load<i32>(order + (w << 2));
    for (let left = live; left != 0; left &= left - 1) store<f64>(impacts + (ctz<i32>(left) << 3), 0.0);
    for (let f = load<i32>(wordForms + (u << 2)); f < load<i32>(wordForms + ((u + 1) << 2)); f++) {
      const at = findEntry(field(FORMS) + f * FORM_BYTES, block);
      if (at >= 0 && boundsInto(f, at, block, u) < 0) return -1;
    }
    const best = lowerSlots(block, u, impacts);
    const into = bounds + ((u * size) << 3);
    for (let left = live; left != 0; left &= left - 1) {
      const slot = ctz<i32>(left) << 3;
      store<f64>(into + slot, load<f64>(impacts + slot));
    }
    if (below(best)) return 1;
  }
  return 0;
}
