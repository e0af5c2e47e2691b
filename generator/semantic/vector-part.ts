/**
 * Vectors as the build writes them and the edge reads them: each one normalized, then quantized to int8
 * with its own scale (`value ≈ code * scale`), so a similarity is an integer-weighted sum times one float.
 * A part is a JSON header (what the vectors belong to) followed by the scales and the codes. Runtime-neutral.
 */

/** How quantize() maps a vector to codes: part of the vector cache's key, so change it with the function. */
export const QUANTIZATION = 'unit-int8-maxabs-1';

/** A unit vector in int8: codes in [-127, 127] and the scale that maps them back. */
export interface QuantizedVector {
  codes: Int8Array;
  scale: number;
}

/** `vector` scaled to length 1 (a zero vector stays zero). */
export function normalize(vector: ArrayLike<number>): Float64Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  const unit = new Float64Array(vector.length);
  if (norm > 0) for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! / norm;
  return unit;
}

/** The vector normalized and quantized; the scale is a float32, so a stored vector reads back the same. */
export function quantize(vector: ArrayLike<number>): QuantizedVector {
  const unit = normalize(vector);
  let largest = 0;
  for (const value of unit) largest = Math.max(largest, Math.abs(value));
  const scale = Math.fround(largest / 127);
  const codes = new Int8Array(unit.length);
  if (scale > 0) for (let i = 0; i < unit.length; i++) codes[i] = Math.max(-127, Math.min(127, Math.round(unit[i]! / scale)));
  return { codes, scale };
}

/** The quantized vector `index` of a part, back in floats. */
export function dequantize(codes: Int8Array, scale: number, index = 0, dimensions = codes.length): Float64Array {
  const vector = new Float64Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = codes[index * dimensions + i]! * scale;
  return vector;
}

/** The dot product of `query` with the quantized vector `index` of a part. */
export function similarity(query: Float64Array, codes: Int8Array, scale: number, index: number): number {
  const dimensions = query.length;
  const base = index * dimensions;
  let sum = 0;
  for (let i = 0; i < dimensions; i++) sum += query[i]! * codes[base + i]!;
  return sum * scale;
}

export interface VectorPart<H> {
  header: H;
  scales: Float32Array;
  codes: Int8Array;
}

/** `[u32 header length][header JSON][0-3 bytes to align][f32 scale per vector][int8 codes]`, little-endian. */
export function encodeVectorPart(header: unknown, vectors: readonly QuantizedVector[], dimensions: number): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify(header));
  const start = align(4 + head.byteLength);
  const bytes = new Uint8Array(start + vectors.length * (4 + dimensions));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, head.byteLength, true);
  bytes.set(head, 4);
  vectors.forEach(({ codes, scale }, i) => {
    if (codes.length !== dimensions) throw new Error(`vector of ${codes.length} dimensions in a part of ${dimensions}`);
    view.setFloat32(start + 4 * i, scale, true);
    bytes.set(new Uint8Array(codes.buffer, codes.byteOffset, dimensions), start + 4 * vectors.length + i * dimensions);
  });
  return bytes;
}

const align = (offset: number) => (offset + 3) & ~3;

/** The part's header, scales and codes; throws when the bytes are not a part of `count(header)` vectors. */
export function decodeVectorPart<H>(bytes: Uint8Array, dimensions: number, count: (header: H) => number): VectorPart<H> {
  if (bytes.byteLength < 4) throw new Error('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headLength = view.getUint32(0, true);
  if (4 + headLength > bytes.byteLength) throw new Error('header is truncated');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headLength))) as H;
  const vectors = count(header);
  const start = align(4 + headLength);
  if (!Number.isInteger(vectors) || bytes.byteLength !== start + vectors * (4 + dimensions))
    throw new Error('length does not match its header');
  const scales = new Float32Array(vectors);
  for (let i = 0; i < vectors; i++) scales[i] = view.getFloat32(start + 4 * i, true);
  const codes = new Int8Array(bytes.buffer, bytes.byteOffset + start + 4 * vectors, vectors * dimensions);
  return { header, scales, codes };
}
