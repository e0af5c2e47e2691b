/**
 * Which documents each query word is found in, from document numbers alone (no score computed): per word a
 * bitset of the documents some form of it matches and one of those its own term matches. A dense term's
 * bitset is copied whole; other terms give their documents block by block from the doc gaps (and, for a
 * form limited to some fields, the mask bytes). `total` is the union's count in the range of the types
 * searched, exact; the per-word sets also bound each block's best document (block-bounds.ts). Runtime-neutral.
 */
import type { PreparedForm } from './prepared-form.ts';
import { ALL_FIELDS } from './postings-codec.ts';
import { RANKING } from './ranking.ts';
import { blockPasses } from './block-passes.ts';
import type { QueryMemory } from './query-memory.ts';
import { scratchBytes } from './scratch-space.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/** Valid until the next search (the sets live in reused scratch space). */
export interface WordBits {
  /** Per word, one bit per document: some form of the word is in it. Byte length a multiple of 4. */
  found: Uint8Array[];
  /** Per word: the word's own term is in the document. */
  exact: Uint8Array[];
  /** Documents in the range searched that any word is found in. */
  total: number;
}

/** Sets the bits of `prepared`'s documents (in `range`'s blocks) in `bits`; `empty`: no bit is set yet. */
function addForm(
  bits: Uint8Array,
  prepared: PreparedForm,
  [first, end]: readonly [number, number],
  memory: QueryMemory,
  empty: boolean,
): void {
  const { record, fields } = prepared.form;
  const size = RANKING.blockSize;
  if (record.dense && fields === ALL_FIELDS) {
    if (bits.length < record.dense.length) throw new Error(CORRUPT);
    if (empty) bits.set(record.dense);
    else for (let i = 0; i < record.dense.length; i++) bits[i]! |= record.dense[i]!;
    return;
  }
  const { blocks } = prepared;
  if (record.blocks) {
    // A common term: its blocks' documents decoded by the WebAssembly side, into a copy of the set there.
    const table = record.blocks;
    const n = blocks.length;
    const columns = [table.block, table.count, table.docStart, table.dataStart, table.dataEnd];
    for (const [c, column] of columns.entries()) new Int32Array(memory.buffer, memory.columns + c * n * 4, n).set(column);
    const copy = new Uint8Array(memory.buffer, memory.bits, bits.length);
    if (empty) copy.fill(0);
    else copy.set(bits);
    if (blockPasses().formBits(prepared.base, memory.columns, n, size, fields, first, end, memory.bits) < 0) throw new Error(CORRUPT);
    bits.set(copy);
    return;
  }
  // A rare term, scored already: a posting outside the form's fields has score 0.
  const { postings, starts } = prepared.whole!;
  const { docs, scores } = postings;
  for (let i = 0; i < blocks.length; i++) {
    if ((blocks[i]! + 1) * size <= first || blocks[i]! * size >= end) continue;
    for (let j = starts[i]!; j < starts[i + 1]!; j++) if (scores[j]! > 0) bits[docs[j]! >> 3]! |= 1 << (docs[j]! & 7);
  }
}

/** Each word's found and exact documents, and the exact number of documents in `range` that any word is in. */
export function wordBits(units: PreparedForm[][], documents: number, range: readonly [number, number], memory: QueryMemory): WordBits {
  const bytes = Math.ceil(documents / 32) * 4;
  const found: Uint8Array[] = [];
  const exact: Uint8Array[] = [];
  // One scratch buffer for every set: [any, then per word found and exact], each `bytes` long.
  const all = scratchBytes('word-bits', bytes * (1 + 2 * units.length));
  const any = new Int32Array(all.buffer, 0, bytes / 4);
  units.forEach((forms, u) => {
    const own = all.subarray(bytes * (2 + 2 * u), bytes * (3 + 2 * u));
    const exactForm = forms.find((prepared) => prepared.form.kind === 'exact');
    if (exactForm) addForm(own, exactForm, range, memory, true);
    const word = all.subarray(bytes * (1 + 2 * u), bytes * (2 + 2 * u));
    word.set(own);
    for (const prepared of forms) if (prepared !== exactForm) addForm(word, prepared, range, memory, !exactForm && prepared === forms[0]);
    const words = new Int32Array(all.buffer, word.byteOffset, bytes / 4);
    for (let i = 0; i < words.length; i++) any[i]! |= words[i]!;
    found.push(word);
    exact.push(own);
  });
  return { found, exact, total: countBits(any, range[0], range[1]) };
}

/** Set bits of `words` (32 documents each, little-endian as every runtime here) in `[first, end)`, 32 at a time. */
function countBits(words: Int32Array, first: number, end: number): number {
  const bit = (document: number) => (words[document >> 5]! >>> (document & 31)) & 1;
  let count = 0;
  let document = first;
  for (; document < end && document & 31; document++) count += bit(document);
  for (; document + 32 <= end; document += 32) {
    let v = words[document >> 5]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  for (; document < end; document++) count += bit(document);
  return count;
}
