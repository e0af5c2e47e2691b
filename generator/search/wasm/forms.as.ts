// A query's forms as the JavaScript side places them (impact-bounds.ts placeForms), and the two ways a form's
// entry for one block puts its documents' values into a block's slots: a common term's bounds from its
// impacts, a rare term's scores (prepared-form.ts). The walk's bounds, its scoring and the blocks' bounds
// taken at once (impact-bounds.as.ts) all read forms through this module.
import { nextSlot, setCursor } from './varint.as';

/** A form's description: 12 i32 fields, at these byte offsets. */
export const FORM_BYTES = 48;
export const WORD = 0;
export const IS_EXACT = 4;
/** 1 for a common term (a block table), 0 for a rare one (scored postings). */
export const KIND = 8;
const ENTRIES = 12;
const BLOCK_NUMBERS = 16;
// A common term's columns (one value per entry): where its doc gaps, its mask bytes and its end are among
// its blocks' bodies, its documents' count and its bound (f64); then where those bodies begin in memory and
// the form's fields.
export const DOC_START = 20;
export const DATA_START = 24;
export const DATA_END = 28;
export const COUNT = 32;
const BOUND = 36;
export const BASE = 40;
export const FIELDS = 44;
// A rare term's columns: its entries' first postings (entries + 1), the postings' documents and scores (f64).
const STARTS = 20;
const DOCS = 24;
const SCORES = 28;

/** Entry `c` of the i32 column at byte offset `at` of the form at `form`. */
// @ts-ignore: decorator
@inline
export function column(form: i32, at: i32, c: i32): i32 {
  return load<i32>(load<i32>(form + at) + (c << 2));
}

/**
 * Index of `block` in the form's sorted block numbers, or -1 (prepared-form.ts findBlock). The numbers are
 * distinct and ascending, so a block's index is at most the block less the first number, and at least the
 * block less the numbers missing up to the last: a near-dense term's search spans only its missing blocks.
 */
export function findEntry(form: i32, block: i32): i32 {
  const n = load<i32>(form + ENTRIES);
  const numbers = load<i32>(form + BLOCK_NUMBERS);
  if (block < n && load<i32>(numbers + (block << 2)) == block) return block;
  if (n == 0) return -1;
  const last = load<i32>(numbers + ((n - 1) << 2));
  let low = max(0, block - (last - (n - 1)));
  let high = min(n - 1, block - load<i32>(numbers));
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = load<i32>(numbers + (mid << 2));
    if (value == block) return mid;
    if (value < block) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * A rare term's entry `c` (block `block` of `size` documents): its postings' scores into `into` (f64 per
 * slot) where above, marking `marks` (a byte per slot) for each scored document when `mark`. -1 when a
 * posting is outside the block.
 */
export function rareInto(form: i32, c: i32, block: i32, size: i32, into: i32, marks: i32, mark: bool): i32 {
  const docs = load<i32>(form + DOCS);
  const scores = load<i32>(form + SCORES);
  const origin = block * size;
  for (let j = column(form, STARTS, c); j < column(form, STARTS, c + 1); j++) {
    const score = load<f64>(scores + (j << 3));
    if (score == 0) continue;
    const slot = load<i32>(docs + (j << 2)) - origin;
    if (slot < 0 || slot >= size) return -1;
    const to = into + (slot << 3);
    if (score > load<f64>(to)) store<f64>(to, score);
    if (mark) store<u8>(marks + slot, 1);
  }
  return 0;
}

/**
 * impactsInto for the documents in `wanted` only, when the entry's documents are known to be those in
 * `documents` (a bit per slot of the block's 16): each one's impact is then found by its rank among them,
 * with no doc gap read (impactsByRank). 1 (nothing done) when the entry's count is not the number of those
 * documents.
 */
export function wantedImpactsInto(
  form: i32, c: i32, documents: i32, wanted: i32, weight: f64, into: i32, marks: i32, mark: bool,
): i32 {
  const count = column(form, COUNT, c);
  if (popcnt<i32>(documents) != count) return 1;
  const base = load<i32>(form + BASE);
  const masks = base + column(form, DATA_START, c);
  const impacts = masks + count;
  if (impacts + ((count + 1) >> 1) > base + column(form, DATA_END, c)) return -1;
  const bound = load<f64>(load<i32>(form + BOUND) + (c << 3));
  impactsByRank(masks, documents, wanted & documents, load<i32>(form + FIELDS), bound, weight, into, marks, mark);
  return 0;
}

/**
 * wantedImpactsInto's loop over the documents in `wanted` (all of them in `documents`), the entry's mask
 * bytes at `masks` and its impacts after them. A function of its own, exported (block-passes.as.ts) only so
 * that the optimizer keeps it so: the engine recompiles a function once the code run in it passes a budget,
 * each call counting the function's code up to its return and each loop turn the loop's; the blocks' bounds
 * from the impacts call this thousands of times in a first search of three common words at 100,000
 * documents, which brought the whole, in one function, within 12% of the budget.
 */
export function impactsByRank(
  masks: i32, documents: i32, wanted: i32, fields: i32, bound: f64, weight: f64, into: i32, marks: i32, mark: bool,
): void {
  const impacts = masks + popcnt<i32>(documents);
  for (let left = wanted; left != 0; left &= left - 1) {
    const slot = ctz<i32>(left);
    const j = popcnt<i32>(documents & ((1 << slot) - 1));
    if (!(<i32>load<u8>(masks + j) & fields)) continue;
    const level = (<i32>load<u8>(impacts + (j >> 1)) >> ((j & 1) << 2)) & 15;
    const value = ((bound * <f64>(level + 1)) / 16.0) * weight;
    const to = into + (slot << 3);
    if (value > load<f64>(to)) store<f64>(to, value);
    if (mark) store<u8>(marks + slot, 1);
  }
}

/**
 * A common term's entry `c` (block `block` of `size` documents): each document's bound from its impact (a
 * 4-bit sixteenth of the entry's bound, times the form's `weight`) into `into` (f64 per slot) where above,
 * for the documents in `wanted` (a bit per slot) with the term in one of the form's fields, marking `marks`
 * (a byte per slot) when `mark`. The doc gaps are read up to the last wanted document only. The body: doc
 * gaps, mask bytes, impacts (two to a byte), then the (tf, length) pairs. -1 when the body is not well formed.
 */
export function impactsInto(
  form: i32, c: i32, block: i32, size: i32, wanted: i32, weight: f64, into: i32, marks: i32, mark: bool,
): i32 {
  const base = load<i32>(form + BASE);
  const fields = load<i32>(form + FIELDS);
  const count = column(form, COUNT, c);
  const masks = base + column(form, DATA_START, c);
  const impacts = masks + count;
  if (impacts + ((count + 1) >> 1) > base + column(form, DATA_END, c)) return -1;
  const bound = load<f64>(load<i32>(form + BOUND) + (c << 3));
  setCursor(base + column(form, DOC_START, c));
  const last = 31 - clz<i32>(wanted);
  let slot = -1;
  for (let j = 0; j < count; j++) {
    slot = nextSlot(slot, masks, size);
    if (slot < 0) return -1;
    if (slot > last) break;
    if (!((wanted >> slot) & 1) || !(<i32>load<u8>(masks + j) & fields)) continue;
    const level = (<i32>load<u8>(impacts + (j >> 1)) >> ((j & 1) << 2)) & 15;
    const value = ((bound * <f64>(level + 1)) / 16.0) * weight;
    const to = into + (slot << 3);
    if (value > load<f64>(to)) store<f64>(to, value);
    if (mark) store<u8>(marks + slot, 1);
  }
  return 0;
}
