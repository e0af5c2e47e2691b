/**
 * Blocks' bounds from their documents' impacts, taken by the WebAssembly module (block-passes.as.ts
 * impactBlockBounds) for the walk's next blocks a chunk at a time once a walk has gone far enough to need
 * them: the bound document-bounds.ts gives one block, for many, so a walk over thousands of blocks (three
 * common words at 100,000 documents visit about 1,500) drops most by one comparison instead of taking each
 * one's tight and impact bounds in JavaScript. It only drops blocks: a block kept goes through every bound
 * as before, so the page is the same (test/search/pruning.test.ts). Runtime-neutral.
 */
import type { WordTiers } from './block-bounds.ts';
import { align8, blockPasses } from './block-passes.ts';
import type { PreparedForm } from './prepared-form.ts';
import type { QueryMemory } from './query-memory.ts';
import { RANKING } from './ranking.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/**
 * The query's forms placed for the module once; then, per call, the bounds of the blocks `order[from, to)`
 * (`order` a view of the module's memory) into the returned view (per block; only those blocks are set).
 */
export function impactBlockBounds(
  units: PreparedForm[][],
  memory: QueryMemory,
  range: readonly [number, number],
  tiers: WordTiers,
): (order: Int32Array, from: number, to: number) => Float64Array {
  const { buffer } = memory;
  const forms = units.flatMap((list, u) => list.map((prepared) => ({ prepared, u })));
  const size = RANKING.blockSize;
  const descriptors = memory.impactSpace;
  const weights = descriptors + align8(forms.length * 48);
  const scratch = weights + forms.length * 8 + align8(forms.length * 4);
  const tierAt = align8(scratch + units.length * size * 9);
  const out = tierAt + 32;
  let free = out + memory.blocks * 8;
  const place = (column: Int32Array | Float64Array) => {
    const at = free;
    (column instanceof Int32Array ? new Int32Array(buffer, at, column.length) : new Float64Array(buffer, at, column.length)).set(column);
    free = align8(at + column.byteLength);
    return at;
  };
  new Float64Array(buffer, tierAt, 4).set([tiers.found, tiers.exact, tiers.foundComplete, tiers.exactComplete]);
  const description = new Int32Array(buffer, descriptors, forms.length * 12);
  forms.forEach(({ prepared, u }, f) => {
    const { record, kind, weight, fields } = prepared.form;
    new Float64Array(buffer, weights + f * 8, 1)[0] = weight;
    const table = record.blocks;
    const head = [u, kind === 'exact' ? 1 : 0, table ? 1 : 0, prepared.blocks.length, place(prepared.blocks)];
    const rest = table
      ? [place(table.docStart), place(table.dataStart), place(table.dataEnd), place(table.count), place(table.bound), prepared.base, fields]
      : [place(prepared.whole!.starts), place(prepared.whole!.postings.docs), place(prepared.whole!.postings.scores), 0, 0, 0, 0];
    description.set([...head, ...rest], f * 12);
  });
  const bounds = new Float64Array(buffer, out, memory.blocks);
  return (order, from, to) => {
    const list = order.byteOffset + from * 4;
    if (order.buffer !== buffer) throw new Error(CORRUPT);
    const status = blockPasses().impactBlockBounds(
      descriptors,
      forms.length,
      weights,
      units.length,
      range[0],
      range[1],
      size,
      list,
      to - from,
      tierAt,
      RANKING.saturation,
      scratch,
      out,
    );
    if (status < 0) throw new Error(CORRUPT);
    return bounds;
  };
}
