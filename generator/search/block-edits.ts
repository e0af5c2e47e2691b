/**
 * A common term's record as record-splice.ts splices it: its header and block table read (the bodies left
 * where they are), and the edited documents' blocks decoded and encoded again with their new postings, in
 * place among the other blocks' entries. Runtime-neutral.
 */
import { RANKING, SEARCH_FIELDS } from './ranking.ts';
import { ByteReader, ByteWriter, decodePostings, impactBytes } from './postings-codec.ts';

const FIELDS = SEARCH_FIELDS.length;
const SIZE = RANKING.blockSize;

/** An edited document's pairs now: `[fieldId, tf, length]`, fields ascending; none when it no longer holds the term. */
export type Pairs = [fieldId: number, tf: number, length: number][];

/** The header of a kind-1 record, and its blocks as they are. */
export interface Table {
  df: number[];
  docCount: number;
  /** Where the bitset starts, or -1 when the record has none; its length. */
  bitset: number;
  bitsetBytes: number;
  top: number;
  blocks: Entry[];
  /** Where each block's entry of the table starts in the record's bytes, and (last) where the table ends. */
  rows: Uint32Array;
}

/** The header and block table of a kind-1 record, or undefined for a rare term's. */
export function readTable(bytes: Uint8Array, documents: number): Table | undefined {
  const reader = new ByteReader(bytes, 0, bytes.length);
  const df = new Array<number>(FIELDS).fill(0);
  for (let fields = reader.varint(); fields > 0; fields--) {
    const id = reader.varint();
    df[id] = reader.varint();
  }
  const docCount = reader.varint();
  if (reader.varint() !== 1) return undefined;
  let bitset = -1;
  const bitsetBytes = Math.ceil(documents / 8);
  if (reader.varint() === 1) {
    bitset = reader.position;
    reader.position += bitsetBytes;
  }
  const count = reader.varint();
  const top = reader.float32();
  const table: Table = { df, docCount, bitset, bitsetBytes, top, blocks: new Array<Entry>(count), rows: new Uint32Array(count + 1) };
  let block = -1;
  for (let row = 0; row < count; row++) {
    table.rows[row] = reader.position;
    block += reader.varint();
    // One by one, in the table's order (an array of the three made one per block: 6,000 a common term at 100,000 documents).
    const entries = reader.varint();
    const docBytes = reader.varint();
    const dataBytes = reader.varint();
    table.blocks[row] = { block, count: entries, bytes, start: 0, docBytes, dataBytes, edited: false, level: reader.byte(), bound: 0, row };
  }
  table.rows[count] = reader.position;
  // The bodies follow the table, in its order.
  let at = reader.position;
  for (const entry of table.blocks) {
    entry.start = at;
    at += entry.docBytes + entry.dataBytes;
  }
  return table;
}

/**
 * One block of the record being written, and where its body is: in the record's bytes (a block kept), or in
 * bytes of its own (an edited block, encoded as writeBlocks encodes it, its impacts left to be written).
 */
export interface Entry {
  block: number;
  count: number;
  bytes: Uint8Array;
  start: number;
  docBytes: number;
  dataBytes: number;
  edited: boolean;
  /** Its level (a kept block's as it was until scored), and once scored, its bound and where its scores are. */
  level: number;
  bound: number;
  scored?: number;
  /** The block's place in the record's table (Table.rows), or -1 for a block encoded anew. */
  row: number;
}

/** Block `block` (`old` as it was, if it had postings) with `edits` applied, encoded as an entry; df and presence updated. */
function editBlock(old: Entry | undefined, block: number, edits: Map<number, Pairs>, df: number[], flips: number[]): Entry {
  const was = new Map<number, [mask: number, pairs: number[]]>();
  if (old) {
    const reader = new ByteReader(old.bytes, old.start, old.start + old.docBytes + old.dataBytes);
    const { docs, masks, tf, lengths } = decodePostings(reader, old.count, block * SIZE - 1, true);
    for (let j = 0; j < docs.length; j++) {
      const pairs: number[] = [];
      for (let field = 0; field < FIELDS; field++) {
        if (masks[j]! & (1 << field)) pairs.push(tf[j * FIELDS + field]!, lengths[j * FIELDS + field]!);
      }
      was.set(docs[j]!, [masks[j]!, pairs]);
    }
  }
  const postings: [document: number, mask: number, pairs: number[]][] = [];
  for (const document of [...new Set([...was.keys(), ...edits.keys()])].sort((a, b) => a - b)) {
    const before = was.get(document);
    const now = edits.get(document);
    if (!now) {
      postings.push([document, ...before!]);
      continue;
    }
    if (before) for (let field = 0; field < FIELDS; field++) if (before[0] & (1 << field)) df[field]!--;
    if (now.length > 0 !== !!before) flips.push(document);
    if (now.length === 0) continue;
    let mask = 0;
    for (const [fieldId] of now) {
      mask |= 1 << fieldId;
      df[fieldId]!++;
    }
    postings.push([document, mask, now.flatMap(([, tf, length]) => [tf, length])]);
  }
  const body = new ByteWriter(64);
  let before = block * SIZE - 1;
  for (const [document] of postings) {
    body.varint(document - before);
    before = document;
  }
  const docBytes = body.length;
  for (const [, mask] of postings) body.byte(mask);
  for (let j = 0; j < impactBytes(postings.length); j++) body.byte(0);
  for (const [, , pairs] of postings) for (const value of pairs) body.varint(value);
  const encoded = body.result();
  const entry: Entry = {
    block,
    count: postings.length,
    bytes: encoded,
    start: 0,
    docBytes,
    dataBytes: encoded.length - docBytes,
    edited: true,
    level: 0,
    bound: 0,
    row: -1,
  };
  return entry;
}

/** The table's blocks with the edited ones in place (a block gained or emptied enters or leaves the table). */
export function entriesOf(table: Table, edits: Map<number, Pairs>, df: number[], flips: number[]): Entry[] {
  const byBlock = new Map<number, Map<number, Pairs>>();
  for (const [document, pairs] of edits) {
    const block = Math.floor(document / SIZE);
    byBlock.set(block, (byBlock.get(block) ?? new Map<number, Pairs>()).set(document, pairs));
  }
  const edited = [...byBlock.keys()].sort((a, b) => a - b);
  const entries: Entry[] = [];
  let next = 0;
  const place = (block: number, old: Entry | undefined) => {
    const entry = editBlock(old, block, byBlock.get(block)!, df, flips);
    if (entry.count > 0) entries.push(entry);
  };
  for (const entry of table.blocks) {
    for (; next < edited.length && edited[next]! < entry.block; next++) place(edited[next]!, undefined);
    if (edited[next] !== entry.block) entries.push(entry);
    else place(edited[next++]!, entry);
  }
  for (; next < edited.length; next++) place(edited[next]!, undefined);
  return entries;
}
