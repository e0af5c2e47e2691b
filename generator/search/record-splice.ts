/**
 * A common term's record after some documents' postings changed (new pairs, fields gained or lost, the term
 * gained or lost), without building it again: what most of an edit's terms need. The bytes are what
 * record-builder.ts would write for the same postings, so this follows its rules:
 *
 * - Only the edited documents' blocks are decoded and encoded again (a block gained or emptied enters or
 *   leaves the table); every other block's doc gaps, mask bytes and pairs are copied as they are.
 * - A document's score depends on the term's weight in each field it holds it in, and a weight on the
 *   field's document frequency: when a document gains or loses the term in a field, every document holding
 *   it in that field scores anew. Those blocks' pairs are read (their mask bytes say which), not decoded into
 *   columns nor encoded again: their impacts and level are written anew between the copied bytes.
 * - A block's level and impacts depend on the record's best score and its own bound only. A block whose
 *   scores stay keeps its bytes while the best score stays; the best score is found from the blocks scored,
 *   and from the blocks kept only where their level's bound could reach it (those are scored too); when it
 *   moves, every block is scored and gets its new level and impacts.
 * - A change of kind (a term that becomes rare) or of the bitset's presence is built whole (undefined).
 *
 * Runtime-neutral.
 */
import { bm25, SEARCH_FIELDS } from './ranking.ts';
import { type Entry, entriesOf, type Pairs, readTable, type Table } from './block-edits.ts';
import {
  blockCount,
  boundLevel,
  ByteReader,
  ByteWriter,
  fieldWeights,
  float32Above,
  impactBytes,
  impactOf,
  levelBound,
} from './postings-codec.ts';

const FIELDS = SEARCH_FIELDS.length;

/** The varint at `reader`'s position: most values take one byte, read here; a longer one is read by the codec. */
function nextValue(reader: ByteReader): number {
  const { bytes, position } = reader;
  const value = bytes[position]!;
  if (value >= 0x80 || position >= reader.end) return reader.varint();
  reader.position = position + 1;
  return value;
}

/** Scores each document of `entry` into `scores` from `at` on, as blockScore does (fields ascending); sets its bound. */
function score(entry: Entry, weights: Float64Array, grid: readonly number[], scores: Float64Array, at: number): void {
  const { bytes, count } = entry;
  const masksAt = entry.start + entry.docBytes;
  // The pairs read where they are, between bytes copied as they are: not decoded into columns.
  const reader = new ByteReader(bytes, masksAt + count + impactBytes(count), masksAt + entry.dataBytes);
  let bound = 0;
  for (let j = 0; j < count; j++) {
    const mask = bytes[masksAt + j]!;
    let sum = 0;
    for (let field = 0; field < FIELDS; field++) {
      // Arguments are read in order: the field's tf, then its length.
      if (mask & (1 << field)) sum += bm25(weights[field]!, nextValue(reader), nextValue(reader), grid[field]!);
    }
    scores[at + j] = sum;
    if (sum > bound) bound = sum;
  }
  entry.scored = at;
  entry.bound = bound;
}

/** A block's impacts under its level's bound (two documents a byte), into `out` from `from` on. */
function writeImpacts(out: Uint8Array, from: number, top: number, entry: Entry, scores: Float64Array): void {
  const blockBound = levelBound(top, entry.level);
  const at = entry.scored!;
  for (let j = 0, to = from; j < entry.count; j += 2, to++) {
    out[to] = impactOf(blockBound, scores[at + j]!) | (j + 1 < entry.count ? impactOf(blockBound, scores[at + j + 1]!) << 4 : 0);
  }
}

/**
 * The blocks' bodies (doc gaps, mask bytes, impacts, pairs) as writeBlocks writes them, into `out` from `from`
 * on: copied, runs of kept blocks at once, with each scored block's impacts written anew in place (they keep
 * their length).
 */
function writeBodies(out: Uint8Array, from: number, entries: Entry[], top: number, scores: Float64Array): void {
  let to = from;
  let run: Entry | undefined;
  let runEnd = 0;
  let runTo = 0;
  const flush = () => {
    if (run) out.set(run.bytes.subarray(run.start, runEnd), runTo);
    run = undefined;
  };
  for (const entry of entries) {
    const size = entry.docBytes + entry.dataBytes;
    if (!run || entry.bytes !== run.bytes || entry.start !== runEnd) {
      flush();
      [run, runTo] = [entry, to];
    }
    runEnd = entry.start + size;
    to += size;
  }
  flush();
  to = from;
  for (const entry of entries) {
    if (entry.scored !== undefined) writeImpacts(out, to + entry.docBytes + entry.count, top, entry, scores);
    to += entry.docBytes + entry.dataBytes;
  }
}

/**
 * The block table as writeBlocks writes it. An entry whose block kept its level and follows the block it
 * followed (its gap is from that block) has the bytes it had: runs of such entries are copied from the
 * record, and only the others encoded. Encoding every entry (some 6,000 a common term at 100,000 documents,
 * for each of an edited document's terms) took half of a body edit's splicing.
 */
