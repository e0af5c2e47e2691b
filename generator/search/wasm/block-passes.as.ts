// The passes over a common term's blocks, in WebAssembly (AssemblyScript): a fresh isolate compiles this
// small module at once (baseline compiler) and runs it at machine speed, where the same loops in JavaScript
// run unoptimized, then cost the optimizing compilers' time as well. block-passes.ts is the JavaScript side
// (memory layout, checks); compile-block-passes.ts turns this file into block-passes-binary.ts.
// Pointers are byte offsets into the module's memory, laid out by the JavaScript side. Arithmetic on
// numbers is the JavaScript reader's, operation for operation (IEEE doubles), so results are identical.

import { cursor, readVarint, setCursor } from './varint.as';

/** What decodeTable found besides the entries: the bytes of the blocks' bodies, and the last block number. */
let bodyBytes: i64 = 0;
let lastBlock: i64 = 0;

export function tableBody(): f64 {
  return <f64>bodyBytes;
}

export function tableLastBlock(): f64 {
  return <f64>lastBlock;
}

/**
 * Decodes `count` block-table entries (postings-codec.ts: blockGap, count, docBytes, dataBytes, level) from
 * memory `[at, end)` into six columns from `out`: block, count, docStart, dataStart, dataEnd (i32; positions
 * in the record's bytes, memory offset 0 being `origin` there) and bound (f64, at `bounds`). Returns where
 * the table ends, or -1 when the bytes are not a well-formed table.
 */
export function decodeTable(at: i32, end: i32, count: i32, size: i32, top: f64, out: i32, bounds: i32, origin: i32): i32 {
  let current: i64 = -1;
  let body: i64 = 0;
  for (let i = 0; i < count; i++) {
    if (at + 5 > end) return -1;
    setCursor(at);
    let value = readVarint(end, 5);
    if (value < 0) return -1;
    at = cursor;
    current += value;
    store<i32>(out + (i << 2), <i32>current);
    const n = <i32>load<u8>(at++);
    if (n == 0 || n > size) return -1;
    store<i32>(out + ((count + i) << 2), n);
    store<i32>(out + ((2 * count + i) << 2), <i32>body);
    setCursor(at);
    value = readVarint(end, 5);
    if (value < 0) return -1;
    at = cursor;
    body += value;
    store<i32>(out + ((3 * count + i) << 2), <i32>body);
    if (at >= end) return -1;
    setCursor(at);
    value = readVarint(end, 5);
    if (value < 0) return -1;
    at = cursor;
    body += value;
    store<i32>(out + ((4 * count + i) << 2), <i32>body);
    if (at >= end) return -1;
    const level = <i32>load<u8>(at++);
    if (level == 0 || level > 255) return -1;
    store<f64>(bounds + (i << 3), (top * <f64>level) / 255.0);
  }
  bodyBytes = body;
  lastBlock = current;
  // Body offsets made positions in the record's bytes: `origin` is where memory offset 0 is in them.
  const base = origin + at;
  for (let i = 2 * count; i < 5 * count; i++) store<i32>(out + (i << 2), load<i32>(out + (i << 2)) + base);
  return at;
}

/**
 * block-bounds.ts blockBounds for one form of word `base / blocks`: its `n` entries (blocks at `list`, i32;
 * bounds at `bound`, f64) into the word's bounds (`all + base * 8`), marking `exact` (a byte per block) and
 * listing each block the word reaches first in `touched` from `count`. Returns the new count, -1 when a
 * block number is out of range.
 */
export function formBounds(list: i32, bound: i32, n: i32, blocks: i32, all: i32, exact: i32, touched: i32, count: i32, isExact: i32): i32 {
  for (let i = 0; i < n; i++) {
    const block = load<i32>(list + (i << 2));
    const value = load<f64>(bound + (i << 3));
    if (!(block >= 0 && block < blocks)) return -1;
    if (value == 0) continue;
    const at = all + (block << 3);
    const was = load<f64>(at);
    if (was == 0) {
      store<i32>(touched + (count << 2), block);
      count++;
      store<u8>(exact + block, 0);
    }
    if (value > was) store<f64>(at, value);
    if (isExact) store<u8>(exact + block, 1);
  }
  return count;
}

/**
 * The word's share of each touched block's coarse bound (`coarse`, f64 per block): its tiers (`exactTier`
 * when its own term is there, else `foundTier`) plus its saturated bound, and a complete match's tier
 * (`complete`) in blocks where every one of `words` words has its own term (`exactWords`, i32 per block).
 */
