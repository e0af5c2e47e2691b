/**
 * The bytes of one term's postings record, written by the index writer and read by the reader side by side
 * here. Unsigned LEB128 varints, except where a layout says bytes or float32 (little-endian):
 *
 *   record   = fieldCount, (fieldId, df)*, docCount, kind, rest
 *   kind 0   (docCount < blocks: a rare term, read whole)
 *     rest   = posting*                                   docCount of them, documents ascending
 *   kind 1   (a common term, read block by block)
 *     rest   = dense, bitset?, blockCount, top, entry*, body*
 *     entry  = blockGap, count, docBytes, dataBytes, level   level: one byte
 *     body   = docGap* (count of them), mask bytes (count of them), impacts, (tf, length)*
 *     impacts = one 4-bit impact per document, two a byte (the first document in the low half)
 *   posting  = docGap, fieldMask, (tf, length)*           one pair per field in the mask, ascending
 *
 * Documents are numbered from 0 in `type:id` order; a block is RANKING.blockSize consecutive numbers. `df`
 * is the term's document frequency in a field, `docCount` the documents it occurs in at all, `docGap` the
 * distance from the previous document (the first from the block's first number - 1, or from -1 in kind 0),
 * `tf` the term's frequency in the field and `length` the field's length in the document. A block body keeps
 * its field masks as one byte each (there are 5 fields), so the documents a form limited to some fields
 * matches are read without decoding a single (tf, length) pair. `top` (float32) is the largest
 * `blockScore` (below) of any document, scored with the index's `boundAverages` (the averages rounded up,
 * so never below the score with the averages themselves), and each block's bound is `levelBound(top,
 * level)`: a quantized bound, never below the largest `blockScore` of the block's documents, which the
 * reader's skipping relies on. A document's impact `n` (0..15) says its own `blockScore` (with the same
 * averages) is at most `impactBound(blockBound, n)`, sixteenths of its block's bound: the reader bounds each
 * document of a block from them without decoding a single pair, and scores only the blocks where some
 * document can still reach the page. `dense` is 1 when the term is in an eighth of the documents or more;
 * then `bitset` follows, one bit
 * per document (ceil(documents / 8) bytes), so counting matches needs no decoding. Runtime-neutral.
 */
import { bm25, RANKING, SEARCH_FIELDS } from './ranking.ts';

const FIELD_COUNT = SEARCH_FIELDS.length;
export const ALL_FIELDS = (1 << FIELD_COUNT) - 1;
const CORRUPT = 'postings: record is truncated or corrupt';

/** What a record's scores depend on besides its own postings: the index's global figures. */
export interface ScoreContext {
  documents: number;
  averageFieldLength: readonly number[];
}

/** Per field, boost * BM25 idf of a term with document frequencies `df` (0 where it is absent). */
export function fieldWeights(df: readonly number[], { documents }: ScoreContext): Float64Array {
  return Float64Array.from(SEARCH_FIELDS, (field, id) =>
    df[id] ? RANKING.boosts[field] * Math.log(1 + (documents - df[id]! + 0.5) / (df[id]! + 0.5)) : 0,
  );
}

/**
 * A term's score in one document: per field present (and in `allowed`), ascending, boost * BM25+. The reader
 * and the writer's bounds both call this, so a bound is never below a score it stands for.
 */
export function blockScore(
  weights: Float64Array,
  averages: readonly number[],
  mask: number,
  tf: ArrayLike<number>,
  lengths: ArrayLike<number>,
  at: number,
): number {
  let sum = 0;
  for (let field = 0; field < FIELD_COUNT; field++) {
    if (mask & (1 << field)) sum += bm25(weights[field]!, tf[at + field]!, lengths[at + field]!, averages[field]!);
  }
  return sum;
}

/** The smallest float32 at or above `value` (value >= 0). */
export function float32Above(value: number): number {
  const single = new Float32Array([value]);
  if (single[0]! < value) new Uint32Array(single.buffer)[0]!++;
  return single[0]!;
}

/** Levels a block's bound is quantized to (one byte, 0 unused). */
export const BOUND_LEVELS = 255;

/** The bound level `level` (1..BOUND_LEVELS) of a record whose best score is `top` stands for: what the reader uses. */
export const levelBound = (top: number, level: number) => (top * level) / BOUND_LEVELS;

