/**
 * The reader's side of a postings record (postings-codec.ts has the layout, record-builder.ts writes it):
 * the header, field weights and either every posting (a rare term) or the block table (a common one), whose
 * bodies are decoded only for the blocks a query scores or counts. Runtime-neutral.
 */
import { align8, blockPasses, reserve, scratchStart } from './block-passes.ts';
import { blockCount, ByteReader, type DecodedPostings, decodePostings, fieldWeights, type ScoreContext } from './postings-codec.ts';
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

/** The bytes a parsed record holds besides its shard's: its columns, decoded. */
function decodedBytes({ weights, postings, blocks }: TermRecord): number {
  let bytes = weights.byteLength;
  if (postings) bytes += postings.docs.byteLength + postings.masks.byteLength + postings.tf.byteLength + postings.lengths.byteLength;
  if (blocks) for (const column of Object.values(blocks) as ArrayBufferView[]) bytes += column.byteLength;
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
): TermRecord {
  const records = parsed.get(bytes) ?? new Map<number, TermRecord>();
  parsed.set(bytes, records);
  let record = records.get(offset);
  if (!record) {
    record = parseRecord(bytes, offset, length, context);
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
 * The block table (thousands of entries for a common term, read before the engine has optimized anything),
 * decoded by the WebAssembly side (block-passes.ts): the entries' bytes copied into its memory, decoded
 * into columns there, the columns copied out.
 */
function readTable(reader: ByteReader, documents: number): BlockTable {
  const count = reader.varint();
  if (count > blockCount(documents)) throw new Error(CORRUPT);
  const top = reader.float32();
  const { bytes, end, position: at } = reader;
  const span = Math.min(end - at, count * LONGEST_ENTRY);
  const base = scratchStart();
  const out = base + align8(span);
  const bounds = out + align8(count * 5 * 4);
  const memory = reserve(bounds + count * 8);
  new Uint8Array(memory, base, span).set(bytes.subarray(at, at + span));
  const passes = blockPasses();
  // Memory offset `base` is the record's position `at`: body positions come back in the record's bytes.
  const stop = passes.decodeTable(base, base + span, count, RANKING.blockSize, top, out, bounds, at - base);
  const tableEnd = stop - base;
  if (stop < 0 || passes.tableLastBlock() >= blockCount(documents) || at + tableEnd + passes.tableBody() > end) throw new Error(CORRUPT);
  reader.position = at + tableEnd + passes.tableBody();
  const column = (n: number) => new Int32Array(memory, out + n * count * 4, count).slice();
  return {
    block: column(0),
    count: column(1),
    docStart: column(2),
    dataStart: column(3),
    dataEnd: column(4),
    bound: new Float64Array(memory, bounds, count).slice(),
  };
}

/** The postings of block entry `i` of a kind-1 record, decoded. */
export function readBlock(record: TermRecord, i: number): DecodedPostings {
  const table = record.blocks!;
  const reader = new ByteReader(record.bytes, table.docStart[i]!, table.dataEnd[i]!);
  const postings = decodePostings(reader, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, true);
  if (reader.position !== table.dataEnd[i]) throw new Error(CORRUPT);
  return postings;
}