export function wordBounds(
  touched: i32, count: i32, all: i32, exact: i32, coarse: i32, exactWords: i32,
  foundTier: f64, exactTier: f64, saturation: f64, words: i32, complete: f64,
): void {
  for (let i = 0; i < count; i++) {
    const block = load<i32>(touched + (i << 2));
    const bound = load<f64>(all + (block << 3));
    const isExact = load<u8>(exact + block) == 1;
    const at = coarse + (block << 3);
    let sum = load<f64>(at) + ((isExact ? exactTier : foundTier) + bound / (bound + saturation));
    if (isExact) {
      const w = exactWords + (block << 2);
      const n = load<i32>(w) + 1;
      store<i32>(w, n);
      if (n == words) sum += complete;
    }
    store<f64>(at, sum);
  }
}

const BUCKETS = 4096;

/**
 * block-bounds.ts blockOrder: the blocks in `[first, end)` with a coarse bound (`coarse`, f64 per block),
 * best bound first by buckets (a counting sort): `order` (i32), each bucket's start (`starts`, BUCKETS + 1
 * i32, zeroed) and best bound (`bucketBest`, BUCKETS f64, zeroed); `bucketOf` (i32 per block of the range)
 * and `next` (BUCKETS i32) are scratch. Returns how many blocks `order` holds.
 */
export function blockOrder(coarse: i32, first: i32, end: i32, starts: i32, bucketBest: i32, order: i32, bucketOf: i32, next: i32): i32 {
  let low = Infinity;
  let high = 0.0;
  for (let block = first; block < end; block++) {
    const bound = load<f64>(coarse + (block << 3));
    if (bound == 0) continue;
    if (bound < low) low = bound;
    if (bound > high) high = bound;
  }
  const scale = high > low ? <f64>(BUCKETS - 1) / (high - low) : 0.0;
  for (let block = first; block < end; block++) {
    const bound = load<f64>(coarse + (block << 3));
    const at = bucketOf + ((block - first) << 2);
    if (bound == 0) {
      store<i32>(at, -1);
      continue;
    }
    const bucket = BUCKETS - 1 - <i32>Math.floor((bound - low) * scale);
    store<i32>(at, bucket);
    const start = starts + ((bucket + 1) << 2);
    store<i32>(start, load<i32>(start) + 1);
  }
  for (let b = 0; b < BUCKETS; b++) store<i32>(starts + ((b + 1) << 2), load<i32>(starts + ((b + 1) << 2)) + load<i32>(starts + (b << 2)));
  memory.copy(next, starts, BUCKETS << 2);
  for (let block = first; block < end; block++) {
    const bucket = load<i32>(bucketOf + ((block - first) << 2));
    if (bucket < 0) continue;
    const slot = next + (bucket << 2);
    const index = load<i32>(slot);
    store<i32>(slot, index + 1);
    store<i32>(order + (index << 2), block);
    const bound = load<f64>(coarse + (block << 3));
    const best = bucketBest + (bucket << 3);
    if (bound > load<f64>(best)) store<f64>(best, bound);
  }
  return load<i32>(starts + (BUCKETS << 2));
}

/**
 * For a common term (block-walk.as.ts boundsInto): each document of one block body, from its impact (a 4-bit
 * sixteenth of the block's `bound`, times the form's `weight`), into `into` (f64 per slot of the block,
 * where above what is there), for the documents with the term in one of `fields`. The body is at
 * `base + docStart` (doc gaps, from document `first - 1`), its mask bytes at `base + masks`, then its
 * impacts; `dataEnd` ends it. Returns 0, or -1 when the body is not well formed.
 */
export function impactBounds(
  base: i32, docStart: i32, masks: i32, dataEnd: i32, count: i32, first: i32, size: i32,
  bound: f64, weight: f64, fields: i32, into: i32,
): i32 {
  const impacts = masks + count;
  if (impacts + ((count + 1) >> 1) > dataEnd) return -1;
  const end = base + masks;
  let document = first - 1;
  setCursor(base + docStart);
  for (let j = 0; j < count; j++) {
    const gap = readVarint(end, 5);
    if (<u64>gap > <u64>size) return -1;
    document += <i32>gap;
    const slot = document - first;
    if (slot < 0 || slot >= size) return -1;
    if (!(<i32>load<u8>(base + masks + j) & fields)) continue;
    const n = (<i32>load<u8>(base + impacts + (j >> 1)) >> ((j & 1) << 2)) & 15;
    const value = ((bound * <f64>(n + 1)) / 16.0) * weight;
    const to = into + (slot << 3);
    if (value > load<f64>(to)) store<f64>(to, value);
  }
  return 0;
}

