/**
 * A query word's form (scoring.ts `Form`) made ready to score: which blocks its term has postings in, its
 * bound in each (the writer's, times the form's weight; a rare term's exact ones, scored at once), and its
 * postings in a block on demand, each with the form's weighted score. Runtime-neutral.
 */
import { blockScore, type DecodedPostings, type ScoreContext } from './postings-codec.ts';
import { align8, blockPasses, reserve, scratchStart } from './block-passes.ts';
import { RANKING } from './ranking.ts';
import { blockTable, readBlock, type TermRecord } from './record-reader.ts';
import type { Kept } from './query-memory.ts';

/** How a query word was found in a term: its own term, a longer one it prefixes, one edit away, or a synonym. */
export type FormKind = 'exact' | 'prefix' | 'typo' | 'synonym';

/** One term a query word is searched with. */
export interface Form {
  term: string;
  kind: FormKind;
  record: TermRecord;
  /** 1 for the word's own term; RANKING.weights for the others. */
  weight: number;
  /** Fields this form may match in, as a bit mask of field ids. */
  fields: number;
}

/** One query word (or synonym phrase) and the forms it is searched with, its own term first. */
export interface Unit {
  word: string;
  forms: Form[];
}

/** A form's postings in one block: documents and each one's weighted score (0: not in the form's fields). */
export interface BlockPostings {
  docs: Int32Array;
  scores: Float64Array;
}

/** Weighted scores of decoded postings for `form` (0 where none of its fields match). */
function scorePostings(form: Form, context: ScoreContext, postings: DecodedPostings): Float64Array {
  const { docs, masks, tf, lengths } = postings;
  const scores = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const mask = masks[i]! & form.fields;
    if (mask) scores[i] = form.weight * blockScore(form.record.weights, context.averageFieldLength, mask, tf, lengths, i * 5);
  }
  return scores;
}

/**
 * A rare term's form scored (scorePostings' arithmetic, by the WebAssembly module: a fresh isolate would
 * run thousands of BM25 sums in the interpreter) and cut into blocks: each block's best score and first posting.
 */
function prepareRare(form: Form, context: ScoreContext) {
  const { docs, masks, tf, lengths } = form.record.postings!;
  const count = docs.length;
  const base = scratchStart();
  const at = {
    docs: base,
    masks: base + align8(count * 4),
    tf: base + align8(count * 4) + align8(count),
    lengths: base + align8(count * 4) + align8(count) + count * 20,
  };
  const weights = at.lengths + count * 20;
  const averages = weights + 48;
  const scores = averages + 40;
  const blocks = scores + count * 8;
  const bounds = blocks + align8(count * 4);
  const starts = bounds + count * 8;
  const memory = reserve(starts + (count + 1) * 4);
  new Int32Array(memory, at.docs, count).set(docs);
  new Uint8Array(memory, at.masks, count).set(masks);
  new Uint32Array(memory, at.tf, count * 5).set(tf);
  new Uint32Array(memory, at.lengths, count * 5).set(lengths);
  new Float64Array(memory, weights, 6).set([form.weight, ...form.record.weights]);
  new Float64Array(memory, averages, 5).set(context.averageFieldLength);
  const { k, b, d } = RANKING.bm25;
  const size = RANKING.blockSize;
  const n = blockPasses().prepareRare(
    count,
    at.docs,
    at.masks,
    at.tf,
    at.lengths,
    form.fields,
    weights,
    averages,
    size,
    k,
    b,
    d,
    scores,
    blocks,
    bounds,
    starts,
  );
  return {
    scores: new Float64Array(memory, scores, count).slice(),
    blocks: new Int32Array(memory, blocks, n).slice(),
    bounds: new Float64Array(memory, bounds, n).slice(),
    starts: new Int32Array(memory, starts, n + 1).slice(),
  };
}

/** Index of `block` in sorted `blocks`, or -1. */
export function findBlock(blocks: Int32Array, block: number): number {
  // A common word's term is in nearly every block: then entry `block` is usually the block itself.
  if (blocks[block] === block) return block;
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = blocks[mid]!;
    if (value === block) return mid;
    if (value < block) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * A form prepared for the query: which blocks it has, its bound in each (`bounds` times `boundWeight`), and
 * its postings there on demand. A common term's blocks and bounds are read by the search where its record is
 * kept (query-memory.ts); as JavaScript columns they are decoded only when asked for (record-reader.ts blockTable).
 */
export class PreparedForm {
  /** How many blocks the form has postings in. */
  readonly count: number;
  /**
   * What `bounds` are still to be multiplied by: a common term's are the writer's, shared by every form of
   * its record, and weighed where they are read (wasm/block-order.as.ts formBounds); a rare term's are scored
   * with the form's weight already.
   */
  readonly boundWeight: number;
  /** A rare term's postings, scored, where each of its blocks starts in them, its blocks and their bounds. */
  readonly whole?: { postings: BlockPostings; starts: Int32Array; blocks: Int32Array; bounds: Float64Array };
  /** Where a common term's record and its table's columns are kept in the WebAssembly memory (query-memory.ts). */
  kept?: Kept;

  constructor(
    readonly form: Form,
    private readonly context: ScoreContext,
  ) {
    const { record } = form;
    if (record.table) {
      this.count = record.table.count;
      this.boundWeight = form.weight;
      return;
    }
    // A rare term: every posting scored now, so its bounds are exact.
    const { blocks, bounds, scores, starts } = prepareRare(form, context);
    this.count = blocks.length;
    this.boundWeight = 1;
    this.whole = { postings: { docs: record.postings!.docs, scores }, starts, blocks, bounds };
  }

  /** The blocks the form has postings in, in order. */
  get blocks(): Int32Array {
    return this.whole?.blocks ?? blockTable(this.form.record).block;
  }

  /** The form's bound in each of them. */
  get bounds(): Float64Array {
    return this.whole?.bounds ?? blockTable(this.form.record).bound;
  }

  /** The form's postings in entry `i` of its blocks. */
  postingsAt(i: number): BlockPostings {
    if (this.whole) {
      const { postings, starts } = this.whole;
      return { docs: postings.docs.subarray(starts[i]!, starts[i + 1]!), scores: postings.scores.subarray(starts[i]!, starts[i + 1]!) };
    }
    const decoded = readBlock(this.form.record, i);
    return { docs: decoded.docs, scores: scorePostings(this.form, this.context, decoded) };
  }
}
