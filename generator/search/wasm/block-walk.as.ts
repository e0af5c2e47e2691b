// The walk over a query's blocks (scoring.ts), in WebAssembly: blocks visited best coarse bound first, each
// dropped by the cheapest bound that proves it cannot reach the page (the impacts of the walk's next
// blocks, the quick and tight bounds from the words' sets, each document's bound from the impacts), the
// others scored word by word into a heap of the page's size. block-walk.ts lays out the memory and the
// context (WALK_FIELDS there, in this file's order). Arithmetic is the JavaScript rules' (ranking.ts,
// postings-codec.ts), operation for operation on IEEE doubles, so scores are identical to theirs.
import { impactBlockBounds, impactBounds } from './block-passes.as';
import { cursor, readVarint, setCursor } from './varint.as';

// The context's i32 fields, by index (block-walk.ts WALK_FIELDS).
const FORMS = 0;
const FORM_COUNT = 1;
const FORM_WEIGHTS = 2;
const WORD_FORMS = 3;
const WORDS = 4;
const BLOCKS = 5;
const BEST = 6;
const COARSE = 7;
const ORDER = 8;
const ORDER_LENGTH = 9;
const STARTS = 10;
const BUCKET_BEST = 11;
const FOUND = 12;
const EXACT = 13;
const SET_BYTES = 14;
const FIRST = 15;
const END = 16;
const SIZE = 17;
const AT_ONCE = 18;
const CAPACITY = 19;
const KEYS = 20;
const RAWS = 21;
const SCRATCH = 22;
const TIERS = 23;
const IMPACT_OUT = 24;
const SLOTS = 25;
const WORD_BOUNDS = 26;
const IMPACTS = 27;
const SCORE_BEST = 28;
const SCORE_EXACT = 29;
const WORD_ORDER = 30;
const AVERAGES = 31;
const SATURATED = 32;
const GAP_SLOTS = 33;
const HEAP_COUNT = 34;
const IMPACTS_AFTER = 35;
const IMPACTS_CHUNK = 36;
const BUCKETS = 37;

let ctx: i32 = 0;
let words: i32 = 0;
let blocks: i32 = 0;
let size: i32 = 0;
let first: i32 = 0;
let end: i32 = 0;
let capacity: i32 = 0;
let heapCount: i32 = 0;
let saturation: f64 = 0;
let room: f64 = 0;
let span: f64 = 0;
let k: f64 = 0;
let b: f64 = 0;
let d: f64 = 0;

// @ts-ignore: decorator
@inline
function field(index: i32): i32 {
  return load<i32>(ctx + (index << 2));
}

/** Binds the walk to the context at `at` and the knobs (ranking.ts), for the exports below. */
export function bindWalk(at: i32, sat: f64, boundRoom: f64, heapSpan: f64, k1: f64, bm25b: f64, delta: f64): void {
  ctx = at;
  words = field(WORDS);
  blocks = field(BLOCKS);
  size = field(SIZE);
  first = field(FIRST);
  end = field(END);
  capacity = field(CAPACITY);
  heapCount = 0;
  saturation = sat;
  room = boundRoom;
  span = heapSpan;
  k = k1;
  b = bm25b;
  d = delta;
}

// The page so far: a min-heap of keys, each a result's score units above its inverted document, so plain
// comparison ranks them (score, then document order: type, then id).

function lowestUnits(): f64 {
  return Math.floor(load<f64>(field(KEYS)) / span);
}

/** Whether `bound` cannot reach the page (scoring.ts `below`). */
function below(bound: f64): bool {
  if (capacity < 0 || heapCount < capacity) return false;
  return Math.ceil(bound * 10000.0 * room) < lowestUnits();
}

function swap(keys: i32, raws: i32, a: i32, c: i32): void {
  const key = load<f64>(keys + (a << 3));
  const raw = load<f64>(raws + (a << 3));
  store<f64>(keys + (a << 3), load<f64>(keys + (c << 3)));
  store<f64>(raws + (a << 3), load<f64>(raws + (c << 3)));
  store<f64>(keys + (c << 3), key);
  store<f64>(raws + (c << 3), raw);
}

