/**
 * The reader's side of a postings record (postings-codec.ts has the layout, record-builder.ts writes it):
 * the header, field weights and either every posting (a rare term) or the block table (a common one), whose
 * bodies are decoded only for the blocks a query scores or counts. Runtime-neutral.
 */
import {
  BOUND_LEVELS,
  blockCount,
  ByteReader,
  type DecodedPostings,
  decodeBlockDocs,
  decodePostings,
  fieldWeights,
  levelBound,
  type ScoreContext,
} from './postings-codec.ts';
import { RANKING, SEARCH_FIELDS } from './ranking.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/** A term's record, parsed. */
export interface TermRecord {
  bytes: Uint8Array;
  /** Per field, boost * idf (0 where the term is absent). */
  weights: Float64Array;
  docCount: number;
  /** Kind 0: every posting. */
  postings?: DecodedPostings;
  /** Kind 1: the block table, and the bitset of a dense term. */
  blocks?: BlockTable;
  dense?: Uint8Array;
}

export interface BlockTable {
  block: Int32Array;
  count: Int32Array;
  docStart: Int32Array;
  dataStart: Int32Array;
  dataEnd: Int32Array;
  bound: Float64Array;
}

/** The record at `bytes[offset, offset + length)`, for an index with `context`'s figures. */
export function parseRecord(bytes: Uint8Array, offset: number, length: number, context: ScoreContext): TermRecord {
  const end = offset + length;
  if (end > bytes.length) throw new Error(CORRUPT);
  const reader = new ByteReader(bytes, offset, end);
  const df = new Array<number>(SEARCH_FIELDS.length).fill(0);
  const fields = reader.varint();
  for (let i = 0; i < fields; i++) {
    const fieldId = reader.varint();
    if (fieldId >= df.length) throw new Error(CORRUPT);
    df[fieldId] = reader.varint();
  }
  const docCount = reader.varint();
  const kind = reader.varint();
  const record: TermRecord = { bytes, weights: fieldWeights(df, context), docCount };
  if (kind === 0) {
    record.postings = decodePostings(reader, docCount, -1, false);
  } else if (kind === 1) {
    if (reader.varint() === 1) {
      const size = Math.ceil(context.documents / 8);
      if (reader.position + size > end) throw new Error(CORRUPT);
      record.dense = bytes.subarray(reader.position, reader.position + size);
      reader.position += size;
    }
    record.blocks = readTable(reader, context.documents);
  } else {
    throw new Error(CORRUPT);
  }
  if (reader.position > end) throw new Error(CORRUPT);
  return record;
}

/**
 * Records parsed so far, per shard (the bytes the isolate's cache holds): a warm query does not parse its
 * terms' block tables again. They go with their shard when the cache lets it go.
 */
const parsed = new WeakMap<Uint8Array, Map<number, TermRecord>>();

/** parseRecord, remembered for the shard's life. */
export function readRecord(bytes: Uint8Array, offset: number, length: number, context: ScoreContext): TermRecord {
  const records = parsed.get(bytes) ?? new Map<number, TermRecord>();
  parsed.set(bytes, records);
  const record = records.get(offset) ?? parseRecord(bytes, offset, length, context);
  records.set(offset, record);
  return record;
}

/** Where the last varint longVarint read ends. */
let longEnd = 0;

/** The varint at `bytes[at - 1]` whose first byte `first` (0x80 or more) is read already; its end goes to longEnd. */
function longVarint(bytes: Uint8Array, at: number, end: number, first: number): number {
  let value = first & 0x7f;
  for (let shift = 7; ; shift += 7) {
    if (at >= end || shift > 28) throw new Error(CORRUPT);
    const byte = bytes[at++]!;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) {
      longEnd = at;
      return value >>> 0;
    }
  }
}

function readTable(reader: ByteReader, documents: number): BlockTable {
  const count = reader.varint();
  if (count > blockCount(documents)) throw new Error(CORRUPT);
  const top = reader.float32();
  const block = new Int32Array(count);
  const counts = new Int32Array(count);
  const docStart = new Int32Array(count);
  const dataStart = new Int32Array(count);
  const dataEnd = new Int32Array(count);
  const bound = new Float64Array(count);
  // The hot part of reading a common term (thousands of entries, often before the engine has optimized
  // anything): every variable a local (no closure over the position), one-byte varints read inline, longer
  // ones by a call; each level's bound computed once.
  const { bytes, end } = reader;
  const levels = Float64Array.from({ length: BOUND_LEVELS + 1 }, (_, level) => levelBound(top, level));
  const size = RANKING.blockSize;
  let at = reader.position;
  let current = -1;
  let body = 0;
  for (let i = 0; i < count; i++) {
    if (at + 5 > end) throw new Error(CORRUPT);
    let value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at, end, value);
      at = longEnd;
    }
    current += value;
    block[i] = current;
    value = bytes[at++]!;
    if (value === 0 || value > size) throw new Error(CORRUPT);
    counts[i] = value;
    docStart[i] = body;
    value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at, end, value);
      at = longEnd;
    }
    body += value;
    dataStart[i] = body;
    if (at >= end) throw new Error(CORRUPT);
    value = bytes[at++]!;
    if (value >= 0x80) {
      value = longVarint(bytes, at, end, value);
      at = longEnd;
    }
    body += value;
    dataEnd[i] = body;
    if (at >= end) throw new Error(CORRUPT);
    const level = bytes[at++]!;
    if (level === 0 || level > BOUND_LEVELS) throw new Error(CORRUPT);
    bound[i] = levels[level]!;
  }
  if (current >= blockCount(documents) || at + body > end) throw new Error(CORRUPT);
  for (let i = 0; i < count; i++) {
    docStart[i]! += at;
    dataStart[i]! += at;
    dataEnd[i]! += at;
  }
  reader.position = at + body;
  return { block, count: counts, docStart, dataStart, dataEnd, bound };
}

/** The postings of block entry `i` of a kind-1 record, decoded. */
export function readBlock(record: TermRecord, i: number): DecodedPostings {
  const table = record.blocks!;
  const reader = new ByteReader(record.bytes, table.docStart[i]!, table.dataEnd[i]!);
  const postings = decodePostings(reader, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, true);
  if (reader.position !== table.dataEnd[i]) throw new Error(CORRUPT);
  return postings;
}

/**
 * The documents of block entry `i` of a kind-1 record that have the term in one of `fields` (a bit mask),
 * into `into` (at least the block's count long); how many. Reads doc gaps and mask bytes, no pairs.
 */
export function readBlockDocs(record: TermRecord, i: number, into: Int32Array, fields: number): number {
  const table = record.blocks!;
  const count = table.count[i]!;
  const masks = table.dataStart[i]!;
  if (masks + count > table.dataEnd[i]!) throw new Error(CORRUPT);
  decodeBlockDocs(record.bytes, table.docStart[i]!, masks, count, table.block[i]! * RANKING.blockSize - 1, into);
  let kept = 0;
  for (let j = 0; j < count; j++) if (record.bytes[masks + j]! & fields) into[kept++] = into[j]!;
  return kept;
}
