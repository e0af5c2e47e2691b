/**
 * The reader's side of a postings record (postings-codec.ts has the layout, record-builder.ts writes it):
 * the header, field weights and either every posting (a rare term) or where the block table is (a common one).
 * A search decodes a table where it keeps the record, in the WebAssembly module's memory (query-memory.ts);
 * blockTable decodes it into JavaScript columns for the readers of single blocks (an explanation, the
 * semantic ranking's matches, an update of the index). Block bodies are decoded only for the blocks a query
 * scores or counts. Runtime-neutral.
 */
import { align8, blockPasses, reserve, scratchStart } from './block-passes.ts';
import { blockCount, ByteReader, type DecodedPostings, decodePostings, fieldWeights, type ScoreContext } from './postings-codec.ts';
import { partError } from './index-reader.ts';
import { RANKING, SEARCH_FIELDS } from './ranking.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/** A term's record, parsed. */
export interface TermRecord {
  /** The shard the record is in (positions below are in it), and the record's range there. */
  bytes: Uint8Array;
  start: number;
  end: number;
  /** Per field, boost * idf (0 where the term is absent). */
  weights: Float64Array;
  docCount: number;
  /** Kind 0: every posting. */
  postings?: DecodedPostings;
  /** Kind 1: where the block table is, and the bitset of a dense term. */
  table?: TableAt;
  dense?: Uint8Array;
}

/** A common term's block table, not decoded yet. */
export interface TableAt {
  /** Where its first entry is in the record's bytes, and how many entries it has. */
  at: number;
  count: number;
  /** The record's best score, which each entry's level is a share of. */
  top: number;
  /** How many blocks the index has: an entry's block must be one of them. */
  blocks: number;
  /** The index part the record is in, named in the error when the table is found malformed. */
  part?: string;
}

/** A block table decoded into columns (blockTable). */
export interface BlockTable {
  block: Int32Array;
  count: Int32Array;
  /** Offsets from `body`, where the blocks' bodies begin in the record's bytes. */
  docStart: Int32Array;
  dataStart: Int32Array;
  dataEnd: Int32Array;
  bound: Float64Array;
  body: number;
}

/**
 * The record at `bytes[offset, offset + length)`, for an index with `context`'s figures; `part` names where
 * the bytes come from, for the error a malformed block table gives when it is decoded.
 */
