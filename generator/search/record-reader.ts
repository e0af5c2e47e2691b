/**
 * The reader's side of a postings record (postings-codec.ts has the layout, record-builder.ts writes it):
 * the header, field weights and either every posting (a rare term) or the block table (a common one), whose
 * bodies are decoded only for the blocks a query scores or counts. Runtime-neutral.
 */
import {
  blockCount,
  ByteReader,
  type DecodedPostings,
  decodeBlockDocs,
  decodePostings,
  fieldWeights,
  type ScoreContext,
} from './postings-codec.ts';
import { RANKING, SEARCH_FIELDS } from './ranking.ts';

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
  if (end > bytes.length) throw new Error('postings: record is truncated or corrupt');
  const reader = new ByteReader(bytes, offset, end);
  const df = new Array<number>(SEARCH_FIELDS.length).fill(0);
  const fields = reader.varint();
  for (let i = 0; i < fields; i++) {
    const fieldId = reader.varint();
    if (fieldId >= df.length) throw new Error('postings: record is truncated or corrupt');
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
      if (reader.position + size > end) throw new Error('postings: record is truncated or corrupt');
      record.dense = bytes.subarray(reader.position, reader.position + size);
      reader.position += size;
    }
    record.blocks = readTable(reader, context.documents);
  } else {
    throw new Error('postings: record is truncated or corrupt');
  }
  if (reader.position > end) throw new Error('postings: record is truncated or corrupt');
  return record;
}

function readTable(reader: ByteReader, documents: number): BlockTable {
  const count = reader.varint();
  if (count > blockCount(documents)) throw new Error('postings: record is truncated or corrupt');
  const table: BlockTable = {
    block: new Int32Array(count),
    count: new Int32Array(count),
    docStart: new Int32Array(count),
    dataStart: new Int32Array(count),
    dataEnd: new Int32Array(count),
    bound: new Float64Array(count),
  };
  const docBytes = new Int32Array(count);
  const dataBytes = new Int32Array(count);
  let block = -1;
  for (let i = 0; i < count; i++) {
    block += reader.varint();
    table.block[i] = block;
    table.count[i] = reader.varint();
    docBytes[i] = reader.varint();
    dataBytes[i] = reader.varint();
    table.bound[i] = reader.float32();
  }
  let position = reader.position;
  for (let i = 0; i < count; i++) {
    table.docStart[i] = position;
    table.dataStart[i] = position + docBytes[i]!;
    position = table.dataEnd[i] = table.dataStart[i]! + dataBytes[i]!;
  }
  if (block >= blockCount(documents) || position > reader.end) throw new Error('postings: record is truncated or corrupt');
  reader.position = position;
  return table;
}

/** The postings of block entry `i` of a kind-1 record, decoded. */
export function readBlock(record: TermRecord, i: number): DecodedPostings {
  const table = record.blocks!;
  const reader = new ByteReader(record.bytes, table.docStart[i]!, table.dataEnd[i]!);
  const postings = decodePostings(reader, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, true);
  if (reader.position !== table.dataEnd[i]) throw new Error('postings: record is truncated or corrupt');
  return postings;
}

/** The documents of block entry `i` of a kind-1 record, into `into` (at least the block's count long). */
export function readBlockDocs(record: TermRecord, i: number, into: Int32Array): number {
  const table = record.blocks!;
  decodeBlockDocs(record.bytes, table.docStart[i]!, table.dataStart[i]!, table.count[i]!, table.block[i]! * RANKING.blockSize - 1, into);
  return table.count[i]!;
}