/** Offers a result; -2 when its key is no safe integer. */
function push(units: f64, document: i32, raw: f64): i32 {
  const key = units * span + (span - 1.0 - <f64>document);
  if (!(key <= 9007199254740991.0)) return -2;
  const keys = field(KEYS);
  const raws = field(RAWS);
  if (capacity < 0 || heapCount < capacity) {
    let at = heapCount++;
    store<f64>(keys + (at << 3), key);
    store<f64>(raws + (at << 3), raw);
    if (capacity < 0) return 0;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (load<f64>(keys + (parent << 3)) <= load<f64>(keys + (at << 3))) break;
      swap(keys, raws, at, parent);
      at = parent;
    }
  } else if (key > load<f64>(keys)) {
    store<f64>(keys, key);
    store<f64>(raws, raw);
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heapCount) break;
      if (child + 1 < heapCount && load<f64>(keys + ((child + 1) << 3)) < load<f64>(keys + (child << 3))) child++;
      if (load<f64>(keys + (child << 3)) >= load<f64>(keys + (at << 3))) break;
      swap(keys, raws, at, child);
      at = child;
    }
  }
  return 0;
}

/** scoring.ts scoreUnits: ten-thousandths, rounded as Math.round (halves up), at least 1. */
function scoreUnits(raw: f64): f64 {
  const x = raw * 10000.0;
  let r = Math.floor(x);
  if (x - r >= 0.5) r += 1.0;
  return r < 1.0 ? 1.0 : r;
}

// @ts-ignore: decorator
@inline
function tier(index: i32): f64 {
  return load<f64>(field(TIERS) + (index << 3));
}

// @ts-ignore: decorator
@inline
function wordBest(u: i32, block: i32): f64 {
  return load<f64>(field(BEST) + ((u * blocks + block) << 3));
}

// @ts-ignore: decorator
@inline
function hasBit(sets: i32, u: i32, document: i32): bool {
  return ((<i32>load<u8>(field(sets) + u * field(SET_BYTES) + (document >> 3)) >> (document & 7)) & 1) != 0;
}

/**
 * The quick bound of `block`: the most words one document of it is found with (a bit-sliced
 * count of the words' 16-bit sets), times the most one word may add there.
 */
export function quickBound(block: i32): f64 {
  if (size != 16 || words > 15) return Infinity;
  const exactFound = tier(1);
  let one = 0;
  let two = 0;
  let four = 0;
  let eight = 0;
  let most = 0.0;
  for (let u = 0; u < words; u++) {
    const set = <i32>load<u16>(field(FOUND) + u * field(SET_BYTES) + block * 2);
    if (set == 0) continue;
    const carry1 = one & set;
    one ^= set;
    const carry2 = two & carry1;
    two ^= carry1;
    const carry4 = four & carry2;
    four ^= carry2;
    eight |= carry4;
    const bound = wordBest(u, block);
    const best = exactFound + bound / (bound + saturation);
    if (best > most) most = best;
  }
  let count = 0;
  let slots = 0xffff;
  if (slots & eight) {
    slots &= eight;
    count |= 8;
  }
  if (slots & four) {
    slots &= four;
    count |= 4;
  }
  if (slots & two) {
    slots &= two;
    count |= 2;
  }
  if (slots & one) count |= 1;
  return <f64>count * most + (count == words ? tier(4) : 0.0);
}

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
    const value = document >= first && document < end ? sum : 0.0;
    store<f64>(slots + (slot << 3), value);
    if (value > best) best = value;
  }
  return best;
}

/**
 * Word `u`'s bound in each document of `block` (`bounds`, f64 per word and
 * slot) replaced in the slots by what `scores` (f64 per slot) say it adds; the best slot.
 */
