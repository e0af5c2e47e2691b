// The walk's state, shared by the modules that bound, score and walk a query's blocks: the context the
// JavaScript side writes (block-walk.ts WALK_FIELDS, in this file's order, one i32 each), the values read
// from it once per walk, and the ranking knobs (ranking.ts). Only bindState and setKnobs write them.

// The context's i32 fields, by index (block-walk.ts WALK_FIELDS).
export const FORMS = 0;
export const FORM_COUNT = 1;
export const FORM_WEIGHTS = 2;
export const WORD_FORMS = 3;
const WORDS = 4;
const BLOCKS = 5;
const BEST = 6;
export const ORDER_BOUND = 7;
export const ORDER = 8;
export const ORDER_LENGTH = 9;
export const STARTS = 10;
export const BUCKET_BEST = 11;
export const FOUND = 12;
export const EXACT = 13;
export const SET_BYTES = 14;
const FIRST = 15;
const END = 16;
const SIZE = 17;
export const AT_ONCE = 18;
const CAPACITY = 19;
export const KEYS = 20;
export const RAWS = 21;
export const SCRATCH = 22;
export const TIERS = 23;
export const IMPACT_OUT = 24;
export const SLOTS = 25;
export const WORD_BOUNDS = 26;
export const IMPACTS = 27;
export const SCORE_BEST = 28;
export const SCORE_EXACT = 29;
export const WORD_ORDER = 30;
export const AVERAGES = 31;
export const SATURATED = 32;
export const GAP_SLOTS = 33;
export const HEAP_COUNT = 34;
export const IMPACTS_AFTER = 35;
export const IMPACTS_CHUNK = 36;
export const BUCKETS = 37;
export const CHUNK = 38;

export let ctx: i32 = 0;
export let words: i32 = 0;
export let blocks: i32 = 0;
export let size: i32 = 0;
export let first: i32 = 0;
export let end: i32 = 0;
export let capacity: i32 = 0;
export let saturation: f64 = 0;
export let room: f64 = 0;
export let span: f64 = 0;
let k: f64 = 0;
let b: f64 = 0;
let d: f64 = 0;

/** The context's field `index`. */
// @ts-ignore: decorator
@inline
export function field(index: i32): i32 {
  return load<i32>(ctx + (index << 2));
}

/** Binds the walk's state to the context at `at` and the knobs (ranking.ts). */
export function bindState(at: i32, sat: f64, boundRoom: f64, heapSpan: f64, k1: f64, bm25b: f64, delta: f64): void {
  ctx = at;
  words = field(WORDS);
  blocks = field(BLOCKS);
  size = field(SIZE);
  first = field(FIRST);
  end = field(END);
  capacity = field(CAPACITY);
  saturation = sat;
  room = boundRoom;
  span = heapSpan;
  setKnobs(k1, bm25b, delta);
}

/** The BM25+ knobs (ranking.ts) bm25 uses. */
export function setKnobs(k1: f64, bm25b: f64, delta: f64): void {
  k = k1;
  b = bm25b;
  d = delta;
}

/** ranking.ts bm25: BM25+ of one posting, `idf` given. */
// @ts-ignore: decorator
@inline
export function bm25(idf: f64, tf: f64, length: f64, average: f64): f64 {
  return idf * (d + (tf * (k + 1.0)) / (tf + k * (1.0 - b + (b * length) / average)));
}

/** A word's tier (block-bounds.ts WordTiers: found, exact, found in a complete match, exact in one, complete). */
// @ts-ignore: decorator
@inline
export function tier(index: i32): f64 {
  return load<f64>(field(TIERS) + (index << 3));
}

/** Word `u`'s best weighted score in `block`. */
// @ts-ignore: decorator
@inline
export function wordBest(u: i32, block: i32): f64 {
  return load<f64>(field(BEST) + ((u * blocks + block) << 3));
}

/** Word `u`'s set `sets` (FOUND or EXACT) in `block`: a bit per document of its 16 (its slot's). */
// @ts-ignore: decorator
@inline
export function blockSet(sets: i32, u: i32, block: i32): i32 {
  return <i32>load<u16>(field(sets) + u * field(SET_BYTES) + (block << 1));
}
