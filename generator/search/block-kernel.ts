/**
 * The hot loop of a search: one block of one common term's postings decoded and scored in a single pass,
 * with no allocation, into the query word's best scores. The arithmetic is postings-codec.ts `blockScore`'s,
 * operation for operation (so the writer's bounds hold), times the form's weight. Runtime-neutral.
 */
import { impactBytes } from './postings-codec.ts';
import { bm25 } from './ranking.ts';
import type { TermRecord } from './record-reader.ts';

/** What scoring a form needs besides its record. */
export interface FormScoring {
  averages: readonly number[];
  /** Fields the form may match in (bit mask). */
  fields: number;
  weight: number;
}

/** Where scores go: per document slot of the block, from `offset`. */
export interface BlockScratch {
  best: Float64Array;
  exact: Uint8Array;
  offset: number;
  isExact: boolean;
  size: number;
}

const CORRUPT = 'postings: record is truncated or corrupt';
let docs = new Int32Array(64);

/**
 * Scores block entry `i` of `record` into `best[offset + slot]` (the largest weighted score per document slot) and marks
 * `exact[offset + slot]` when `isExact`. Throws on bytes that are not a well-formed block.
 */
export function scoreBlockInto(record: TermRecord, i: number, form: FormScoring, into: BlockScratch): void {
  const table = record.blocks!;
  const { bytes, weights } = record;
  const { averages, fields, weight } = form;
  const { best, exact, offset, isExact, size } = into;
  const end = table.dataEnd[i]!;
  const count = table.count[i]!;
  const first = table.block[i]! * size;
  if (docs.length < count) docs = new Int32Array(count);
  let at = table.docStart[i]!;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= end || scale > 2 ** 28) throw new Error(CORRUPT);
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  let document = first - 1;
  for (let i = 0; i < count; i++) {
    document += varint();
    const slot = document - first;
    if (slot < 0 || slot >= size) throw new Error(CORRUPT);
    docs[i] = slot;
  }
  if (at !== table.dataStart[i]) throw new Error(CORRUPT);
  // The mask bytes follow the doc gaps; the (tf, length) pairs follow the masks and the impacts.
  const masks = at;
  at += count + impactBytes(count);
  for (let i = 0; i < count; i++) {
    const mask = bytes[masks + i]!;
    if (mask === 0 || mask > 31) throw new Error(CORRUPT);
    let sum = 0;
    for (let field = 0; field < 5; field++) {
      if (!(mask & (1 << field))) continue;
      const tf = varint();
      const length = varint();
      if (fields & (1 << field)) sum += bm25(weights[field]!, tf, length, averages[field]!);
    }
    if (sum === 0) continue;
    const score = weight * sum;
    const slot = offset + docs[i]!;
    if (score > best[slot]!) best[slot] = score;
    if (isExact) exact[slot] = 1;
  }
  if (at !== end) throw new Error(CORRUPT);
}
