/**
 * Scoring: MiniSearch's ranking computed from postings records, so that the edge needs no in-memory index.
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

/**
 * Dense per-document arrays reused from query to query (an isolate answers one at a time between awaits),
 * so scoring allocates nothing in proportion to the corpus after the first query. Stamps mark what the current
 * query and word have touched, so nothing needs clearing.
 */
export class Accumulator {
  private readonly wordScore: Float64Array;
  private readonly subqueryScore: [Float64Array, Float64Array];
  private readonly matchedWords: Uint8Array;
  private readonly queryStamp: Uint32Array;
  private readonly wordStamp: Uint32Array;
  private queryEpoch = 0;
  private wordEpoch = 0;
  private readonly wordDocuments: Int32Array;
  private wordCount = 0;
  /** Documents the current query matched, in first-match order. */
  readonly documents: Int32Array;
  count = 0;
  private documentCount = 0;

  constructor(readonly size: number) {
    this.wordScore = new Float64Array(size);
    this.subqueryScore = [new Float64Array(size), new Float64Array(size)];
    this.matchedWords = new Uint8Array(size);
    this.queryStamp = new Uint32Array(size);
    this.wordStamp = new Uint32Array(size);
    this.wordDocuments = new Int32Array(size);
    this.documents = new Int32Array(size);
  }

  /** Starts a query over `documentCount` (<= size) documents. */
  startQuery(documentCount: number): void {
    this.documentCount = documentCount;
    this.queryEpoch++;
    this.count = 0;
  }

  startWord(): void {
    this.wordEpoch++;
    this.wordCount = 0;
  }

  /** Adds one field's postings of one (exact, prefix or typo) term to the current word's sums. */
  addField({ bytes, segments, df, averageLength, weight }: ScoredField): void {
    const idf = Math.log(1 + (this.documentCount - df + 0.5) / (df + 0.5));
    const { wordScore, wordStamp, wordDocuments, wordEpoch } = this;
    for (const [start, end, firstDocument] of segments) {
      let position = start;
      let document = firstDocument - 1;
      // The varint loop of postings-codec.ts, inline: this is the hot loop of a search.
      while (position < end) {
        let value = 0;
        for (let shift = 1; ; shift *= 128) {
          const byte = bytes[position++]!;
          value += (byte & 127) * shift;
          if (byte < 128) break;
        }
        document += value;
        let tf = 0;
        for (let shift = 1; ; shift *= 128) {
          const byte = bytes[position++]!;
          tf += (byte & 127) * shift;
          if (byte < 128) break;
        }
        let length = 0;
        for (let shift = 1; ; shift *= 128) {
          const byte = bytes[position++]!;
          length += (byte & 127) * shift;
          if (byte < 128) break;
        }
        if (position > end || document >= this.size) throw new Error('postings: record is truncated or corrupt');
        const bm25 = idf * (BM25_D + (tf * (BM25_K + 1)) / (tf + BM25_K * (1 - BM25_B + (BM25_B * length) / averageLength)));
        if (wordStamp[document] !== wordEpoch) {
          wordStamp[document] = wordEpoch;
          wordScore[document] = weight * bm25;
          wordDocuments[this.wordCount++] = document;
        } else wordScore[document] = wordScore[document]! + weight * bm25;
      }
    }
  }

  /** Ends the current word of subquery `subquery` (0 or 1), word `word` of the query (< 8). */
  endWord(subquery: 0 | 1, word: number): void {
    const { wordScore, wordDocuments, queryStamp, queryEpoch, matchedWords } = this;
    const [first, second] = this.subqueryScore;
    const own = this.subqueryScore[subquery];
    for (let i = 0; i < this.wordCount; i++) {
      const document = wordDocuments[i]!;
      if (queryStamp[document] !== queryEpoch) {
        queryStamp[document] = queryEpoch;
        first[document] = 0;
        second[document] = 0;
        matchedWords[document] = 0;
        this.documents[this.count++] = document;
      }
      own[document] = own[document]! + wordScore[document]!;
      matchedWords[document] = matchedWords[document]! | (1 << word);
    }
  }

  /** The score MiniSearch's `search` gives a matched document: both subqueries' sums times the words matched. */
  score(document: number): number {
    return (this.subqueryScore[0][document]! + this.subqueryScore[1][document]!) * this.wordsMatched(document);
  }

  wordsMatched(document: number): number {
    let mask = this.matchedWords[document]!;
    let count = 0;
    for (; mask; mask &= mask - 1) count++;
    return count;
  }
}
