// The one varint reader of the WebAssembly passes (block-passes.as.ts, block-walk.as.ts): unsigned LEB128
// (postings-codec.ts), read at a module-level cursor, inlined at each call site so each loop keeps its own
// limits as constants. Its value is exact up to 8 bytes (an i64), as the JavaScript readers' doubles are.

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
