// A query's blocks bounded and ordered in WebAssembly (block-bounds.ts): each word's bound per block from its
// forms' block tables, their sum (the coarse bound), the quick bound from the words' sets, and the blocks
// best bound first, as the walk visits them. Arithmetic is block-bounds.ts's, operation for operation on
// IEEE doubles.

/**
 * block-bounds.ts blockBounds for one form of word `base / blocks`: its `n` entries (blocks at `list`, i32;
 * bounds at `bound`, f64, each times `weight`) into the word's bounds (`all + base * 8`), marking `exact` (a
 * byte per block) and listing each block the word reaches first in `touched` from `count`; only the blocks
 * `only` marks (a byte per block, completeBlocks) when it is not 0. Returns the new count, -1 when a block
 * number is out of range.
 */
export function formBounds(
  list: i32, bound: i32, weight: f64, n: i32, blocks: i32, all: i32, exact: i32, touched: i32, count: i32, isExact: i32, only: i32,
): i32 {
  for (let i = 0; i < n; i++) {
    const block = load<i32>(list + (i << 2));
    if (!(block >= 0 && block < blocks)) return -1;
    if (only != 0 && load<u8>(only + block) == 0) continue;
    const value = load<f64>(bound + (i << 3)) * weight;
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
 * formBounds for a word's first form (`count` 0, the word's bounds all 0): each block it has is new to the
 * word, so it is listed and marked without reading what the word had. A function of its own, with a shorter
 * loop: the engine recompiles a function once the code run in it passes a budget, each loop turn counting
 * the loop's whole code, and a word's first form holds most of a common word's entries (three common words
 * at 100,000 documents brought formBounds, taking every form, within 8% of that budget). The blocks must be
 * ascending, as a term's are (anything else is refused, -1), so that no block is listed twice.
 */
