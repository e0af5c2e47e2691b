// A block scored in WebAssembly (scoring.ts scoreBlock): word by word, each word's forms decoded and scored
// (ranking.ts BM25+, operation for operation on IEEE doubles, so scores are identical to the JavaScript
// rules'), the block dropped as soon as no document can reach the page, else every document offered to it.
import { BASE, COUNT, DATA_END, DATA_START, DOC_START, FIELDS, FORM_BYTES, IS_EXACT, KIND, column, findEntry, rareInto } from './forms.as';
import { cursor, nextSlot, readVarint, setCursor } from './varint.as';
import { liveSlots, lowerSlots } from './walk-bounds.as';
import { below, push, scoreUnits } from './walk-heap.as';
import {
  AVERAGES, EXACT, FORM_WEIGHTS, FORMS, GAP_SLOTS, SCORE_BEST, SCORE_EXACT, WORD_FORMS, WORD_ORDER,
  blockSet, bm25, field, saturation, size, tier, words,
} from './walk-state.as';

/** Entry `c`'s doc gaps (from `at`, ending at its mask bytes) into the slots at `into`; -1 when malformed. */
// @ts-ignore: decorator
@inline
function readSlots(at: i32, masks: i32, count: i32, into: i32): i32 {
  setCursor(at);
  let slot = -1;
  for (let i = 0; i < count; i++) {
    slot = nextSlot(slot, masks, size);
    if (slot < 0) return -1;
    store<i32>(into + (i << 2), slot);
  }
  return cursor == masks ? 0 : -1;
}

/** The slots of `documents` (a bit per slot), in order, into the slots at `into`. */
// @ts-ignore: decorator
@inline
function bitSlots(documents: i32, into: i32): void {
  let i = 0;
  for (let left = documents; left != 0; left &= left - 1) store<i32>(into + (i++ << 2), ctz<i32>(left));
}

/**
 * A common term's entry `c` (block `block`) decoded and scored in one pass, each live document's weighted
 * score into the word's best scores at `into` (f64 per slot), marking `exact` (a byte per slot) for the
 * word's own term; another document's pairs are read past (its score cannot reach the page, and it is not
 * offered). The (tf, length) pairs follow the masks and the impacts. The documents of word `u`'s own term
 * are its exact set in the block (walk-bounds.as.ts boundsInto), so no doc gap is read for them. -1: malformed.
 */
function scoreCommon(f: i32, c: i32, block: i32, u: i32, into: i32, exact: i32): i32 {
  const form = field(FORMS) + f * FORM_BYTES;
  const base = load<i32>(form + BASE);
  const fields = load<i32>(form + FIELDS);
  const isExact = load<i32>(form + IS_EXACT);
  const weights = field(FORM_WEIGHTS) + (f << 6);
  const averages = field(AVERAGES);
  const docs = field(GAP_SLOTS);
  const count = column(form, COUNT, c);
  const stop = base + column(form, DATA_END, c);
  const masks = base + column(form, DATA_START, c);
  const own = isExact ? blockSet(EXACT, u, block) : 0;
  if (isExact && popcnt<i32>(own) == count) bitSlots(own, docs);
  else if (readSlots(base + column(form, DOC_START, c), masks, count, docs) < 0) return -1;
  setCursor(masks + count + ((count + 1) >> 1));
  const live = liveSlots();
  // A while loop, so that a document passed over turns the loop where it is passed (block-walk.as.ts walk).
  let i = -1;
  while (++i < count) {
    const mask = <i32>load<u8>(masks + i);
    if (mask == 0 || mask > 31) return -1;
    if (!((live >> load<i32>(docs + (i << 2))) & 1)) {
      // Its pairs passed over by their last bytes (below 0x80), none read.
      let at = cursor;
      for (let pairs = popcnt<i32>(mask) << 1; pairs > 0; at++) {
        if (at >= stop) return -1;
        if (load<u8>(at) < 0x80) pairs--;
      }
      setCursor(at);
      continue;
    }
    let sum = 0.0;
    for (let left = mask; left != 0; left &= left - 1) {
      const id = ctz<i32>(left);
      const tf = readVarint(stop, 5);
      const length = readVarint(stop, 5);
      if (tf < 0 || length < 0) return -1;
      if (fields & (1 << id)) sum += bm25(load<f64>(weights + ((1 + id) << 3)), <f64>tf, <f64>length, load<f64>(averages + (id << 3)));
    }
    if (sum == 0) continue;
    const score = load<f64>(weights) * sum;
    const slot = load<i32>(docs + (i << 2));
    const to = into + (slot << 3);
    if (score > load<f64>(to)) store<f64>(to, score);
    if (isExact) store<u8>(exact + slot, 1);
  }
  return cursor == stop ? 0 : -1;
}

/** Word `u`'s forms in `block` scored into its best scores (SCORE_BEST) and exact marks. 0, or -1: malformed. */
function scoreWord(u: i32, block: i32): i32 {
  const wordForms = field(WORD_FORMS);
  const into = field(SCORE_BEST) + ((u * size) << 3);
  const exact = field(SCORE_EXACT) + u * size;
  for (let f = load<i32>(wordForms + (u << 2)); f < load<i32>(wordForms + ((u + 1) << 2)); f++) {
    const form = field(FORMS) + f * FORM_BYTES;
    const at = findEntry(form, block);
    if (at < 0) continue;
    const status = load<i32>(form + KIND) == 1
      ? scoreCommon(f, at, block, u, into, exact)
      : rareInto(form, at, block, size, into, exact, load<i32>(form + IS_EXACT) != 0);
    if (status < 0) return status;
  }
  return 0;
}

/**
 * Every live document of `block` (in the walk's range, tightBound) with a score offered to the page. 0, or
 * -2 (a score out of range).
 */
function offerBlock(block: i32): i32 {
  const best = field(SCORE_BEST);
  const exact = field(SCORE_EXACT);
  for (let left = liveSlots(); left != 0; left &= left - 1) {
    const slot = ctz<i32>(left);
    const document = block * size + slot;
    let complete = true;
    for (let u = 0; u < words && complete; u++) {
      complete = load<u8>(exact + u * size + slot) == 1 && load<f64>(best + ((u * size + slot) << 3)) > 0;
    }
    let raw = 0.0;
    for (let u = 0; u < words; u++) {
      const score = load<f64>(best + ((u * size + slot) << 3));
      if (score > 0) raw += tier((complete ? 2 : 0) + <i32>load<u8>(exact + u * size + slot)) + score / (score + saturation);
    }
    if (raw > 0) {
      const status = push(scoreUnits(raw), document, raw);
      if (status < 0) return status;
    }
  }
  return 0;
}

/**
 * scoring.ts scoreBlock: every document of `block` scored word by word, in the walk's word order, into the
 * page; after each word the documents' bounds take its real score, and once none can reach the page the
 * block's other words are not decoded. 0, or -1 (malformed) / -2 (a score out of range).
 */
export function scoreBlock(block: i32): i32 {
  const best = field(SCORE_BEST);
  const order = field(WORD_ORDER);
  memory.fill(best, 0, (words * size) << 3);
  memory.fill(field(SCORE_EXACT), 0, words * size);
  for (let w = 0; w < words; w++) {
    const u = load<i32>(order + (w << 2));
    const status = scoreWord(u, block);
    if (status < 0) return status;
    if (w < words - 1 && below(lowerSlots(block, u, best + ((u * size) << 3)))) return 0;
  }
  return offerBlock(block);
}
