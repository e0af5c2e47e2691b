/**
 * Scoring: MiniSearch's ranking computed from postings records, so that the edge needs no in-memory index.
 * The per-posting loops are WebAssembly (scoring.wat), doing the same IEEE operations in the same order.
 * It mirrors MiniSearch 7.2.0 (`src/MiniSearch.ts`, pinned in package.json; test/search/sharded-equality
 * compares both on thousands of queries):
 *
 * - `calcBM25Score`: `idf * (d + tf * (k + 1) / (tf + k * (1 - b + b * length / averageLength)))` with
 *   `idf = ln(1 + (N - df + 0.5) / (df + 0.5))` and the defaults k 1.2, b 0.7, d 0.5;
 * - `termResults`: a posting adds `termWeight * termBoost * fieldBoost * docBoost * bm25` (term and document
 *   boosts are 1 here), fields in the subquery's order;
 * - `executeQuerySpec`: a query word scores its exact term (weight 1), then each longer term it prefixes
 *   (`0.375 * L / (L + 0.3 * (L - |word|))`), then each term one edit away that is not such a prefix match
 *   (`0.45 * L / (L + 1)`), all into the word's own sum;
 * - `combinators.OR`: a subquery's score is the sum of its words' sums, and the query's is the first
 *   subquery's plus the second's; `search` multiplies it by the number of query words the document matched.
 *
 * Additions happen in that order, so scores agree with MiniSearch's to the last bit except where the order of
 * prefix or typo expansions differs from MiniSearch's tree order (a few units in the last place).
 */

import { SCORING_KERNEL_BASE64 } from './scoring-kernel.ts';

const BM25_K = 1.2;
const BM25_B = 0.7;
const BM25_D = 0.5;
export const PREFIX_WEIGHT = 0.375;
export const FUZZY_WEIGHT = 0.45;

/** MiniSearch's weight of a term `derived` found by prefix from `word`. */
export const prefixWeight = (derived: string, word: string) =>
  (PREFIX_WEIGHT * derived.length) / (derived.length + 0.3 * (derived.length - word.length));

/** MiniSearch's weight of a term one edit from the query word. */
export const fuzzyWeight = (derived: string) => (FUZZY_WEIGHT * derived.length) / (derived.length + 1);

/** One field's postings to score: the segment bytes of the wanted types, and what the formula needs. */
export interface ScoredField {
  bytes: Uint8Array;
  segments: readonly (readonly [start: number, end: number, firstDocument: number])[];
  df: number;
  averageLength: number;
  /** termWeight * fieldBoost. */
  weight: number;
}

/** A ranked result: its document, its score rounded to 4 decimals as clients see it (never 0), and before rounding. */
export interface Ranked {
  document: number;
  score: number;
  raw: number;
}

/** The exports of scoring.wat. */
interface Kernel {
  memory: WebAssembly.Memory;
  init(documents: number, heapSize: number): number;
  keysAt(): number;
  heapAt(): number;
  docsAt(): number;
  count(): number;
  startQuery(): void;
  startWord(): void;
  addSegment(start: number, end: number, before: number, idf: number, weight: number, averageLength: number, ...bm25: number[]): number;
  endWord(subquery: number, word: number): void;
  raw(document: number, words: number): number;
  fillKeys(words: number, span: number): number;
  largest(k: number): number;
}

/** The most results a page may end at for the kernel's heap; deeper pages sort every match. */
const HEAP_SIZE = 4096;
const PAGE = 64 * 1024;
const BM25 = [BM25_D, BM25_K + 1, BM25_K, 1 - BM25_B, BM25_B];

let kernelModule: WebAssembly.Module | undefined;
const compileKernel = () => {
  kernelModule ??= new WebAssembly.Module(Uint8Array.from(atob(SCORING_KERNEL_BASE64), (char) => char.charCodeAt(0)));
  return kernelModule;
};

