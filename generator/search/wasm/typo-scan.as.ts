// The typo files' scan (typo-dictionary.ts findTypos), in WebAssembly: every term of one part of a typo file
// compared with the query's word, one or two units at a time, instead of a JavaScript call per term that a
// fresh isolate interpreted and then sent to the optimizing compiler. The comparisons are
// typo-dictionary.ts's (sameFrom, swappedAt, oneEditApart) over UTF-16 code units, step for step.
import { cursor, readVarint, setCursor } from './varint.as';

/** Whether `a` (`aLength` units) from `i` and `b` from `j` are the same to their ends. */
function sameFrom(a: i32, aLength: i32, i: i32, b: i32, bLength: i32, j: i32): bool {
  if (aLength - i != bLength - j) return false;
  for (let k = 0; i + k < aLength; k++) if (load<u16>(a + ((i + k) << 1)) != load<u16>(b + ((j + k) << 1))) return false;
  return true;
}

/** Whether `a` and `b` differ by the units at `i` and `i + 1` swapped and are the same after them. */
function swappedAt(a: i32, aLength: i32, b: i32, bLength: i32, i: i32): bool {
  if (i + 1 >= aLength || i + 1 >= bLength) return false;
  return (
    load<u16>(a + (i << 1)) == load<u16>(b + ((i + 1) << 1)) &&
    load<u16>(a + ((i + 1) << 1)) == load<u16>(b + (i << 1)) &&
    sameFrom(a, aLength, i + 2, b, bLength, i + 2)
  );
}

/** Whether `a` and `b` are exactly one insertion, deletion, substitution or swap of neighbours apart. */
function oneEditApart(a: i32, aLength: i32, b: i32, bLength: i32): bool {
  if (aLength - bLength > 1 || bLength - aLength > 1) return false;
  let i = 0;
  while (i < aLength && i < bLength && load<u16>(a + (i << 1)) == load<u16>(b + (i << 1))) i++;
  if (aLength == bLength) return i < aLength && (sameFrom(a, aLength, i + 1, b, bLength, i + 1) || swappedAt(a, aLength, b, bLength, i));
  return aLength > bLength ? sameFrom(a, aLength, i + 1, b, bLength, i) : sameFrom(a, aLength, i, b, bLength, i + 1);
}

/**
 * typo-dictionary.ts's five comparisons of a term `t` with the word `w` (TYPO_MODES there). Exported
 * (block-passes.as.ts) only so that the optimizer keeps it a function of its own: the engine recompiles a
 * function once the code run in it passes a budget, each loop turn counting the loop's whole code, and
 * inlined, every comparison's code counted once per term against typoScan's (a word of 14 letters at
 * 100,000 documents brought it within 17% of the budget); out of line, a term costs the comparison it takes.
 */
export function matches(mode: i32, t: i32, tLength: i32, w: i32, wLength: i32): bool {
  if (mode == 0) return oneEditApart(t, tLength, w, wLength);
  if (mode == 1) return sameFrom(t, tLength, 0, w, wLength, 1);
  if (mode == 4) return sameFrom(t, tLength, 1, w, wLength, 0);
  const same = tLength == wLength && sameFrom(t, tLength, 0, w, wLength, 0);
  return !same && (mode == 2 ? sameFrom(t, tLength, 1, w, wLength, 1) : swappedAt(t, tLength, w, wLength, 0));
}

/**
 * The `count` entries of one part of a typo file at `[at, end)` (each: its unit count, the units, two bytes
 * each little-endian, then four varints: postings, shard, offset, length), each compared with the word
 * (`wordLength` units at `word`) by `mode`. Writes where each matching entry starts at `out` (i32 each).
 * Returns how many matched, or -1 when the entries do not fill `[at, end)` exactly.
 */
export function typoScan(at: i32, end: i32, count: i32, word: i32, wordLength: i32, mode: i32, out: i32): i32 {
  let found = 0;
  setCursor(at);
  for (let e = 0; e < count; e++) {
    const start = cursor;
    const units = readVarint(end, 3);
    if (units < 0 || <i64>cursor + (units << 1) > <i64>end) return -1;
    const term = cursor;
    const length = <i32>units;
    setCursor(term + (length << 1));
    for (let v = 0; v < 4; v++) if (readVarint(end, 5) < 0) return -1;
    if (matches(mode, term, length, word, wordLength)) {
      store<i32>(out + (found << 2), start);
      found++;
    }
  }
  return cursor == end ? found : -1;
}