export function parseRecord(bytes: Uint8Array, offset: number, length: number, context: ScoreContext, part?: string): TermRecord {
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
  const record: TermRecord = { bytes, start: offset, end, weights: fieldWeights(df, context), docCount };
  if (kind === 0) {
    record.postings = readRare(reader, docCount);
  } else if (kind === 1) {
    if (reader.varint() === 1) {
      const size = Math.ceil(context.documents / 8);
      if (reader.position + size > end) throw new Error(CORRUPT);
      record.dense = bytes.subarray(reader.position, reader.position + size);
      reader.position += size;
    }
    const count = reader.varint();
    if (count > blockCount(context.documents)) throw new Error(CORRUPT);
    const top = reader.float32();
    record.table = { at: reader.position, count, top, blocks: blockCount(context.documents), part };
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

/** The bytes a parsed record holds besides its shard's: its columns, decoded (a block table is kept elsewhere). */
function decodedBytes({ weights, postings }: TermRecord): number {
  let bytes = weights.byteLength;
  if (postings) bytes += postings.docs.byteLength + postings.masks.byteLength + postings.tf.byteLength + postings.lengths.byteLength;
  return bytes;
}

/**
 * parseRecord, remembered for the shard's life; `charge` is told the bytes a record takes decoded when it is
 * parsed, so the cache that holds the shard counts them (index-reader.ts).
 */
export function readRecord(
  bytes: Uint8Array,
  offset: number,
  length: number,
  context: ScoreContext,
  charge?: (decoded: number) => void,
  part?: string,
): TermRecord {
  const records = parsed.get(bytes) ?? new Map<number, TermRecord>();
  parsed.set(bytes, records);
  let record = records.get(offset);
  if (!record) {
    record = parseRecord(bytes, offset, length, context, part);
    records.set(offset, record);
    charge?.(decodedBytes(record));
  }
  return record;
}

/**
 * A rare term's postings (every one, documents from -1), decoded by the WebAssembly side: the record's rest
 * copied into its memory, decoded into columns there, the columns copied out.
 */
function readRare(reader: ByteReader, count: number): DecodedPostings {
  const { bytes, end, position: at } = reader;
  const fields = SEARCH_FIELDS.length;
  const span = end - at;
  const base = scratchStart();
  const docs = base + align8(span);
  const masks = docs + align8(count * 4);
  const tf = masks + align8(count);
  const lengths = tf + count * fields * 4;
  const memory = reserve(lengths + count * fields * 4);
  new Uint8Array(memory, base, span).set(bytes.subarray(at, end));
  new Uint8Array(memory, tf, count * fields * 8).fill(0);
  const stop = blockPasses().decodeRare(base, base + span, count, fields, docs, masks, tf, lengths);
  if (stop < 0) throw new Error(CORRUPT);
  reader.position = at + stop - base;
  return {
    docs: new Int32Array(memory, docs, count).slice(),
    masks: new Uint8Array(memory, masks, count).slice(),
    tf: new Uint32Array(memory, tf, count * fields).slice(),
    lengths: new Uint32Array(memory, lengths, count * fields).slice(),
  };
}

/** The longest block-table entry: a 5-byte block gap, a count byte, 5-byte docBytes and dataBytes, a level byte. */
const LONGEST_ENTRY = 17;

/**
 * Decodes `record`'s block table, whose bytes are at `from` in the module's memory (with the rest of the
 * record after them), into the five i32 columns from `out` (block, count, docStart, dataStart, dataEnd) and
 * the bounds (f64) at `bounds`, by the WebAssembly side (thousands of entries for a common term, decoded
 * before the engine has optimized anything). Returns where the blocks' bodies begin in the record's bytes,
 * which the offsets count from; a malformed table throws an error that names the record's part.
 */
export function decodeTableAt(record: TermRecord, from: number, out: number, bounds: number): number {
  const { at, count, top, blocks, part } = record.table!;
  const span = Math.min(record.end - at, count * LONGEST_ENTRY);
  const passes = blockPasses();
  const table = [from, from + span, count, RANKING.blockSize, top, out, bounds] as const;
  const stop = passes.tableBlocks(...table) < 0 || passes.tableBounds(...table) < 0 ? -1 : passes.tableOffsets(...table);
  const body = at + stop - from;
  if (stop < 0 || passes.tableLastBlock() >= blocks || body + passes.tableBody() > record.end)
    throw part ? partError(part, CORRUPT) : new Error(CORRUPT);
  return body;
}

/** Block tables decoded into JavaScript columns, per shard and record (a neighbour's record is a copy over the same bytes). */
const tables = new WeakMap<Uint8Array, Map<number, BlockTable>>();

/** `record`'s block table in JavaScript columns, decoded once for the shard's life (its record's bytes copied to scratch memory for it). */
export function blockTable(record: TermRecord): BlockTable {
  const { bytes, start, end } = record;
  const inShard = tables.get(bytes) ?? new Map<number, BlockTable>();
  tables.set(bytes, inShard);
  let table = inShard.get(start);
  if (table) return table;
  const { at, count } = record.table!;
  const span = end - at;
  const base = scratchStart();
  const out = base + align8(span);
  const bounds = out + align8(count * 5 * 4);
  const memory = reserve(bounds + count * 8);
  new Uint8Array(memory, base, span).set(bytes.subarray(at, end));
  const body = decodeTableAt(record, base, out, bounds);
  const column = (n: number) => new Int32Array(memory, out + n * count * 4, count).slice();
  table = {
    block: column(0),
    count: column(1),
    docStart: column(2),
    dataStart: column(3),
    dataEnd: column(4),
    bound: new Float64Array(memory, bounds, count).slice(),
    body,
  };
  inShard.set(start, table);
  return table;
}

/** The postings of block entry `i` of a kind-1 record, decoded. */
export function readBlock(record: TermRecord, i: number): DecodedPostings {
  const table = blockTable(record);
  const end = table.body + table.dataEnd[i]!;
  const reader = new ByteReader(record.bytes, table.body + table.docStart[i]!, end);
  const postings = decodePostings(reader, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, true);
  if (reader.position !== end) throw new Error(CORRUPT);
  return postings;
}
