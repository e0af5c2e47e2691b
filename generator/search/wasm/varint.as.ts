// The one varint reader of the WebAssembly passes (block-table.as.ts and the modules after it): unsigned
// LEB128 (postings-codec.ts), read at a module-level cursor, inlined at each call site so each loop keeps its
// own limits as constants. Its value is exact up to 8 bytes (an i64), as the JavaScript readers' doubles are.

/** Where the next byte is read; a reader sets it, reads, and takes it back. */
export let cursor: i32 = 0;

export function setCursor(at: i32): void {
  cursor = at;
}

/**
 * The varint at `cursor` (advanced past it), of at most `bytes` bytes none of them at or past `end`; -1 when
 * it is longer or runs past `end`.
 */
// @ts-ignore: decorator
@inline
export function readVarint(end: i32, bytes: i32): i64 {
  let value: i64 = 0;
  for (let shift: i64 = 0; shift < <i64>bytes * 7; shift += 7) {
    if (cursor >= end) return -1;
    const byte = <i64>load<u8>(cursor++);
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) return value;
  }
  return -1;
}

/**
 * The one doc-gap reader of a block body (postings-codec.ts): the gap at `cursor` (at most 5 bytes, none at
 * or past `end`) added to `slot`, the previous document's place in its block of `size` documents (-1 before
 * the first). The new place, or -1 when the gap is malformed, longer than a block, or lands outside it.
 */
// @ts-ignore: decorator
@inline
export function nextSlot(slot: i32, end: i32, size: i32): i32 {
  const gap = readVarint(end, 5);
  if (<u64>gap > <u64>size) return -1;
  const next = slot + <i32>gap;
  return next >= 0 && next < size ? next : -1;
}