/** The smallest level whose bound is at or above `value` (0 < value <= top): what the writer stores. */
export function boundLevel(top: number, value: number): number {
  let level = Math.min(BOUND_LEVELS, Math.max(1, Math.ceil((value / top) * BOUND_LEVELS)));
  while (level < BOUND_LEVELS && levelBound(top, level) < value) level++;
  if (levelBound(top, level) < value) throw new Error("postings: a bound above the record's best score");
  return level;
}

/** Steps of a document's impact, a fraction of its block's bound (4 bits). */
export const IMPACT_STEPS = 16;

/** The bound impact `n` (0..IMPACT_STEPS - 1) stands for in a block whose bound is `blockBound`: what the reader uses. */
export const impactBound = (blockBound: number, n: number) => (blockBound * (n + 1)) / IMPACT_STEPS;

/** The smallest impact whose bound is at or above `score` (0 < score <= blockBound): what the writer stores. */
export function impactOf(blockBound: number, score: number): number {
  let n = Math.max(0, Math.ceil((score / blockBound) * IMPACT_STEPS) - 2);
  while (n < IMPACT_STEPS - 1 && impactBound(blockBound, n) < score) n++;
  if (impactBound(blockBound, n) < score) throw new Error("postings: a document's score above its block's bound");
  return n;
}

/** Bytes of a block's impacts (two documents a byte). */
export const impactBytes = (count: number) => (count + 1) >> 1;

/** Growable byte buffer for the writer. */
export class ByteWriter {
  private bytes: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.bytes = new Uint8Array(capacity);
  }

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`postings: cannot encode ${value}`);
    this.reserve(8);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.length++] = rest;
  }

  float32(value: number): void {
    this.reserve(4);
    new DataView(this.bytes.buffer).setFloat32(this.length, value, true);
    this.length += 4;
  }

  byte(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Sequential varint reads over a byte range; throws on a record that runs past its end. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public position: number,
    readonly end: number,
  ) {}

  varint(): number {
    const { bytes, end } = this;
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.position >= end || scale > 2 ** 49) throw new Error(CORRUPT);
      const byte = bytes[this.position++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  byte(): number {
    if (this.position >= this.end) throw new Error(CORRUPT);
    return this.bytes[this.position++]!;
  }

  float32(): number {
    if (this.position + 4 > this.end) throw new Error(CORRUPT);
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset).getFloat32(this.position, true);
    this.position += 4;
    return value;
  }
}

/** Postings decoded: documents ascending, each with its field mask and, per field, tf and length (FIELD_COUNT apart). */
export interface DecodedPostings {
  docs: Int32Array;
  masks: Uint8Array;
  tf: Uint32Array;
  lengths: Uint32Array;
}

/** Decodes `count` postings of `reader` (gaps from `before`); `split`: a kind-1 body (docs, mask bytes, impacts, pairs). */
export function decodePostings(reader: ByteReader, count: number, before: number, split: boolean): DecodedPostings {
  const out: DecodedPostings = {
    docs: new Int32Array(count),
    masks: new Uint8Array(count),
    tf: new Uint32Array(count * FIELD_COUNT),
    lengths: new Uint32Array(count * FIELD_COUNT),
  };
  let document = before;
  const pairs = (i: number, mask: number) => {
    if (mask === 0 || mask > ALL_FIELDS) throw new Error(CORRUPT);
    out.masks[i] = mask;
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (!(mask & (1 << field))) continue;
      out.tf[i * FIELD_COUNT + field] = reader.varint();
      out.lengths[i * FIELD_COUNT + field] = reader.varint();
    }
  };
  for (let i = 0; i < count; i++) {
    document += reader.varint();
    out.docs[i] = document;
    if (!split) pairs(i, reader.varint());
  }
  if (!split) return out;
  for (let i = 0; i < count; i++) out.masks[i] = reader.byte();
  // The impacts bound documents before decoding; decoded postings are scored exactly, so they are skipped.
  reader.position += impactBytes(count);
  for (let i = 0; i < count; i++) pairs(i, out.masks[i]!);
  return out;
}

/** Blocks (documents per block) of an index of `documents`. */
export const blockCount = (documents: number) => Math.ceil(documents / RANKING.blockSize);