function lowerSlots(block: i32, u: i32, scores: i32): f64 {
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

/** Index of `block` in form `f`'s sorted block numbers, or -1 (prepared-form.ts findBlock). */
function findBlock(f: i32, block: i32): i32 {
  const descriptor = field(FORMS) + f * 48;
  const n = load<i32>(descriptor + 12);
  const column = load<i32>(descriptor + 16);
  if (block < n && load<i32>(column + (block << 2)) == block) return block;
  let low = 0;
  let high = n - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = load<i32>(column + (mid << 2));
    if (value == block) return mid;
    if (value < block) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

// @ts-ignore: decorator
@inline
function column(descriptor: i32, at: i32, c: i32): i32 {
  return load<i32>(load<i32>(descriptor + at) + (c << 2));
}

/** Form `f`'s bound in each document of its entry `c` (block `block`) into the impacts, where above. -1: malformed. */
function boundsInto(f: i32, c: i32, block: i32): i32 {
  const descriptor = field(FORMS) + f * 48;
  const into = field(IMPACTS);
  const weight = load<f64>(field(FORM_WEIGHTS) + (f << 6));
  if (load<i32>(descriptor + 8) == 1) {
    const bound = load<f64>(load<i32>(descriptor + 36) + (c << 3));
    const base = load<i32>(descriptor + 40);
    const fields = load<i32>(descriptor + 44);
    return impactBounds(
      base, column(descriptor, 20, c), column(descriptor, 24, c), column(descriptor, 28, c), column(descriptor, 32, c),
      block * size, size, bound, weight, fields, into,
    );
  }
  const docs = load<i32>(descriptor + 24);
  const scores = load<i32>(descriptor + 28);
  for (let j = column(descriptor, 20, c); j < column(descriptor, 20, c + 1); j++) {
    const slot = load<i32>(docs + (j << 2)) - block * size;
    if (slot < 0 || slot >= size) return -1;
    const score = load<f64>(scores + (j << 3));
    if (score > load<f64>(into + (slot << 3))) store<f64>(into + (slot << 3), score);
  }
  return 0;
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
      const at = findBlock(f, block);
      if (at >= 0 && boundsInto(f, at, block) < 0) return -1;
    }
    const best = lowerSlots(block, u, impacts);
    memory.copy(bounds + ((u * size) << 3), impacts, size << 3);
    if (below(best)) return 1;
  }
  return 0;
}

/** ranking.ts bm25: BM25+ of one posting, `idf` given. */
// @ts-ignore: decorator
@inline
function bm25(idf: f64, tf: f64, length: f64, average: f64): f64 {
  return idf * (d + (tf * (k + 1.0)) / (tf + k * (1.0 - b + (b * length) / average)));
}

/**
 * A common term's entry `c` (block `block`) decoded and scored in one pass, each document's
 * weighted score into the word's best scores at `into` (f64 per slot), marking `exact` (a byte per slot)
 * for the word's own term. -1: malformed.
 */
function scoreCommon(f: i32, c: i32, block: i32, into: i32, exact: i32): i32 {
  const descriptor = field(FORMS) + f * 48;
  const base = load<i32>(descriptor + 40);
  const fields = load<i32>(descriptor + 44);
  const isExact = load<i32>(descriptor + 4);
  const weights = field(FORM_WEIGHTS) + (f << 6);
  const weight = load<f64>(weights);
  const averages = field(AVERAGES);
  const docs = field(GAP_SLOTS);
  const count = column(descriptor, 32, c);
  const stop = base + column(descriptor, 28, c);
  let document = block * size - 1;
  setCursor(base + column(descriptor, 20, c));
  for (let i = 0; i < count; i++) {
    const gap = readVarint(stop, 5);
    if (<u64>gap > <u64>size) return -1;
    document += <i32>gap;
    const slot = document - block * size;
    if (slot < 0 || slot >= size) return -1;
    store<i32>(docs + (i << 2), slot);
  }
  if (cursor != base + column(descriptor, 24, c)) return -1;
  // The mask bytes follow the doc gaps; the (tf, length) pairs follow the masks and the impacts.
  const masks = cursor;
  setCursor(masks + count + ((count + 1) >> 1));
  for (let i = 0; i < count; i++) {
    const mask = <i32>load<u8>(masks + i);
    if (mask == 0 || mask > 31) return -1;
    let sum = 0.0;
    for (let id = 0; id < 5; id++) {
      if (!(mask & (1 << id))) continue;
      const tf = readVarint(stop, 5);
      const length = readVarint(stop, 5);
      if (tf < 0 || length < 0) return -1;
      if (fields & (1 << id)) sum += bm25(load<f64>(weights + ((1 + id) << 3)), <f64>tf, <f64>length, load<f64>(averages + (id << 3)));
    }
    if (sum == 0) continue;
    const score = weight * sum;
    const slot = load<i32>(docs + (i << 2));
    const to = into + (slot << 3);
    if (score > load<f64>(to)) store<f64>(to, score);
    if (isExact) store<u8>(exact + slot, 1);
  }
  return cursor == stop ? 0 : -1;
}