/**
 * match-count.ts addForm for a common term: sets, in the set of documents at `bits` (a bit each), the
 * documents of the term's `n` blocks (columns at `columns`: block, count, docStart, dataStart, dataEnd, i32
 * each) that have it in one of `fields`, in the blocks that meet `[first, end)`. The record's shard
 * position 0 is at `base`. Returns 0, or -1 when a body is not well formed.
 */
export function formBits(base: i32, columns: i32, n: i32, size: i32, fields: i32, first: i32, end: i32, bits: i32): i32 {
  for (let i = 0; i < n; i++) {
    const block = load<i32>(columns + (i << 2));
    if ((block + 1) * size <= first || block * size >= end) continue;
    const count = load<i32>(columns + ((n + i) << 2));
    const masks = base + load<i32>(columns + ((3 * n + i) << 2));
    if (masks + count > base + load<i32>(columns + ((4 * n + i) << 2))) return -1;
    let document = block * size - 1;
    setCursor(base + load<i32>(columns + ((2 * n + i) << 2)));
    for (let j = 0; j < count; j++) {
      const gap = readVarint(masks, 5);
      if (<u64>gap > <u64>size) return -1;
      document += <i32>gap;
      if (document < block * size || document >= (block + 1) * size) return -1;
      if (!(<i32>load<u8>(masks + j) & fields)) continue;
      const byte = bits + (document >> 3);
      store<u8>(byte, <u8>(<i32>load<u8>(byte) | (1 << (document & 7))));
    }
  }
  return 0;
}

/** match-count.ts addForm for a dense term: its bitset (`bytes` bytes at `from`) OR-ed into the set at `into`. */
export function orBytes(into: i32, from: i32, bytes: i32): void {
  let i = 0;
  for (; i + 8 <= bytes; i += 8) store<i64>(into + i, load<i64>(into + i) | load<i64>(from + i));
  for (; i < bytes; i++) store<u8>(into + i, load<u8>(into + i) | load<u8>(from + i));
}

/**
 * match-count.ts wordBits' total: the documents in `[first, end)` in any of the `count` sets from `sets`
 * (`setBytes` apart, a bit per document, 32 documents a little-endian word), counted a word at a time.
 */
export function unionCount(sets: i32, count: i32, setBytes: i32, first: i32, end: i32): i32 {
  if (first >= end) return 0;
  const last = (end - 1) >> 5;
  let total = 0;
  for (let w = first >> 5; w <= last; w++) {
    let union = 0;
    for (let u = 0; u < count; u++) union |= load<i32>(sets + u * setBytes + (w << 2));
    if (w == first >> 5) union &= -1 << (first & 31);
    if (w == last && (end & 31) != 0) union &= (1 << (end & 31)) - 1;
    total += popcnt<i32>(union);
  }
  return total;
}

/**
 * postings-codec.ts decodePostings for a rare term's record: `count` postings (docGap, fieldMask, a (tf,
 * length) pair per field in the mask) from memory `[at, end)`, documents counted from -1, into columns:
 * documents (i32 at `docs`), masks (u8 at `masks`), tf and length per posting and field (u32, `fields`
 * apart, at `tf` and `lengths`; zeroed by the caller). Returns where the postings end, -1 when malformed.
 */
export function decodeRare(at: i32, end: i32, count: i32, fields: i32, docs: i32, masks: i32, tf: i32, lengths: i32): i32 {
  let document: i64 = -1;
  const all = (1 << fields) - 1;
  setCursor(at);
  for (let i = 0; i < count; i++) {
    let value = readVarint(end, 8);
    if (value < 0) return -1;
    document += value;
    store<i32>(docs + (i << 2), <i32>document);
    value = readVarint(end, 8);
    if (value < 0) return -1;
    if (value == 0 || value > all) return -1;
    const mask = <i32>value;
    store<u8>(masks + i, <u8>mask);
    for (let field = 0; field < fields; field++) {
      if (!(mask & (1 << field))) continue;
      const to = (i * fields + field) << 2;
      value = readVarint(end, 8);
      if (value < 0) return -1;
      store<i32>(tf + to, <i32>value);
      value = readVarint(end, 8);
      if (value < 0) return -1;
      store<i32>(lengths + to, <i32>value);
    }
  }
  return cursor;
}