export function firstFormBounds(
  list: i32, bound: i32, weight: f64, n: i32, blocks: i32, all: i32, exact: i32, touched: i32, isExact: i32, only: i32,
): i32 {
  let count = 0;
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const block = load<i32>(list + (i << 2));
    if (!(block > previous && block < blocks)) return -1;
    previous = block;
    if (only != 0 && load<u8>(only + block) == 0) continue;
    const value = load<f64>(bound + (i << 3)) * weight;
    if (value == 0) continue;
    store<i32>(touched + (count << 2), block);
    count++;
    store<u8>(exact + block, <u8>isExact);
    // Where formBounds would not store (a value not above the 0 there).
    store<f64>(all + (block << 3), value > 0 ? value : 0.0);
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

/**
 * block-bounds.ts blockBounds' blocks that hold a complete match: a byte per block of `blocks` into `into`, 1
 * where some document of the block in `[first, end)` has every one of `words` words' own term (the `exact`
 * sets, `setBytes` apart, 16 documents a block), else 0. Returns how many documents in `[first, end)` do.
 */
export function completeBlocks(exact: i32, words: i32, setBytes: i32, blocks: i32, first: i32, end: i32, into: i32): i32 {
  let complete = 0;
  for (let block = 0; block < blocks; block++) {
    let every = 0;
    const origin = block * 16;
    if (origin < end && origin + 16 > first) {
      every = 0xffff;
      for (let u = 0; u < words && every != 0; u++) every &= <i32>load<u16>(exact + u * setBytes + block * 2);
      // Only the block's documents in the range count.
      if (origin < first) every &= 0xffff << (first - origin);
      if (origin + 16 > end) every &= (1 << (end - origin)) - 1;
    }
    store<u8>(into + block, every != 0 ? 1 : 0);
    complete += popcnt<i32>(every);
  }
  return complete;
}

/** The best bound of the words quickOf last found in its block (a second result, beside its counts). */
let quickMost = 0.0;

/**
 * The documents' counts of `block` for the quick bound: how many of `words` words each document of it is
 * found with (the words' 16-bit sets, `found`: `setBytes` apart), bit-sliced, as the 16-bit columns of an
 * i64 (a count's bits 1, 2, 4 and 8 from the lowest); and in `quickMost`, the best of the found words'
 * bounds there (`best`: f64 per word and block). Exported (block-passes.as.ts) only so that the optimizer
 * keeps it a function of its own: the engine recompiles a function once the code run in it passes a budget,
 * each loop turn counting the loop's code and each call the code up to its return, so orderBounds keeps
 * the rest of the bound (a first search of three common words at 100,000 documents brought this, with the
 * rest in it, within 20% of that budget; inlined, within 1%).
 */
export function quickOf(found: i32, setBytes: i32, best: i32, blocks: i32, words: i32, block: i32): i64 {
  let one = 0;
  let two = 0;
  let four = 0;
  let eight = 0;
  let most = 0.0;
  let sets = found + block * 2;
  let bounds = best + (block << 3);
  const rowBytes = blocks << 3;
  for (let u = 0; u < words; u++, sets += setBytes, bounds += rowBytes) {
    const set = <i32>load<u16>(sets);
    const carry1 = one & set;
    one ^= set;
    const carry2 = two & carry1;
    two ^= carry1;
    const carry4 = four & carry2;
    four ^= carry2;
    eight |= carry4;
    const bound = load<f64>(bounds);
    if (set != 0 && bound > most) most = bound;
  }
  quickMost = most;
  return <i64>one | (<i64>two << 16) | (<i64>four << 32) | (<i64>eight << 48);
}

/**
 * block-bounds.ts blockOrder's bound per block in `[first, end)` (`bound`, f64 per block): the coarse one
 * (`coarse`), or for a query of 2 to 15 words where no document of the block is found with every word, the
 * quick one where lower: the most words one document of it is found with (quickOf, the other arguments),
 * times the most one word may add there (its exact tier `exactTier` and the saturated part of the best
 * bound of those words). So a block where one document holds every word sorts above every block where none
 * does. (Where one does, the quick bound is not below the coarse one: it counts every word at its best.)
 */
export function orderBounds(
  coarse: i32, first: i32, end: i32, bound: i32, found: i32, setBytes: i32, best: i32, blocks: i32, words: i32,
  exactTier: f64, saturation: f64,
): void {
  const quick = words > 1 && words < 16;
  for (let block = first; block < end; block++) {
    let value = load<f64>(coarse + (block << 3));
    if (quick && value > 0) {
      const counts = quickOf(found, setBytes, best, blocks, words, block);
      // The highest count some document has, bit by bit from the highest.
      let count = 0;
      let slots = <i32>(counts >>> 48);
      if (slots) count = 8;
      else slots = 0xffff;
      let has = slots & <i32>(counts >>> 32);
      if (has) {
        slots = has;
        count |= 4;
      }
      has = slots & <i32>(counts >>> 16);
      if (has) {
        slots = has;
        count |= 2;
      }
      if (slots & <i32>counts) count |= 1;
      // Below every word in one document (the count is exact, words < 16); the saturated part grows with
      // the bound (each IEEE operation is monotone), so it is taken of the best bound only.
      if (count < words) {
        const lower = <f64>count * (exactTier + quickMost / (quickMost + saturation));
        if (lower < value) value = lower;
      }
    }
    store<f64>(bound + (block << 3), value);
  }
}

const BUCKETS = 4096;

/**
 * block-bounds.ts blockOrder: the blocks in `[first, end)` with a bound (`bounds`, f64 per block: orderBounds'),
 * best bound first by buckets (a counting sort): `order` (i32), each bucket's start (`starts`, BUCKETS + 1
 * i32, zeroed) and best bound (`bucketBest`, BUCKETS f64, zeroed); `bucketOf` (i32 per block of the range)
 * and `next` (BUCKETS i32) are scratch. Returns how many blocks `order` holds.
 */
export function blockOrder(bounds: i32, first: i32, end: i32, starts: i32, bucketBest: i32, order: i32, bucketOf: i32, next: i32): i32 {
  let low = Infinity;
  let high = 0.0;
  for (let block = first; block < end; block++) {
    const bound = load<f64>(bounds + (block << 3));
    if (bound == 0) continue;
    if (bound < low) low = bound;
    if (bound > high) high = bound;
  }
  const scale = high > low ? <f64>(BUCKETS - 1) / (high - low) : 0.0;
  for (let block = first; block < end; block++) {
    const bound = load<f64>(bounds + (block << 3));
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
    const bound = load<f64>(bounds + (block << 3));
    const best = bucketBest + (bucket << 3);
    if (bound > load<f64>(best)) store<f64>(best, bound);
  }
  return load<i32>(starts + (BUCKETS << 2));
}
