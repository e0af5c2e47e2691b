/**
 * Ranking: every knob that decides which record comes first, in one object (RANKING), and the rules that
 * read it. The index writer and the reader both take the fields, BM25's constants and the block size from
 * here, so an index is always read with the knobs it was written with (the writer records them in the
 * index's top-level file, and the reader refuses another set). docs/search.md gives the figures that chose
 * each value. Runtime-neutral.
 *
 * A document's score is a sum over the query's words (a synonym phrase of the query counts as one word; a
 * word the index does not hold is left out). Each word the document holds in some form (exact, prefix,
 * typo, synonym) adds its BM25 part saturated, s / (s + saturation), below 1, with s = the best form's
 * weight * sum over fields of field boost * BM25+ (MiniSearch's formula). A query of at most
 * RANKING.wordsRule.upTo words (typed keywords, each one deliberate) adds the words rule's tiers on top:
 *
 *   word found in any form                                   RANKING.wordsRule.word    (100)
 *   word found exactly (its own term, in any field)          RANKING.wordsRule.exact   (10)
 *
 * so the order is: more words found; then more of them exactly; then field weights and BM25, and the score
 * explains itself (312.4567 is three words found, one of them exactly). A longer query (a question in
 * natural language) keeps one tier, the complete match: a document that holds every word of the query
 * exactly adds RANKING.wordsRule.word per word (so 400 and more for four words), which puts it above every
 * document that lacks a word or holds one only through a typo, a prefix or a synonym, as docs/api.md's
 * search rules require. Below that tier a longer query is ranked by the saturated parts alone, BM25-weighted
 * word coverage: a record that holds a question's decisive words strongly ranks above one that holds more of
 * its words, common ones included, in passing. Per-word tiers on long questions let such records outrank the
 * one asked about at 100,000 documents (docs/search.md has the figures).
 */
import { compareText } from '../shared/compare-text.ts';

export const SEARCH_FIELDS = ['title', 'tags', 'terms', 'summary', 'body'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const RANKING = {
  /** docs/api.md "Search": title above tags above summary above body; `terms` are category and industry names. */
  boosts: { title: 4, tags: 2.5, terms: 1.5, summary: 1.5, body: 1 } satisfies Record<SearchField, number>,
  /** BM25+ as MiniSearch defines it (k1, b, delta). */
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  /**
   * The words rule, for queries of at most `upTo` words (see the module comment): a word found, then found
   * exactly, each outweighs everything below it. Longer queries keep `word` per word for a complete match
   * (every word exactly), then BM25-weighted coverage.
   */
  wordsRule: { upTo: 3, word: 100, exact: 10 },
  /** A word's BM25 part s is counted as s / (s + saturation): one word found strongly is worth less than two. */
  saturation: 6,
  /** Weights of a word's neighbours against its own term (1), inside the word's BM25 part. */
  weights: { prefix: 0.5, typo: 0.45, synonym: 0.8 },
  /** Typo tolerance: one edit, words of this length or more, in every field but bodies. */
  typoMinLength: 5,
  /** Prefix match on the last word of this length or more (someone still typing). */
  prefixMinLength: 3,
  /** Most neighbours (prefix, typo and synonym terms) one word is searched with; the commonest are kept. */
  maxExpansions: 16,
  /** Documents per block: the unit the reader skips by, with each term's best score per block in the index. */
  blockSize: 16,
} as const;

export type RankingKnobs = typeof RANKING;

/** Fields where a word may be misspelled: the short ones (a typo in a body scans the largest postings for little). */
export const TYPO_FIELDS = SEARCH_FIELDS.filter((field) => field !== 'body');

/** Whether query word `term` is searched with typo tolerance. */
export const typoFor = (term: string) => term.length >= RANKING.typoMinLength;

/** Whether word `index` of `terms` is searched as a prefix too: the last one, of 3 letters or more. */
export const prefixFor = (term: string, index: number, terms: readonly string[]) =>
  index === terms.length - 1 && term.length >= RANKING.prefixMinLength;

/** MiniSearch-like weight of a longer term `derived` found by prefix from `word` (closer to it: heavier). */
export const prefixWeight = (derived: string, word: string) =>
  (RANKING.weights.prefix * derived.length) / (derived.length + 0.3 * (derived.length - word.length));

/** BM25+ of one posting (MiniSearch's calcBM25Score), `idf` given. */
export function bm25(idf: number, tf: number, length: number, averageLength: number): number {
  const { k, b, d } = RANKING.bm25;
  return idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / averageLength)));
}

/** BM25's inverse document frequency, as MiniSearch computes it. */
export const idfOf = (documents: number, df: number) => Math.log(1 + (documents - df + 0.5) / (df + 0.5));

/**
 * A neighbour (prefix, typo or synonym term) stands in for its word, so it never counts as rarer than the word:
 * a field's weight (boost * idf) is capped at the field's boost times the idf of the word's own term, over all
 * fields (in `ownDocuments` of `documents`). A neighbour held as the word's own term is held then adds less
 * (a rare misspelling in a title no longer outweighs the word itself).
 */
export const neighbourFieldWeight = (weight: number, field: SearchField, documents: number, ownDocuments: number) =>
  Math.min(weight, RANKING.boosts[field] * idfOf(documents, ownDocuments));

/** Whether a query of `words` words (those the index holds) is ranked by the words rule's tiers. */
export const wordsRuleFor = (words: number) => words <= RANKING.wordsRule.upTo;

/**
 * One word's contribution to a document that holds it in some form, in a query of `words` words: its best
 * form's BM25 part `best`, saturated, and its tiers: under the words rule, found and found exactly or not;
 * in a longer query, the complete match's share when the document holds every word of the query exactly
 * (`complete`). Monotone in `exact`, `best` and `complete`, so bounds on them bound the score (what skipping
 * relies on).
 */
export function wordScore(words: number, exact: boolean, best: number, complete: boolean): number {
  const { word, exact: exactTier } = RANKING.wordsRule;
  const tiers = wordsRuleFor(words) ? word + (exact ? exactTier : 0) : complete ? word : 0;
  return tiers + best / (best + RANKING.saturation);
}

/** What a complete match (every word of the query, each exactly) adds in all, on top of the words' own scores. */
export const completeTier = (words: number) => (wordsRuleFor(words) ? 0 : RANKING.wordsRule.word * words);

/** Rounded to 4 decimals and never 0: every match is some match (docs/api.md: `score` > 0). */
export function roundScore(score: number): number {
  return Math.max(0.0001, Math.round(score * 10_000) / 10_000);
}

/**
 * docs/api.md "Records": score descending, then type, then id. Comparing the whole `<type>:<id>` compares type
 * then id, as no type name is a prefix of another. By the rounded score clients see, so ties read as ties.
 */
export const byRank = (a: { score: number; id: string }, b: { score: number; id: string }) => b.score - a.score || compareText(a.id, b.id);
