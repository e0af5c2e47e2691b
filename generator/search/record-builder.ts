/**
 * The writer's side of a postings record (postings-codec.ts has the layout): a term's postings are kept
 * varint-encoded as the writer meets them in document order, and encoded as a record once the number of
 * documents is known, with each block's bound. The bounds are scored with the average field lengths rounded
 * up to a coarse grid (boundAverages), not with the averages themselves, so that a record's bytes depend on
 * its own postings, the number of documents and the grid point only: an edit elsewhere that moves an average
 * leaves every other record as it was (the index can then be updated by term, index-update.ts), and since
 * BM25 grows with the average length, a bound scored with a larger average is still an upper bound.
 * Runtime-neutral.
 */
import {
  blockCount,
  blockScore,
  boundLevel,
  ByteReader,
  ByteWriter,
  type DecodedPostings,
  decodePostings,
  fieldWeights,
  float32Above,
  impactOf,
  levelBound,
  type ScoreContext,
} from './postings-codec.ts';
import { RANKING, SEARCH_FIELDS } from './ranking.ts';

const FIELD_COUNT = SEARCH_FIELDS.length;

/** Grid steps per doubling of an average: bounds are at most one step (1.6 to 3.1%) looser in the length part. */
const GRID_STEPS = 32;

/**
 * Each average rounded up to the grid: the smallest `k * 2^(e - 5)` at or above it, where `2^e <= average <
 * 2^(e + 1)`, every step a binary fraction, so the grid point is exact and the same on any machine. 0 stays 0
 * (a field no document has: no term scores in it).
 */
export function boundAverages(averages: readonly number[]): number[] {
  return averages.map((average) => {
    if (!(average > 0)) return 0;
    let exponent = Math.floor(Math.log2(average));
    while (2 ** exponent > average) exponent--;
    while (2 ** (exponent + 1) <= average) exponent++;
    const step = 2 ** exponent / GRID_STEPS;
    return Math.ceil(average / step) * step;
  });
}

/** One term's postings, built as the writer meets the term in document order (fields ascending within one). */
export class RecordBuilder {
  private readonly bytes = new ByteWriter(16);
  private readonly df = new Array<number>(FIELD_COUNT).fill(0);
  private previous = -1;
  private document = -1;
  private mask = 0;
  private pairs: number[] = [];
  /** Documents the term occurs in. */
  docCount = 0;
  /** Postings over all fields (what the dictionary reports). */
  postings = 0;

  add(fieldId: number, document: number, tf: number, length: number): void {
    if (document !== this.document) {
      if (document < this.document) throw new Error('postings: documents must ascend');
      this.flush();
      this.document = document;
      this.docCount++;
    } else if (this.mask >= 1 << fieldId) throw new Error('postings: fields must ascend');
    this.mask |= 1 << fieldId;
    this.pairs.push(tf, length);
    this.df[fieldId]!++;
    this.postings++;
  }

  has(fieldId: number): boolean {
    return this.df[fieldId]! > 0;
  }

  private flush(): void {
    if (this.document < 0 || this.mask === 0) return;
    this.bytes.varint(this.document - this.previous);
    this.bytes.varint(this.mask);
    for (const value of this.pairs) this.bytes.varint(value);
    this.previous = this.document;
    this.mask = 0;
    this.pairs = [];
  }

  encode(context: ScoreContext): Uint8Array {
    this.flush();
    const out = new ByteWriter(this.bytes.length + 32);
    const present = this.df.flatMap((df, fieldId) => (df > 0 ? [fieldId, df] : []));
    out.varint(present.length / 2);
    for (const value of present) out.varint(value);
    out.varint(this.docCount);
    const blocks = blockCount(context.documents);
    if (this.docCount < blocks) {
      out.varint(0);
      out.raw(this.bytes.result());
      return out.result();
    }
    out.varint(1);
    const postings = decodePostings(new ByteReader(this.bytes.result(), 0, this.bytes.length), this.docCount, -1, false);
    writeDense(out, postings.docs, context.documents);
    writeBlocks(out, postings, fieldWeights(this.df, context), context);
    return out.result();
  }
}

/** `dense` and, for a term in an eighth of the documents or more, its bitset. */
function writeDense(out: ByteWriter, docs: Int32Array, documents: number): void {
  const dense = docs.length * 8 >= documents;
  out.varint(dense ? 1 : 0);
  if (!dense) return;
  const bits = new Uint8Array(Math.ceil(documents / 8));
  for (const document of docs) bits[document >> 3]! |= 1 << (document & 7);
  out.raw(bits);
}

/** The block table (with each block's bound, quantized) and the block bodies: doc gaps, mask bytes, impacts, then pairs. */
function writeBlocks(out: ByteWriter, postings: DecodedPostings, weights: Float64Array, context: ScoreContext): void {
  const { docs, masks, tf, lengths } = postings;
  const size = RANKING.blockSize;
  // Each document's score, and where each block's documents start (consecutive document numbers per block).
  const scores = Float64Array.from(docs, (_, i) =>
    blockScore(weights, context.averageFieldLength, masks[i]!, tf, lengths, i * FIELD_COUNT),
  );
  const starts = [0];
  for (let i = 1; i <= docs.length; i++)
    if (i === docs.length || Math.floor(docs[i]! / size) !== Math.floor(docs[i - 1]! / size)) starts.push(i);
  // Typed, with plain loops: an array of bounds held small integers (0) for some terms and fractions for others,
  // and the optimized code of this function was thrown away at each change of kind (11 times at 4,000 articles).
  const bounds = new Float64Array(starts.length - 1);
  let highest = 0;
  for (let b = 0; b < bounds.length; b++) {
    for (let i = starts[b]!; i < starts[b + 1]!; i++) bounds[b] = Math.max(bounds[b]!, scores[i]!);
    highest = Math.max(highest, bounds[b]!);
  }
  const top = float32Above(highest);
  const bodies = new ByteWriter(docs.length * 5);
  out.varint(bounds.length);
  out.float32(top);
  let previousBlock = -1;
  for (let b = 0; b < bounds.length; b++) {
    const first = starts[b]!;
    const end = starts[b + 1]!;
    const block = Math.floor(docs[first]! / size);
    const level = boundLevel(top, bounds[b]!);
    const docStart = bodies.length;
    for (let i = first, before = block * size - 1; i < end; before = docs[i]!, i++) bodies.varint(docs[i]! - before);
    const dataStart = bodies.length;
    for (let i = first; i < end; i++) bodies.byte(masks[i]!);
    const blockBound = levelBound(top, level);
    for (let i = first; i < end; i += 2)
      bodies.byte(impactOf(blockBound, scores[i]!) | (i + 1 < end ? impactOf(blockBound, scores[i + 1]!) << 4 : 0));
    for (let i = first; i < end; i++) {
      for (let field = 0; field < FIELD_COUNT; field++) {
        if (!(masks[i]! & (1 << field))) continue;
        bodies.varint(tf[i * FIELD_COUNT + field]!);
        bodies.varint(lengths[i * FIELD_COUNT + field]!);
      }
    }
    for (const value of [block - previousBlock, end - first, dataStart - docStart, bodies.length - dataStart]) out.varint(value);
    out.byte(level);
    previousBlock = block;
  }
  out.raw(bodies.result());
}
