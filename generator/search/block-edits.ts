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

/** The header and block table of a kind-1 record. */
export interface Table {
  df: number[];
  docCount: number;
  /** Where the bitset starts, or -1 when the record has none; its length. */
  bitset: number;
  bitsetBytes: number;
  top: number;
  block: number[];
  count: number[];
  docBytes: number[];
  dataBytes: number[];
  level: number[];
  bodyStart: number[];
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
  const table: Table = {
    df,
    docCount,
    bitset,
    bitsetBytes,
    top: reader.float32(),
    block: [],
    count: [],
    docBytes: [],
    dataBytes: [],
    level: [],
    bodyStart: [],
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
}

/** Old block `i`'s postings (none when -1) with `edits` applied, as an entry of block `block`; df and presence updated. */
function editBlock(bytes: Uint8Array, table: Table, i: number, block: number, edits: Map<number, Pairs>, df: number[], flips: number[]) {
  const old = new Map<number, [mask: number, pairs: number[]]>();
  if (i >= 0) {
    const start = table.bodyStart[i]!;
    const reader = new ByteReader(bytes, start, start + table.docBytes[i]! + table.dataBytes[i]!);
    const { docs, masks, tf, lengths } = decodePostings(reader, table.count[i]!, block * SIZE - 1, true);
    for (let j = 0; j < docs.length; j++) {
      const pairs: number[] = [];
      for (let field = 0; field < FIELDS; field++) {
        if (masks[j]! & (1 << field)) pairs.push(tf[j * FIELDS + field]!, lengths[j * FIELDS + field]!);
      }
      old.set(docs[j]!, [masks[j]!, pairs]);
    }
  }
  const postings: [document: number, mask: number, pairs: number[]][] = [];
  for (const document of [...new Set([...old.keys(), ...edits.keys()])].sort((a, b) => a - b)) {
    const was = old.get(document);
    const now = edits.get(document);
    if (!now) {
      postings.push([document, ...was!]);
      continue;
    }
    if (was) for (let field = 0; field < FIELDS; field++) if (was[0] & (1 << field)) df[field]!--;
    if (now.length > 0 !== !!was) flips.push(document);
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
  };
  return entry;
}

/** The table's entries with the edited blocks in place (a block gained or emptied enters or leaves the table). */
export function entriesOf(bytes: Uint8Array, table: Table, edits: Map<number, Pairs>, df: number[], flips: number[]): Entry[] {
  const byBlock = new Map<number, Map<number, Pairs>>();
  for (const [document, pairs] of edits) {
    const block = Math.floor(document / SIZE);
    byBlock.set(block, (byBlock.get(block) ?? new Map<number, Pairs>()).set(document, pairs));
  }
  const edited = [...byBlock.keys()].sort((a, b) => a - b);
  const entries: Entry[] = [];
  const place = (block: number, i: number) => {
    const blockEdits = byBlock.get(block);
    const entry = blockEdits
      ? editBlock(bytes, table, i, block, blockEdits, df, flips)
      : {
          block,
          count: table.count[i]!,
          bytes,
          start: table.bodyStart[i]!,
          docBytes: table.docBytes[i]!,
          dataBytes: table.dataBytes[i]!,
          edited: false,
          level: table.level[i]!,
          bound: 0,
        };
    if (entry.count > 0) entries.push(entry);
  };
  let next = 0;
  table.block.forEach((block, i) => {
    for (; next < edited.length && edited[next]! < block; next++) place(edited[next]!, -1);
    if (edited[next] === block) next++;
    place(block, i);
  });
  for (; next < edited.length; next++) place(edited[next]!, -1);
  return entries;
}
