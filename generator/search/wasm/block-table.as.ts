// A common term's block table decoded in WebAssembly (record-reader.ts) into columns. Pointers are byte
// offsets into the module's memory, laid out by the JavaScript side; a malformed table is refused (-1),
// never read past its bytes.
import { cursor, readVarint, setCursor } from './varint.as';

/**
 * What the passes found besides the entries: the bytes of the blocks' bodies, and the last block number
 * (between them, of the entries tableBlocks decoded, with their count).
 */
let bodyBytes: i64 = 0;
let lastBlock: i64 = 0;
let decoded: i32 = 0;

export function tableBody(): f64 {
  return <f64>bodyBytes;
}

export function tableLastBlock(): f64 {
  return <f64>lastBlock;
}

/**
 * The body offset `body` moved on by the varint at `at` (an entry's docBytes or dataBytes), with `cursor`
 * past it; -1 when the varint is malformed or the table's bytes end with it (the entry goes on after each).
 */
// @ts-ignore: decorator
@inline
function nextOffset(at: i32, end: i32, body: i64): i64 {
  setCursor(at);
  const value = readVarint(end, 5);
  return value < 0 || cursor >= end ? -1 : body + value;
}

/**
 * A block table of `count` entries (postings-codec.ts: blockGap, count, docBytes, dataBytes, level) at memory
 * `[at, end)` is decoded in three passes, into six columns from `out`: block, count, docStart, dataStart,
 * dataEnd (i32; offsets from the table's end, where the blocks' bodies begin) and bound (f64, at `bounds`).
 * tableBlocks takes the block numbers and counts, tableOffsets the bodies' offsets (and every column of
 * the entries of another shape) and ends the table, tableBounds the usual entries' bounds.
 *
 * The engine compiles these with its baseline compiler, then again with its optimizing one (on another
 * thread, about a millisecond and a half of CPU each) once the code run in a function's loops passes a
 * budget, counted in bytes of the loop's machine code per turn. So the entries of the usual shape (a
 * one-byte block gap, body sizes of one or two bytes) are read by short loops with no inner loop, each pass
 * with its own budget; from the first entry of another shape on, the general loop reads every column.
 */

/** The first pass: the usual entries' blocks and counts; how many it decoded, or -1 (malformed). */
export function tableBlocks(at: i32, end: i32, count: i32, size: i32, top: f64, out: i32, bounds: i32): i32 {
  const counts = next(out, count);
  let current = -1;
  let i = 0;
  // An entry of the usual shape takes at most 7 bytes, all read before anything is stored.
  for (; i < count && at + 7 <= end; i++) {
    const gap = <i32>load<u8>(at);
    const n = <i32>load<u8>(at, 1);
    const docLong = <i32>load<u8>(at, 2) >> 7;
    const data = at + 3 + docLong;
    const dataLong = <i32>load<u8>(data) >> 7;
    // Another shape (a longer varint): the general loop reads this entry and the rest.
    if ((gap | (<i32>load<u8>(data - 1) & -docLong) | (<i32>load<u8>(data + 1) & -dataLong)) >= 0x80) break;
    if (n == 0 || n > size) return -1;
    current += gap;
    store<i32>(out + (i << 2), current);
    store<i32>(counts + (i << 2), n);
    at = data + 2 + dataLong;
  }
  lastBlock = <i64>current;
  decoded = i;
  return i;
}

/**
 * The second pass: the bodies' offsets of the entries tableBlocks decoded, then every column of the rest.
 * Returns where the table ends, or -1 when the bytes are not a well-formed table.
 */
export function tableOffsets(at: i32, end: i32, count: i32, size: i32, top: f64, out: i32, bounds: i32): i32 {
  const docStarts = next(next(out, count), count);
  const dataStarts = next(docStarts, count);
  const dataEnds = next(dataStarts, count);
  let body: i64 = 0;
  for (let i = 0; i < decoded; i++) {
    let docBytes = <i32>load<u8>(at, 2);
    let following = at + 3;
    if (docBytes >= 0x80) docBytes = (docBytes & 0x7f) | (<i32>load<u8>(following++) << 7);
    let dataBytes = <i32>load<u8>(following++);
    if (dataBytes >= 0x80) dataBytes = (dataBytes & 0x7f) | (<i32>load<u8>(following++) << 7);
    store<i32>(docStarts + (i << 2), <i32>body);
    body += docBytes;
    store<i32>(dataStarts + (i << 2), <i32>body);
    body += dataBytes;
    store<i32>(dataEnds + (i << 2), <i32>body);
    // Past the level byte (tableBounds reads it).
    at = following + 1;
  }
  bodyBytes = body;
  return anyEntries(at, end, count, size, top, out, bounds);
}

/**
 * The third pass: the bounds of the entries tableBlocks decoded (their level of 1 to 255, of the term's
 * `top`), at `bounds`; 0, or -1 when a level is 0.
 */
export function tableBounds(at: i32, end: i32, count: i32, size: i32, top: f64, out: i32, bounds: i32): i32 {
  for (let i = 0; i < decoded; i++) {
    const data = at + 3 + (<i32>load<u8>(at, 2) >> 7);
    const following = data + 1 + (<i32>load<u8>(data) >> 7);
    const level = <i32>load<u8>(following);
    if (level == 0) return -1;
    store<f64>(bounds + (i << 3), (top * <f64>level) / 255.0);
    at = following + 1;
  }
  return 0;
}

/** The column of `count` i32 values after `column`. */
// @ts-ignore: decorator
@inline
function next(column: i32, count: i32): i32 {
  return column + (count << 2);
}

/** tableOffsets' entries from the `decoded`th on, of any shape: where the table ends, or -1. */
// @ts-ignore: decorator
@inline
function anyEntries(at: i32, end: i32, count: i32, size: i32, top: f64, out: i32, bounds: i32): i32 {
  const counts = next(out, count);
  const docStarts = next(counts, count);
  const dataStarts = next(docStarts, count);
  const dataEnds = next(dataStarts, count);
  let current = lastBlock;
  let body = bodyBytes;
  for (let i = decoded; i < count; i++) {
    if (at + 5 > end) return -1;
    setCursor(at);
    const value = readVarint(end, 5);
    if (value < 0) return -1;
    at = cursor;
    current += value;
    const column = i << 2;
    store<i32>(out + column, <i32>current);
    const n = <i32>load<u8>(at++);
    if (n == 0 || n > size) return -1;
    store<i32>(counts + column, n);
    store<i32>(docStarts + column, <i32>body);
    body = nextOffset(at, end, body);
    if (body < 0) return -1;
    at = cursor;
    store<i32>(dataStarts + column, <i32>body);
    body = nextOffset(at, end, body);
    if (body < 0) return -1;
    at = cursor;
    store<i32>(dataEnds + column, <i32>body);
    const level = <i32>load<u8>(at++);
    if (level == 0 || level > 255) return -1;
    store<f64>(bounds + (i << 3), (top * <f64>level) / 255.0);
  }
  bodyBytes = body;
  lastBlock = current;
  return at;
}
