// The bounds that drop a block before it is scored (scoring.ts), after the bound the walk's order is by
// (block-order.as.ts): the tight bound (each document's words and their tiers), and each document's own
// bound lowered word by word from its forms' impacts. Each is compared with the page (walk-heap.as.ts below).
import { FORM_BYTES, KIND, findEntry, impactsInto, rareInto } from './forms.as';
import { below } from './walk-heap.as';
import {
  EXACT, FORM_WEIGHTS, FORMS, FOUND, IMPACTS, SATURATED, SLOTS, WORD_BOUNDS, WORD_FORMS, WORD_ORDER,
  end, field, first, hasBit, saturation, size, tier, wordBest, words,
} from './walk-state.as';

/**
 * The tight bound of `block`: per document, the sum over the words found in it of the word's
 * tiers and its saturated bound in the block, into the slots (0 outside the range); the best of them.
 */
export function tightBound(block: i32): f64 {
  const saturated = field(SATURATED);
  const slots = field(SLOTS);
  for (let u = 0; u < words; u++) {
    const bound = wordBest(u, block);
    store<f64>(saturated + (u << 3), bound / (bound + saturation));
  }
  let best = 0.0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    let complete = true;
    for (let u = 0; u < words && complete; u++) complete = hasBit(FOUND, u, document) && hasBit(EXACT, u, document);
    const foundTier = complete ? tier(2) : tier(0);
    const exactTier = complete ? tier(3) : tier(1);
    let sum = 0.0;
    for (let u = 0; u < words; u++) {
      if (!hasBit(FOUND, u, document)) continue;
      sum += (hasBit(EXACT, u, document) ? exactTier : foundTier) + load<f64>(saturated + (u << 3));
    }
    // A document that cannot reach the page now cannot later in this block (its bound only falls): 0, so
    // lowerSlots passes over it.
    const value = document >= first && document < end && !below(sum) ? sum : 0.0;
    store<f64>(slots + (slot << 3), value);
    if (value > best) best = value;
  }
  return best;
}

/**
 * Word `u`'s bound in each document of `block` (`bounds`, f64 per word and
 * slot) replaced in the slots by what `scores` (f64 per slot) say it adds; the best slot.
 */
export function lowerSlots(block: i32, u: i32, scores: i32): f64 {
  const slots = field(SLOTS);
  const bounds = field(WORD_BOUNDS) + ((u * size) << 3);
  const foundTier = tier(0);
  const exactTier = tier(1);
  let best = 0.0;
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    const at = slots + (slot << 3);
    if (load<f64>(at) > 0 && hasBit(FOUND, u, document)) {
      const t = hasBit(EXACT, u, document) ? exactTier : foundTier;
      const score = load<f64>(scores + (slot << 3));
      const bound = load<f64>(bounds + (slot << 3));
      store<f64>(at, load<f64>(at) + (t + score / (score + saturation) - (t + bound / (bound + saturation))));
    }
    if (load<f64>(at) > best) best = load<f64>(at);
  }
  return best;
}

/** Form `f`'s bound in each document of its entry `c` (block `block`) into the impacts, where above. -1: malformed. */
function boundsInto(f: i32, c: i32, block: i32): i32 {
  const form = field(FORMS) + f * FORM_BYTES;
  const into = field(IMPACTS);
  if (load<i32>(form + KIND) == 0) return rareInto(form, c, block, size, into, 0, false);
  return impactsInto(form, c, block, size, load<f64>(field(FORM_WEIGHTS) + (f << 6)), into, 0, false);
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
  for (let u = 0; u < words; u++) {
    const value = wordBest(u, block);
    for (let slot = 0; slot < size; slot++) store<f64>(bounds + ((u * size + slot) << 3), value);
  }
  for (let w = 0; w < words; w++) {
    const u = load<i32>(order + (w << 2));
    memory.fill(impacts, 0, size << 3);
    for (let f = load<i32>(wordForms + (u << 2)); f < load<i32>(wordForms + ((u + 1) << 2)); f++) {
      const at = findEntry(field(FORMS) + f * FORM_BYTES, block);
      if (at >= 0 && boundsInto(f, at, block) < 0) return -1;
    }
    const best = lowerSlots(block, u, impacts);
    memory.copy(bounds + ((u * size) << 3), impacts, size << 3);
    if (below(best)) return 1;
  }
  return 0;
}
