/**
 * A query word's form (scoring.ts `Form`) made ready to score: which blocks its term has postings in, its
 * bound in each (the writer's, times the form's weight; a rare term's exact ones, scored at once), and its
 * postings in a block on demand, each with the form's weighted score. Runtime-neutral.
 */
import { blockScore, type DecodedPostings, type ScoreContext } from './postings-codec.ts';
import { RANKING } from './ranking.ts';
import { readBlock } from './record-reader.ts';
import type { TermRecord } from './record-reader.ts';

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

/** A form prepared for the query: which blocks it has, its bound in each, and its postings there on demand. */
export class PreparedForm {
  readonly blocks: Int32Array;
  readonly bounds: Float64Array;
  /** A rare term's postings, scored, and where each of its blocks starts in them. */
  readonly whole?: { postings: BlockPostings; starts: Int32Array };
  /** Where the WebAssembly memory holds the record's shard position 0 (block-bounds.ts copies it there per query). */
  base = -1;

  constructor(
    readonly form: Form,
    private readonly context: ScoreContext,
  ) {
    const { record } = form;
    if (record.blocks) {
      this.blocks = record.blocks.block;
      this.bounds = form.weight === 1 ? record.blocks.bound : record.blocks.bound.map((bound) => bound * form.weight);
      return;
    }
    // A rare term: every posting scored now, so its bounds are exact.
    const postings = record.postings!;
    const scores = scorePostings(form, context, postings);
    const blocks: number[] = [];
    const bounds: number[] = [];
    const starts: number[] = [];
    postings.docs.forEach((document, i) => {
      const block = Math.floor(document / RANKING.blockSize);
      if (blocks[blocks.length - 1] !== block) {
        blocks.push(block);
        bounds.push(0);
        starts.push(i);
      }
      bounds[bounds.length - 1] = Math.max(bounds[bounds.length - 1]!, scores[i]!);
    });
    starts.push(postings.docs.length);
    this.blocks = Int32Array.from(blocks);
    this.bounds = Float64Array.from(bounds);
    this.whole = { postings: { docs: postings.docs, scores }, starts: Int32Array.from(starts) };
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