/** A rare term's entry `c`: its postings scored already (prepared-form.ts), into the word's best scores. */
function scoreRare(f: i32, c: i32, block: i32, into: i32, exact: i32): i32 {
  const descriptor = field(FORMS) + f * 48;
  const isExact = load<i32>(descriptor + 4);
  const docs = load<i32>(descriptor + 24);
  const scores = load<i32>(descriptor + 28);
  for (let j = column(descriptor, 20, c); j < column(descriptor, 20, c + 1); j++) {
    const score = load<f64>(scores + (j << 3));
    if (score == 0) continue;
    const slot = load<i32>(docs + (j << 2)) - block * size;
    if (slot < 0 || slot >= size) return -1;
    if (score > load<f64>(into + (slot << 3))) store<f64>(into + (slot << 3), score);
    if (isExact) store<u8>(exact + slot, 1);
  }
  return 0;
}

/**
 * scoring.ts scoreBlock: every document of `block` scored word by word, in the walk's word order, into the
 * page; after each word the documents' bounds take its real score, and once none can reach the page the
 * block's other words are not decoded. 0, or -1 (malformed) / -2 (a score out of range).
 */
function scoreBlock(block: i32): i32 {
  const best = field(SCORE_BEST);
  const exact = field(SCORE_EXACT);
  const order = field(WORD_ORDER);
  const wordForms = field(WORD_FORMS);
  memory.fill(best, 0, (words * size) << 3);
  memory.fill(exact, 0, words * size);
  for (let w = 0; w < words; w++) {
    const u = load<i32>(order + (w << 2));
    const into = best + ((u * size) << 3);
    for (let f = load<i32>(wordForms + (u << 2)); f < load<i32>(wordForms + ((u + 1) << 2)); f++) {
      const at = findBlock(f, block);
      if (at < 0) continue;
      const common = load<i32>(field(FORMS) + f * 48 + 8) == 1;
      const status = common ? scoreCommon(f, at, block, into, exact + u * size) : scoreRare(f, at, block, into, exact + u * size);
      if (status < 0) return status;
    }
    if (w < words - 1 && below(lowerSlots(block, u, into))) return 0;
  }
  for (let slot = 0; slot < size; slot++) {
    const document = block * size + slot;
    if (document < first || document >= end) continue;
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

/** scoring.ts orderWords: the word order put widest bound in `block` first, ties by word (an insertion sort). */
function orderWords(block: i32): void {
  const order = field(WORD_ORDER);
  for (let i = 1; i < words; i++) {
    const u = load<i32>(order + (i << 2));
    const bound = wordBest(u, block);
    let j = i - 1;
    for (; j >= 0; j--) {
      const other = load<i32>(order + (j << 2));
      const value = wordBest(other, block);
      if (value > bound || (value == bound && other < u)) break;
      store<i32>(order + ((j + 1) << 2), other);
    }
    store<i32>(order + ((j + 1) << 2), u);
  }
}

/**
 * scoring.ts's walk: the blocks in order (bucket by bucket, a bucket whose best bound cannot reach the page
 * ending it), each dropped by the first bound below the page or scored. The page's size is in the heap's
 * count (HEAP_COUNT). 0, or -1 (malformed) / -2 (a score out of range).
 */
export function walk(): i32 {
  const order = field(ORDER);
  const starts = field(STARTS);
  const coarse = field(COARSE);
  const out = field(IMPACT_OUT);
  const atOnce = field(AT_ONCE) != 0;
  const length = field(ORDER_LENGTH);
  let visited = 0;
  let impacts = false;
  let boundedTo = 0;
  for (let w = 0; w < words; w++) store<i32>(field(WORD_ORDER) + (w << 2), w);
  for (let bucket = 0; bucket < field(BUCKETS); bucket++) {
    const from = load<i32>(starts + (bucket << 2));
    const to = load<i32>(starts + ((bucket + 1) << 2));
    if (from == to) continue;
    if (below(load<f64>(field(BUCKET_BEST) + (bucket << 3)))) break;
    for (let i = from; i < to; i++) {
      const block = load<i32>(order + (i << 2));
      if (below(load<f64>(coarse + (block << 3)))) continue;
      if (++visited >= field(IMPACTS_AFTER) && atOnce && i >= boundedTo) {
        boundedTo = min(length, i + field(IMPACTS_CHUNK));
        const status = impactBlockBounds(
          field(FORMS), field(FORM_COUNT), field(FORM_WEIGHTS), words, first, end, size, order + (i << 2), boundedTo - i,
          field(TIERS), saturation, field(SCRATCH), out,
        );
        if (status < 0) return status;
        impacts = true;
      }
      if ((impacts && below(load<f64>(out + (block << 3)))) || (words > 1 && below(quickBound(block)))) continue;
      if (below(tightBound(block))) continue;
      orderWords(block);
      const dropped = lowerByImpacts(block);
      if (dropped < 0) return dropped;
      if (dropped == 1) continue;
      const status = scoreBlock(block);
      if (status < 0) return status;
    }
  }
  store<i32>(ctx + (HEAP_COUNT << 2), heapCount);
  return 0;
}

/**
 * prepared-form.ts for a rare term's form: its `count` postings (documents at `docs`, i32; masks at `masks`,
 * u8; tf and length per posting and field, 5 apart, u32 at `tf` and `lengths`) scored where their mask meets
 * the form's `fields` (`weights`: the form's weight, then per field boost * idf; `averages` per field; f64),
 * into `scores` (f64 per posting); its blocks of `size` documents (i32 at `blocks`), each one's best score
 * (f64 at `bounds`) and first posting (i32 at `starts`, one more at the end). Returns how many blocks.
 */
export function prepareRare(
  count: i32, docs: i32, masks: i32, tf: i32, lengths: i32, fields: i32, weights: i32, averages: i32, blockSize: i32,
  k1: f64, bm25b: f64, delta: f64, scores: i32, blocks: i32, bounds: i32, starts: i32,
): i32 {
  k = k1;
  b = bm25b;
  d = delta;
  const weight = load<f64>(weights);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const mask = <i32>load<u8>(masks + i) & fields;
    let score = 0.0;
    if (mask) {
      let sum = 0.0;
      for (let id = 0; id < 5; id++) {
        if (!(mask & (1 << id))) continue;
        const at = (i * 5 + id) << 2;
        const idf = load<f64>(weights + ((1 + id) << 3));
        sum += bm25(idf, <f64>load<u32>(tf + at), <f64>load<u32>(lengths + at), load<f64>(averages + (id << 3)));
      }
      score = weight * sum;
    }
    store<f64>(scores + (i << 3), score);
    const block = <i32>Math.floor(<f64>load<i32>(docs + (i << 2)) / <f64>blockSize);
    if (n == 0 || load<i32>(blocks + ((n - 1) << 2)) != block) {
      store<i32>(blocks + (n << 2), block);
      store<f64>(bounds + (n << 3), 0);
      store<i32>(starts + (n << 2), i);
      n++;
    }
    const best = bounds + ((n - 1) << 3);
    if (score > load<f64>(best)) store<f64>(best, score);
  }
  store<i32>(starts + (n << 2), count);
  return n;
}
