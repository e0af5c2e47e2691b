// The blocks' bounds from the impacts, many blocks at once (impact-bounds.ts): once a walk proves long it
// takes the next blocks' bounds in one call, so most of a walk over thousands of blocks is dropped by one
// comparison each. A block's bound is the one walk-bounds.as.ts lowerByImpacts would give it.
import { FORM_BYTES, IS_EXACT, KIND, WORD, findEntry, impactsInto, rareInto, wantedImpactsInto } from './forms.as';
import { blockSet, EXACT, FOUND } from './walk-state.as';

/**
 * Every form's values in `block` (a common term's impacts times the form's weight, a rare term's exact
 * scores) into its word's slots in `scratch` (f64 per word and slot), marking the word's own term in `flags`
 * (a byte per word and slot). A word's own common term's documents in the block are the word's exact set
 * there (walk-bounds.as.ts boundsInto), so its impacts are taken by rank, with no doc gap read. -1: malformed.
 */
function formsInto(forms: i32, formCount: i32, weights: i32, block: i32, size: i32, scratch: i32, flags: i32): i32 {
  for (let f = 0; f < formCount; f++) {
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
    let status = mark ? wantedImpactsInto(form, c, blockSet(EXACT, u, block), 0xffff, weight, into, flags + u * size, true) : 1;
    if (status > 0) status = impactsInto(form, c, block, size, weight, into, flags + u * size, mark);
    if (status < 0) return -1;
  }
  return 0;
}

/**
 * The best over `block`'s documents in `[first, end)` of the sum over the words found there of the word's
 * tiers (`tiers`: f64 found, exact, found in a complete match, exact in one) and its saturated value. Each
 * document's two sums (as if complete, as if not) are taken in one pass over the words, in word order, so
 * the one kept is the same number as if taken alone.
 */
function bestDocument(block: i32, words: i32, first: i32, end: i32, size: i32, tiers: i32, saturation: f64, scratch: i32, flags: i32): f64 {
  let best = 0.0;
  const origin = block * size;
  // Only the documents some word is found in have a value (walk-bounds.as.ts tightBound sums the same).
  let found = 0;
  for (let u = 0; u < words; u++) found |= blockSet(FOUND, u, block);
  if (first > origin) found &= -1 << min(first - origin, 31);
  if (end < origin + size) found &= (1 << max(end - origin, 0)) - 1;
  for (; found != 0; found &= found - 1) {
    const slot = ctz<i32>(found);
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
 * The bound lowerByImpacts gives, for the `listLength` blocks at `list` (i32) at once, before the walk needs
 * it, into `out` (f64 per block). `forms`: a description per form (forms.as.ts); `weights`: 8 f64 per form,
 * the form's weight first. `scratch` (words * size f64, then words * size bytes) is work space. -1: malformed.
 */
export function impactBlockBounds(
  forms: i32, formCount: i32, weights: i32, words: i32, first: i32, end: i32, size: i32, list: i32, listLength: i32,
  tiers: i32, saturation: f64, scratch: i32, out: i32,
): i32 {
  const flags = scratch + words * size * 8;
  for (let k = 0; k < listLength; k++) {
    const block = load<i32>(list + (k << 2));
    memory.fill(scratch, 0, words * size * 9);
    if (formsInto(forms, formCount, weights, block, size, scratch, flags) < 0) return -1;
    store<f64>(out + (block << 3), bestDocument(block, words, first, end, size, tiers, saturation, scratch, flags));
  }
  return 0;
}
