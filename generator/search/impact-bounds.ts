/**
 * A query's forms placed in the WebAssembly module's memory for the walk over blocks (block-walk.ts): per
 * form a description (wasm/forms.as.ts has its layout), its weights (the form's,
 * then its record's per field) and its columns (a common term's block table, a rare term's scored postings);
 * the work space, tiers and output of the blocks' bounds from the impacts, which the walk takes for its
 * next 256 blocks at a time once it proves long (a block's documents' best bound from their impacts, for
 * many blocks at once, so a walk over thousands of blocks drops most by one comparison). Runtime-neutral.
 */
import type { WordTiers } from './block-bounds.ts';
import { align8 } from './block-passes.ts';
import type { PreparedForm } from './prepared-form.ts';
import type { QueryMemory } from './query-memory.ts';
import { RANKING } from './ranking.ts';

/** Where the forms are, and where the walk's own space begins (`free`). */
export interface PlacedForms {
  descriptors: number;
  count: number;
  weights: number;
  /** Per word, its first form's index, then the forms' count. */
  wordForms: number[];
  scratch: number;
  tiers: number;
  out: number;
  free: number;
}

/** Places the query's forms from `memory.impactSpace`. */
export function placeForms(units: PreparedForm[][], memory: QueryMemory, tiers: WordTiers): PlacedForms {
  const { buffer } = memory;
  const forms = units.flatMap((list, u) => list.map((prepared) => ({ prepared, u })));
  const descriptors = memory.impactSpace;
  const weights = descriptors + align8(forms.length * 48);
  const scratch = weights + forms.length * 64;
  const tierAt = align8(scratch + units.length * RANKING.blockSize * 9);
  const out = tierAt + 40;
  let free = align8(out + memory.blocks * 8);
  const place = (column: Int32Array | Float64Array) => {
    const at = free;
    (column instanceof Int32Array ? new Int32Array(buffer, at, column.length) : new Float64Array(buffer, at, column.length)).set(column);
    free = align8(at + column.byteLength);
    return at;
  };
  new Float64Array(buffer, tierAt, 5).set([tiers.found, tiers.exact, tiers.foundComplete, tiers.exactComplete, tiers.complete]);
  const description = new Int32Array(buffer, descriptors, forms.length * 12);
  forms.forEach(({ prepared, u }, f) => {
    const { record, kind, weight, fields } = prepared.form;
    const weighting = new Float64Array(buffer, weights + f * 64, 6);
    weighting[0] = weight;
    weighting.set(record.weights, 1);
    const n = prepared.count;
    // A common term's columns are kept beside its record (query-memory.ts): block, count, docStart, dataStart, dataEnd.
    const kept = record.table ? prepared.kept! : undefined;
    const column = (c: number) => kept!.columns + c * n * 4;
    const head = [u, kind === 'exact' ? 1 : 0, kept ? 1 : 0, n, kept ? column(0) : place(prepared.whole!.blocks)];
    const rest = kept
      ? [column(2), column(3), column(4), column(1), kept.bounds, kept.body, fields]
      : [place(prepared.whole!.starts), place(prepared.whole!.postings.docs), place(prepared.whole!.postings.scores), 0, 0, 0, 0];
    description.set([...head, ...rest], f * 12);
  });
  const wordForms = [0];
  for (const list of units) wordForms.push(wordForms[wordForms.length - 1]! + list.length);
  return { descriptors, count: forms.length, weights, wordForms, scratch, tiers: tierAt, out, free };
}
