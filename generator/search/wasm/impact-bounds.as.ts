// The blocks' bounds from the impacts, many blocks at once (impact-bounds.ts): once a walk proves long it
// takes the next blocks' bounds in one call, so most of a walk over thousands of blocks is dropped by one
// comparison each. A block's bound is the one walk-bounds.as.ts lowerByImpacts would give it, over the
// documents that may still reach the page when the blocks are taken.
import { FORM_BYTES, IS_EXACT, KIND, WORD, findEntry, impactsInto, rareInto, wantedImpactsInto } from './forms.as';
import { below } from './walk-heap.as';
import {
  EXACT, FORM_COUNT, FORM_WEIGHTS, FORMS, FOUND, IMPACT_OUT, SCRATCH, TIERS,
  blockSet, end, field, first, saturation, size, tier, words,
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
  // A while loop, so that a form passed over turns the loop where it is passed (block-walk.as.ts walk).
  let f = -1;
  while (++f < field(FORM_COUNT)) {
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
 * the same number as if taken alone. Exported (block-passes.as.ts) only so that the optimizer keeps it a
 * function of its own: inlined, its loops' code would count against impactBlockBounds' budget before the
 * engine recompiles that (once per block taken), which a first search of three common words then passed.
 */
export function bestDocument(live: i32, scratch: i32, flags: i32): f64 {
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
 * The words a document needs to reach the page as it is now: bit `u` of the low byte when it needs word
 * `u`'s own term, of the next byte when it needs the word at all. A document lacking word `u` (or holding
 * it only through a neighbour) is no complete match, and every other word adds at most its best tier
 * outside one and a saturated part below 1 (s / (s + saturation)); summed in word order as the documents'
 * sums are (rounding is monotone, so never less), when that cannot reach the page now it never will, since
 * the page only rises.
 */
function neededWords(): i32 {
  const best = max(tier(0), tier(1));
  let exactly = 0;
  let found = 0;
  for (let u = 0; u < words; u++) {
    let lacking = 0.0;
    let inexact = 0.0;
    for (let v = 0; v < words; v++) {
      if (v != u) lacking += best + 1.0;
      inexact += (v == u ? tier(0) : best) + 1.0;
    }
    if (below(inexact)) exactly |= 1 << u;
    else if (below(lacking)) found |= 1 << u;
  }
  return exactly | (found << 8);
}

/**
 * The documents of `block` in the walk's range that hold some word, and every word `needed` (neededWords)
 * says they must: the only ones that may still reach the page.
 */
function liveDocuments(block: i32, needed: i32): i32 {
  const origin = block * size;
  let live = 0;
  let held = 0xffff;
  for (let u = 0; u < words; u++) {
    const found = blockSet(FOUND, u, block);
    live |= found;
    if ((needed >> u) & 1) held &= blockSet(EXACT, u, block);
    else if ((needed >> (8 + u)) & 1) held &= found;
  }
  live &= held;
  if (first > origin) live &= -1 << min(first - origin, 31);
  if (end < origin + size) live &= (1 << max(end - origin, 0)) - 1;
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
  const needed = neededWords();
  for (let k = 0; k < listLength; k++) {
    const block = load<i32>(list + (k << 2));
    const live = liveDocuments(block, needed);
    memory.fill(scratch, 0, words * size * 9);
    if (formsInto(block, live, scratch, flags) < 0) return -1;
    store<f64>(out + (block << 3), bestDocument(live, scratch, flags));
  }
  return 0;
}
