/**
 * A common term's record with some documents' (tf, length) pairs replaced, without decoding the rest: what
 * most of an edit's terms need (a body edit changes the body's length, so every term of that body gets new
 * pairs, in the same fields). The header, the bitset and every other block are copied as they are; the
 * edited blocks' impacts and pairs are encoded again under their bound's level. The bytes are what
 * record-builder.ts would write for the same postings: a block's level depends on the record's best score and its own bound only,
 * and the best score stays while the edited blocks neither held nor reach the top level. Runtime-neutral.
 */
import {
  BOUND_LEVELS,
  blockScore,
  boundLevel,
  ByteReader,
  ByteWriter,
  decodePostings,
  fieldWeights,
  impactOf,
  levelBound,
} from './postings-codec.ts';
import { RANKING, SEARCH_FIELDS } from './ranking.ts';

const FIELDS = SEARCH_FIELDS.length;

/** New pairs of an edited document: `[fieldId, tf, length]`, fields ascending (the same fields as before). */
export type Pairs = [fieldId: number, tf: number, length: number][];

interface Table {
  headerEnd: number;
  top: number;
  block: number[];
  count: number[];
  docBytes: number[];
  dataBytes: number[];
  level: number[];
  bodyStart: number[];
  end: number;
  df: number[];
}

/** The header and block table of a kind-1 record, or undefined for a rare term's. */
function readTable(bytes: Uint8Array, documents: number): Table | undefined {
  const reader = new ByteReader(bytes, 0, bytes.length);
  const df = new Array<number>(FIELDS).fill(0);
  for (let fields = reader.varint(); fields > 0; fields--) {
    const id = reader.varint();
    df[id] = reader.varint();
  }
  reader.varint();
  if (reader.varint() !== 1) return undefined;
  if (reader.varint() === 1) reader.position += Math.ceil(documents / 8);
  const headerEnd = reader.position;
  const count = reader.varint();
  const table: Table = {
    headerEnd,
    top: reader.float32(),
    block: [],
    count: [],
    docBytes: [],
    dataBytes: [],
    level: [],
    bodyStart: [],
    end: 0,
    df,
  };
  let block = -1;
  for (let i = 0; i < count; i++) {
    block += reader.varint();
    table.block.push(block);
    table.count.push(reader.varint());
    table.docBytes.push(reader.varint());
    table.dataBytes.push(reader.varint());
    table.level.push(reader.byte());
  }
  let at = reader.position;
  for (let i = 0; i < count; i++) {
    table.bodyStart.push(at);
    at += table.docBytes[i]! + table.dataBytes[i]!;
  }
  table.end = at;
  return table;
}

/** Block `i`'s body with `edits` applied, and its new bound; undefined when an edited document is not there as expected. */
function editBlock(bytes: Uint8Array, table: Table, i: number, edits: Map<number, Pairs>, weights: Float64Array, grid: readonly number[]) {
  const start = table.bodyStart[i]!;
  const reader = new ByteReader(bytes, start, start + table.docBytes[i]! + table.dataBytes[i]!);
  const postings = decodePostings(reader, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, true);
  const { docs, masks, tf, lengths } = postings;
  let found = 0;
  for (let j = 0; j < docs.length; j++) {
    const pairs = edits.get(docs[j]!);
    if (!pairs) continue;
    let mask = 0;
    for (const [fieldId, frequency, length] of pairs) {
      mask |= 1 << fieldId;
      tf[j * FIELDS + fieldId] = frequency;
      lengths[j * FIELDS + fieldId] = length;
    }
    if (mask !== masks[j]) return undefined;
    found++;
  }
  const scores = Float64Array.from(docs, (_, j) => blockScore(weights, grid, masks[j]!, tf, lengths, j * FIELDS));
  const bound = scores.reduce((best, score) => Math.max(best, score), 0);
  if (bound > levelBound(table.top, BOUND_LEVELS - 1)) return undefined;
  const level = boundLevel(table.top, bound);
  // What follows the mask bytes, as writeBlocks writes it: the impacts under the new level, then the pairs.
  const body = new ByteWriter(table.dataBytes[i]! + 8);
  const blockBound = levelBound(table.top, level);
  for (let j = 0; j < docs.length; j += 2) {
    body.byte(impactOf(blockBound, scores[j]!) | (j + 1 < docs.length ? impactOf(blockBound, scores[j + 1]!) << 4 : 0));
  }
  for (let j = 0; j < docs.length; j++) {
    for (let field = 0; field < FIELDS; field++) {
      if (!(masks[j]! & (1 << field))) continue;
      body.varint(tf[j * FIELDS + field]!);
      body.varint(lengths[j * FIELDS + field]!);
    }
  }
  return { found, rest: body.result(), level };
}

/**
 * `bytes` (a record of an index of `documents`) with the documents of `edits` given new pairs in the same
 * fields; undefined when that cannot be done in place (a rare term, an edited document not found as given,
 * or the record's best score may move): then the record is built again whole.
 */
export function spliceRecord(
  bytes: Uint8Array,
  edits: Map<number, Pairs>,
  documents: number,
  grid: readonly number[],
): Uint8Array | undefined {
  const table = readTable(bytes, documents);
  if (!table) return undefined;
  const weights = fieldWeights(table.df, { documents, averageFieldLength: grid });
  const byBlock = new Map<number, Map<number, Pairs>>();
  for (const [document, pairs] of edits) {
    const block = Math.floor(document / RANKING.blockSize);
    byBlock.set(block, (byBlock.get(block) ?? new Map()).set(document, pairs));
  }
  const replaced = new Map<number, { rest: Uint8Array; level: number }>();
  for (const [block, blockEdits] of byBlock) {
    const i = table.block.indexOf(block);
    if (i < 0 || table.level[i] === BOUND_LEVELS) return undefined;
    const edited = editBlock(bytes, table, i, blockEdits, weights, grid);
    if (!edited || edited.found !== blockEdits.size) return undefined;
    replaced.set(i, { rest: edited.rest, level: edited.level });
  }
  const out = new ByteWriter(bytes.length + 16);
  out.raw(bytes.subarray(0, table.headerEnd));
  out.varint(table.block.length);
  out.float32(table.top);
  table.block.forEach((block, i) => {
    const now = replaced.get(i);
    out.varint(block - (table.block[i - 1] ?? -1));
    out.varint(table.count[i]!);
    out.varint(table.docBytes[i]!);
    out.varint(now ? table.count[i]! + now.rest.length : table.dataBytes[i]!);
    out.byte(now ? now.level : table.level[i]!);
  });
  table.block.forEach((_, i) => {
    const start = table.bodyStart[i]!;
    const now = replaced.get(i);
    if (!now) {
      out.raw(bytes.subarray(start, start + table.docBytes[i]! + table.dataBytes[i]!));
      return;
    }
    // The doc gaps and mask bytes are as they were; the impacts and pairs are new.
    out.raw(bytes.subarray(start, start + table.docBytes[i]! + table.count[i]!));
    out.raw(now.rest);
  });
  return out.result();
}
