// The sets of documents a query's words are found in, in WebAssembly (match-count.ts): a bit per document,
// set from a common term's blocks or OR-ed from a dense term's bitset, and their union counted.
import { nextSlot, setCursor } from './varint.as';

/**
 * match-count.ts addForm for a common term: sets, in the set of documents at `bits` (a bit each, so a block
 * of 16 documents, RANKING.blockSize, is one u16 as the walk reads it: walk-state.as.ts blockSet), the documents of the term's `n` blocks (columns at `columns`: block, count,
 * docStart, dataStart, dataEnd, i32 each) that have it in one of `fields`, in the blocks that meet `[first,
 * end)`. The blocks' bodies, which the offsets count from, begin at `base`. A dense term's documents in a
 * block are its bitset's (`denseBytes` bytes at `dense`, 0 for none: 16 bits a block), its mask bytes in
 * their order, so no doc gap is read. Returns 0, or -1 when a body is not well formed.
 */
export function formBits(
  base: i32, columns: i32, n: i32, fields: i32, first: i32, end: i32, bits: i32, dense: i32, denseBytes: i32,
): i32 {
  return dense != 0
    ? denseBits(base, columns, n, fields, first, end, bits, dense, denseBytes)
    : gapBits(base, columns, n, fields, first, end, bits);
}

/**
 * A block's mask bytes checked (count at column `n`, data start and end at `3n` and `4n`), or -1: where
 * they begin.
 */
// @ts-ignore: decorator
@inline
function blockMasks(base: i32, columns: i32, n: i32, i: i32, count: i32): i32 {
  const masks = base + load<i32>(columns + ((3 * n + i) << 2));
  return masks + count > base + load<i32>(columns + ((4 * n + i) << 2)) ? -1 : masks;
}

/** Sets `keep` (a bit per document of `block`) in the set at `bits`. */
// @ts-ignore: decorator
@inline
function setBlock(bits: i32, block: i32, keep: i32): void {
  const at = bits + (block << 1);
  store<u16>(at, <u16>(<i32>load<u16>(at) | keep));
}

/**
 * formBits for a dense term: each block's documents from its bitset. Each path has a loop of its own,
 * since the engine counts each turn of a loop by the loop's whole code (its budget before recompiling).
 */
function denseBits(
  base: i32, columns: i32, n: i32, fields: i32, first: i32, end: i32, bits: i32, dense: i32, denseBytes: i32,
): i32 {
  for (let i = 0; i < n; i++) {
    const block = load<i32>(columns + (i << 2));
    if ((block + 1) << 4 <= first || block << 4 >= end) continue;
    const count = load<i32>(columns + ((n + i) << 2));
    const masks = blockMasks(base, columns, n, i, count);
    const at = block << 1;
    if (masks < 0 || at >= denseBytes) return -1;
    // The last block's second byte may be past the bitset (its documents past the index's).
    const documents = <i32>load<u8>(dense + at) | (at + 1 < denseBytes ? <i32>load<u8>(dense + at + 1) << 8 : 0);
    if (popcnt<i32>(documents) != count) return -1;
    let keep = 0;
    let j = masks;
    for (let left = documents; left != 0; left &= left - 1) if (<i32>load<u8>(j++) & fields) keep |= left & -left;
    setBlock(bits, block, keep);
  }
  return 0;
}

/** formBits for a term without a bitset: each block's documents from its doc gaps. */
function gapBits(base: i32, columns: i32, n: i32, fields: i32, first: i32, end: i32, bits: i32): i32 {
  for (let i = 0; i < n; i++) {
    const block = load<i32>(columns + (i << 2));
    if ((block + 1) << 4 <= first || block << 4 >= end) continue;
    const count = load<i32>(columns + ((n + i) << 2));
    const masks = blockMasks(base, columns, n, i, count);
    if (masks < 0) return -1;
    let keep = 0;
    let slot = -1;
    setCursor(base + load<i32>(columns + ((2 * n + i) << 2)));
    for (let j = 0; j < count; j++) {
      slot = nextSlot(slot, masks, 16);
      if (slot < 0) return -1;
      if (<i32>load<u8>(masks + j) & fields) keep |= 1 << slot;
    }
    setBlock(bits, block, keep);
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
