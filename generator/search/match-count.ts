/**
 * Which documents each query word is found in, from document numbers alone (no score computed): per word a
 * bitset of the documents some form of it matches and one of those its own term matches. A dense term's
 * bitset is copied whole; other terms give their documents block by block from the doc gaps (and, for a
 * form limited to some fields, the mask bytes). `total` is the union's count in the range of the types
 * searched, exact; the per-word sets also bound each block's best document (block-bounds.ts). The sets live
 * in the WebAssembly module's memory (query-memory.ts), where the walk reads them, and the passes over them
 * (a dense bitset OR-ed in, the union counted) run there: in a fresh isolate the same loops over 3,125 words
 * a set at 100,000 documents ran in the interpreter and then cost the optimizing compilers. Runtime-neutral.
 */
import type { PreparedForm } from './prepared-form.ts';
import { ALL_FIELDS } from './postings-codec.ts';
import { RANKING } from './ranking.ts';
import { blockPasses } from './block-passes.ts';
import type { QueryMemory } from './query-memory.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/** Views of the module's memory, valid until the next search. */
export interface WordBits {
  /** Per word, one bit per document: some form of the word is in it. Byte length a multiple of 4. */
  found: Uint8Array[];
  /** Per word: the word's own term is in the document. */
  exact: Uint8Array[];
  /** Documents in the range searched that any word is found in. */
  total: number;
}

/** Sets the bits of `prepared`'s documents (in `range`'s blocks) in the set at `set` of `memory`; `empty`: no bit is set yet. */
function addForm(set: number, prepared: PreparedForm, [first, end]: readonly [number, number], memory: QueryMemory, empty: boolean): void {
  const { record, fields } = prepared.form;
  const { buffer, setBytes } = memory;
  const size = RANKING.blockSize;
  if (record.dense && fields === ALL_FIELDS) {
    const { dense } = record;
    if (setBytes < dense.length) throw new Error(CORRUPT);
    // The record is in the module's memory too (query-memory.ts keepRecords), its shard's position 0 at `kept.shard`.
    if (empty) new Uint8Array(buffer, set, dense.length).set(dense);
    else blockPasses().orBytes(set, prepared.kept!.shard + dense.byteOffset - record.bytes.byteOffset, dense.length);
    return;
  }
  if (record.table) {
    // A common term: its blocks' documents decoded by the WebAssembly side, into the set, from its table's
    // columns kept beside its record (query-memory.ts); a dense term's from its bitset there, with no doc gap read.
    const kept = prepared.kept!;
    const dense = record.dense ? kept.shard + record.dense.byteOffset - record.bytes.byteOffset : 0;
    const at = [kept.body, kept.columns, prepared.count, fields, first, end, set] as const;
    if (blockPasses().formBits(...at, dense, record.dense?.length ?? 0) < 0) throw new Error(CORRUPT);
    return;
  }
  // A rare term, scored already: a posting outside the form's fields has score 0.
  const bits = new Uint8Array(buffer, set, setBytes);
  const { postings, starts, blocks } = prepared.whole!;
  const { docs, scores } = postings;
  for (let i = 0; i < blocks.length; i++) {
    if ((blocks[i]! + 1) * size <= first || blocks[i]! * size >= end) continue;
    for (let j = starts[i]!; j < starts[i + 1]!; j++) if (scores[j]! > 0) bits[docs[j]! >> 3]! |= 1 << (docs[j]! & 7);
  }
}

/**
 * Each word's found and exact documents, and the exact number of documents in `range` that any word is in.
 * The sets are the ones `memory` lays out, zeroed by placeQuery.
 */
export function wordBits(units: PreparedForm[][], range: readonly [number, number], memory: QueryMemory): WordBits {
  const { buffer, setBytes } = memory;
  const found: Uint8Array[] = [];
  const exact: Uint8Array[] = [];
  units.forEach((forms, u) => {
    const own = memory.exactSets + u * setBytes;
    const exactForm = forms.find((prepared) => prepared.form.kind === 'exact');
    if (exactForm) addForm(own, exactForm, range, memory, true);
    const word = memory.found + u * setBytes;
    new Uint8Array(buffer).copyWithin(word, own, own + setBytes);
    for (const prepared of forms) if (prepared !== exactForm) addForm(word, prepared, range, memory, !exactForm && prepared === forms[0]);
    found.push(new Uint8Array(buffer, word, setBytes));
    exact.push(new Uint8Array(buffer, own, setBytes));
  });
  const total = blockPasses().unionCount(memory.found, units.length, setBytes, range[0], range[1]);
  return { found, exact, total };
}
