/**
 * `total` without scoring: one bit per document, set from each form's documents (a dense term's bitset is
 * OR-ed whole, other terms give their documents block by block from the doc gaps alone), then counted in
 * the range of the types searched. Runtime-neutral.
 */
import type { PreparedForm } from './prepared-form.ts';
import { ALL_FIELDS } from './postings-codec.ts';
import { RANKING } from './ranking.ts';
import { readBlockDocs } from './record-reader.ts';

/** Documents in `range` that any form of any word matches, counted from their document numbers only. */
export function countMatches(units: PreparedForm[][], documents: number, [first, end]: readonly [number, number]): number {
  const bits = new Uint8Array(Math.ceil(documents / 8));
  const set = (document: number) => {
    bits[document >> 3]! |= 1 << (document & 7);
  };
  const docs = new Int32Array(RANKING.blockSize);
  for (const prepared of units.flat()) {
    const { record, fields } = prepared.form;
    if (record.dense && fields === ALL_FIELDS) {
      for (let i = 0; i < bits.length; i++) bits[i]! |= record.dense[i]!;
    } else if (!record.blocks || fields !== ALL_FIELDS) {
      // Kind 0 (scored already), or a form limited to some fields: only postings in those fields count.
      prepared.blocks.forEach((block, i) => {
        if ((block + 1) * RANKING.blockSize <= first || block * RANKING.blockSize >= end) return;
        const { docs: found, scores } = prepared.postingsAt(i);
        found.forEach((document, j) => {
          if (scores[j]! > 0) set(document);
        });
      });
    } else {
      record.blocks.block.forEach((block, i) => {
        if ((block + 1) * RANKING.blockSize <= first || block * RANKING.blockSize >= end) return;
        const count = readBlockDocs(record, i, docs);
        for (let j = 0; j < count; j++) set(docs[j]!);
      });
    }
  }
  return countBits(bits, first, end);
}

const BITS_IN_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => {
  let count = 0;
  for (let rest = byte; rest; rest &= rest - 1) count++;
  return count;
});

/** Set bits of `bits` in `[first, end)`. */
function countBits(bits: Uint8Array, first: number, end: number): number {
  let count = 0;
  let document = first;
  while (document < end && document & 7) count += (bits[document >> 3]! >> (document++ & 7)) & 1;
  for (; document + 8 <= end; document += 8) count += BITS_IN_BYTE[bits[document >> 3]!]!;
  while (document < end) count += (bits[document >> 3]! >> (document++ & 7)) & 1;
  return count;
}
