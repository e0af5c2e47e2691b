/**
 * Typed arrays a search reuses from one query to the next instead of allocating them: a query of common words
 * at 100,000 documents needs about a megabyte of per-block and per-document scratch, and allocating it per
 * query costs more in garbage collection than the arithmetic it holds. Each array is zeroed when handed out
 * and is valid until the next search asks for the same one (a search runs to its end without yielding, so
 * two never share one). Runtime-neutral.
 */
const pools = new Map<string, ArrayBuffer>();

/** A zeroed view of `bytes` bytes (a multiple of 8) of the buffer named `name`, grown when too small. */
function zeroed(name: string, bytes: number): ArrayBuffer {
  let buffer = pools.get(name);
  if (!buffer || buffer.byteLength < bytes) {
    buffer = new ArrayBuffer(Math.max(bytes, (buffer?.byteLength ?? 0) * 2));
    pools.set(name, buffer);
  }
  new Uint8Array(buffer, 0, bytes).fill(0);
  return buffer;
}

const round8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

export const scratchFloats = (name: string, length: number) => new Float64Array(zeroed(name, length * 8), 0, length);
export const scratchInts = (name: string, length: number) => new Int32Array(zeroed(name, round8(length * 4)), 0, length);
export const scratchBytes = (name: string, length: number) => new Uint8Array(zeroed(name, round8(length)), 0, length);