/**
 * The bound lowerByImpacts (block-walk.as.ts) gives, for the `listLength` blocks at `list` (i32) at once, before the walk needs it: per block, the best over its
 * documents in `[first, end)` of the sum over the words found there of the word's tiers (`tiers`: f64 found,
 * exact, found in a complete match, exact in one) and its saturated bound in that very document, the best
 * of its forms' (a common term's impact times the form's weight, a rare term's exact score). Into `out` (f64
 * per block). `forms`: 12 i32 per form: word, isExact, kind (1 common, 0 rare), entries, then columns:
 * block, and for a common term docStart, dataStart, dataEnd, count, bound (f64), its record's base and
 * fields; for a rare one starts (entries + 1), documents and scores (f64). `weights`: 8 f64 per form, the form's weight first (block-walk.as.ts reads the rest).
 * `scratch` (words * size f64, then words * size bytes) is work space. -1: malformed.
 */
export function impactBlockBounds(
  forms: i32, formCount: i32, weights: i32, words: i32, first: i32, end: i32, size: i32, list: i32, listLength: i32,
  tiers: i32, saturation: f64, scratch: i32, out: i32,
): i32 {
  const flags = scratch + words * size * 8;
  for (let k = 0; k < listLength; k++) {
    const block = load<i32>(list + (k << 2));
    memory.fill(scratch, 0, words * size * 9);
    for (let f = 0; f < formCount; f++) {
      const d = forms + f * 48;
      const n = load<i32>(d + 12);
      const column = load<i32>(d + 16);
      // The form's entry for the block: a binary search of its block numbers.
      let c = -1;
      let low = 0;
      let high = n - 1;
      while (low <= high) {
        const mid = (low + high) >>> 1;
        const value = load<i32>(column + (mid << 2));
        if (value == block) {
          c = mid;
          break;
        }
        if (value < block) low = mid + 1;
        else high = mid - 1;
      }
      if (c < 0) continue;
      const u = load<i32>(d);
      const isExact = load<i32>(d + 4);
      const weight = load<f64>(weights + (f << 6));
      const at = scratch + ((u * size) << 3);
      if (load<i32>(d + 8) == 0) {
        const starts = load<i32>(d + 20);
        const docs = load<i32>(d + 24);
        const scores = load<i32>(d + 28);
        for (let j = load<i32>(starts + (c << 2)); j < load<i32>(starts + ((c + 1) << 2)); j++) {
          const score = load<f64>(scores + (j << 3));
          const slot = load<i32>(docs + (j << 2)) - block * size;
          if (score == 0) continue;
          if (slot < 0 || slot >= size) return -1;
          if (score > load<f64>(at + (slot << 3))) store<f64>(at + (slot << 3), score);
          if (isExact) store<u8>(flags + u * size + slot, 1);
        }
        continue;
      }
      const base = load<i32>(d + 40);
      const fields = load<i32>(d + 44);
      const count = load<i32>(load<i32>(d + 32) + (c << 2));
      setCursor(base + load<i32>(load<i32>(d + 20) + (c << 2)));
      const masks = base + load<i32>(load<i32>(d + 24) + (c << 2));
      const impacts = masks + count;
      if (impacts + ((count + 1) >> 1) > base + load<i32>(load<i32>(d + 28) + (c << 2))) return -1;
      const bound = load<f64>(load<i32>(d + 36) + (c << 3));
      let document = block * size - 1;
      for (let j = 0; j < count; j++) {
        const gap = readVarint(masks, 5);
        if (<u64>gap > <u64>size) return -1;
        document += <i32>gap;
        const slot = document - block * size;
        if (slot < 0 || slot >= size) return -1;
        if (!(<i32>load<u8>(masks + j) & fields)) continue;
        const level = (<i32>load<u8>(impacts + (j >> 1)) >> ((j & 1) << 2)) & 15;
        const value = ((bound * <f64>(level + 1)) / 16.0) * weight;
        if (value > load<f64>(at + (slot << 3))) store<f64>(at + (slot << 3), value);
        if (isExact) store<u8>(flags + u * size + slot, 1);
      }
    }
    let best = 0.0;
    for (let slot = 0; slot < size; slot++) {
      const document = block * size + slot;
      if (document < first || document >= end) continue;
      let complete = 2;
      for (let u = 0; u < words; u++) {
        if (!(load<f64>(scratch + ((u * size + slot) << 3)) > 0 && load<u8>(flags + u * size + slot))) complete = 0;
      }
      let sum = 0.0;
      for (let u = 0; u < words; u++) {
        const s = load<f64>(scratch + ((u * size + slot) << 3));
        if (!(s > 0)) continue;
        sum += load<f64>(tiers + ((complete + <i32>load<u8>(flags + u * size + slot)) << 3)) + s / (s + saturation);
      }
      if (sum > best) best = sum;
    }
    store<f64>(out + (block << 3), best);
  }
  return 0;
}