/**
 * Scoring state for an isolate: dense per-document arrays in the kernel's memory, reused from query to
 * query (an isolate answers one at a time between awaits), with stamps marking what the current query and
 * word have touched, so nothing needs clearing. The hot loops run in WebAssembly, which runs at full speed
 * from its first call; the same loops in JavaScript ran up to ten times slower in a fresh isolate, before the
 * engine had optimized them, which was most of a first search's cost at 100,000 documents.
 */
export class Accumulator {
  private readonly kernel: Kernel;
  private readonly input: number;
  private documentCount = 0;

  constructor(readonly size: number) {
    this.kernel = new WebAssembly.Instance(compileKernel(), {}).exports as unknown as Kernel;
    this.input = this.kernel.init(size, HEAP_SIZE);
    this.reserve(this.input);
  }

  private reserve(bytes: number): void {
    const { memory } = this.kernel;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  }

  /** Starts a query over `documentCount` (<= size) documents. */
  startQuery(documentCount: number): void {
    this.documentCount = documentCount;
    this.kernel.startQuery();
  }

  startWord(): void {
    this.kernel.startWord();
  }

  /** Adds one field's postings of one (exact, prefix or typo) term to the current word's sums. */
  addField({ bytes, segments, df, averageLength, weight }: ScoredField): void {
    const idf = Math.log(1 + (this.documentCount - df + 0.5) / (df + 0.5));
    for (const [start, end, firstDocument] of segments) {
      if (end === start) continue;
      this.reserve(this.input + end - start);
      new Uint8Array(this.kernel.memory.buffer, this.input, end - start).set(bytes.subarray(start, end));
      if (this.kernel.addSegment(this.input, this.input + end - start, firstDocument - 1, idf, weight, averageLength, ...BM25) !== 0) {
        throw new Error('postings: record is truncated or corrupt');
      }
    }
  }

  /** Ends the current word of subquery `subquery` (0 or 1), word `word` of the query (< 8). */
  endWord(subquery: 0 | 1, word: number): void {
    this.kernel.endWord(subquery, word);
  }

  /** Documents the current query matched. */
  get count(): number {
    return this.kernel.count();
  }

  /**
   * The results `[offset, offset + limit)` of the current query, by rounded score and then document number,
   * for a query of `words` words. Each match becomes one number, its score in ten-thousandths above its
   * inverted document number, so that the kernel keeps the best in a heap of the page's size (rather than
   * sorting every match) and plain numeric comparison ranks them.
   */
  window(words: number, offset: number, limit: number): Ranked[] {
    const { kernel } = this;
    const count = kernel.count();
    const end = Math.min(count, offset + limit);
    if (offset >= end) return [];
    const span = 2 ** Math.ceil(Math.log2(this.size + 1));
    const maxUnits = kernel.fillKeys(words, span);
    const at = (document: number, units: number): Ranked => ({ document, score: units / 10_000, raw: kernel.raw(document, words) });
    if (maxUnits * span >= Number.MAX_SAFE_INTEGER) {
      // Scores too large to share a number with the document: compare them apart (no real query gets here).
      const documents = Array.from(new Int32Array(kernel.memory.buffer, kernel.docsAt(), count));
      const units = documents.map((document) => Math.max(1, Math.round(kernel.raw(document, words) * 10_000)));
      const order = documents.map((_, i) => i).sort((a, b) => units[b]! - units[a]! || documents[a]! - documents[b]!);
      return order.slice(offset, end).map((i) => at(documents[i]!, units[i]!));
    }
    const top =
      end <= HEAP_SIZE
        ? new Float64Array(kernel.memory.buffer, kernel.heapAt(), kernel.largest(end)).slice()
        : new Float64Array(kernel.memory.buffer, kernel.keysAt(), count).slice();
    top.sort().reverse();
    return Array.from(top.subarray(offset, end), (key) => {
      const units = Math.floor(key / span);
      return at(span - 1 - (key - units * span), units);
    });
  }
}
