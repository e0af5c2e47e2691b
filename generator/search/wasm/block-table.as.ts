// A common term's block table decoded in WebAssembly (record-reader.ts) into columns. Pointers are byte
// offsets into the module's memory, laid out by the JavaScript side; a malformed table is refused (-1),
// never read past its bytes.
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
    const value = readVarint(end, 5);
    if (value < 0) return -1;
    at = cursor;
    current += value;
    store<i32>(out + (i << 2), <i32>current);
    const n = <i32>load<u8>(at++);
    if (n == 0 || n > size) return -1;
    store<i32>(out + ((count + i) << 2), n);
    store<i32>(out + ((2 * count + i) << 2), <i32>body);
    body = nextOffset(at, end, body);
    if (body < 0) return -1;
    at = cursor;
    store<i32>(out + ((3 * count + i) << 2), <i32>body);
    body = nextOffset(at, end, body);
    if (body < 0) return -1;
    at = cursor;
    store<i32>(out + ((4 * count + i) << 2), <i32>body);
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