function writeTable(out: ByteWriter, bytes: Uint8Array, { blocks, rows }: Table, entries: Entry[]): void {
  let previous = -1;
  // A run of the record's table bytes, to copy.
  let from = 0;
  let to = 0;
  for (const entry of entries) {
    const { row } = entry;
    const same = row >= 0 && entry.level === bytes[rows[row + 1]! - 1] && previous === (row === 0 ? -1 : blocks[row - 1]!.block);
    if (same && to === rows[row]) to = rows[row + 1]!;
    else {
      if (to > from) out.raw(bytes.subarray(from, to));
      [from, to] = same ? [rows[row]!, rows[row + 1]!] : [0, 0];
      if (!same) {
        out.varint(entry.block - previous);
        out.varint(entry.count);
        out.varint(entry.docBytes);
        out.varint(entry.dataBytes);
        out.byte(entry.level);
      }
    }
    previous = entry.block;
  }
  if (to > from) out.raw(bytes.subarray(from, to));
}

/** A record spliced: its bytes and its document frequency per field. */
export interface SplicedRecord {
  bytes: Uint8Array;
  df: number[];
}

/**
 * `bytes` (a record of an index of `documents`, averages at grid point `grid`) with each document of `edits`
 * holding the term as its pairs say (none: not at all), or undefined when the record must be built whole:
 * a rare term's, one that becomes rare, or one whose bitset comes or goes.
 */
export function spliceRecord(
  bytes: Uint8Array,
  edits: Map<number, Pairs>,
  documents: number,
  grid: readonly number[],
): SplicedRecord | undefined {
  const table = readTable(bytes, documents);
  if (!table) return undefined;
  const df = table.df.slice();
  const flips: number[] = [];
  const entries = entriesOf(table, edits, df, flips);
  const docCount = table.docCount + flips.reduce((sum, document) => sum + (edits.get(document)!.length > 0 ? 1 : -1), 0);
  if (docCount < blockCount(documents) || docCount * 8 >= documents !== table.bitset >= 0) return undefined;
  const context = { documents, averageFieldLength: grid };
  const weights = fieldWeights(df, context);
  const before = fieldWeights(table.df, context);
  let moved = 0;
  for (let field = 0; field < FIELDS; field++) if (weights[field] !== before[field]) moved |= 1 << field;
  // Scored now: the edited blocks and those holding the term in a field whose weight moved.
  const scores = new Float64Array(docCount);
  let at = 0;
  const scoreEntry = (entry: Entry) => {
    score(entry, weights, grid, scores, at);
    at += entry.count;
  };
  for (const entry of entries) {
    if (entry.edited || (moved && holdsAny(entry, moved))) scoreEntry(entry);
  }
  let best = 0;
  for (const entry of entries) if (entry.scored !== undefined) best = Math.max(best, entry.bound);
  // A kept block's scores are at most its level's bound: only one that could reach the best is scored.
  for (const entry of entries) {
    if (entry.scored === undefined && levelBound(table.top, entry.level) >= best) {
      scoreEntry(entry);
      best = Math.max(best, entry.bound);
    }
  }
  const top = float32Above(best);
  for (const entry of entries) {
    if (entry.scored === undefined && top !== table.top) scoreEntry(entry);
    if (entry.scored !== undefined) entry.level = boundLevel(top, entry.bound);
  }
  return { bytes: write(bytes, table, entries, { df, docCount, top, flips, scores }), df };
}

/** Whether a block has a document holding the term in a field of `fields` (its mask bytes, read). */
function holdsAny({ bytes, start, docBytes, count }: Entry, fields: number): boolean {
  for (let j = start + docBytes; j < start + docBytes + count; j++) if (bytes[j]! & fields) return true;
  return false;
}

/** The record's bytes: header, bitset with the flipped documents' bits, block table, bodies. */
function write(
  bytes: Uint8Array,
  table: Table,
  entries: Entry[],
  now: { df: number[]; docCount: number; top: number; flips: number[]; scores: Float64Array },
): Uint8Array {
  // The header and table only: the bodies are copied into the record's own bytes, not through the writer.
  const out = new ByteWriter(table.rows[table.blocks.length]! + 64);
  const present = now.df.flatMap((df, fieldId) => (df > 0 ? [fieldId, df] : []));
  out.varint(present.length / 2);
  for (const value of present) out.varint(value);
  out.varint(now.docCount);
  out.varint(1);
  out.varint(table.bitset >= 0 ? 1 : 0);
  if (table.bitset >= 0) {
    const bits = bytes.slice(table.bitset, table.bitset + table.bitsetBytes);
    for (const document of now.flips) bits[document >> 3]! ^= 1 << (document & 7);
    out.raw(bits);
  }
  out.varint(entries.length);
  out.float32(now.top);
  writeTable(out, bytes, table, entries);
  const head = out.result();
  const record = new Uint8Array(entries.reduce((sum, entry) => sum + entry.docBytes + entry.dataBytes, head.length));
  record.set(head);
  writeBodies(record, head.length, entries, now.top, now.scores);
  return record;
}
