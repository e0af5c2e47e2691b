/**
 * Ranking: the fields a document is indexed by, their weights, typo tolerance and prefix matching, the
 * query MiniSearch runs and the order of results. The index must be loaded with the exact options it was
 * built with, so the writer and the reader both take them from here. Runtime-neutral.
 */
import type { Options, Query, SearchOptions, SearchResult as MiniSearchResult } from 'minisearch';
import { compareText } from '../shared/compare-text.ts';
import type { SearchDocument } from './index-format.ts';
import { processTerm, tokenize } from './text-analysis.ts';

export const SEARCH_FIELDS = ['title', 'tags', 'terms', 'summary', 'body'] as const;

/** The shortest word searched with typo tolerance: a short word one edit away is usually another word. */
export const FUZZY_MIN_LENGTH = 5;

/**
 * Typo tolerance on longer words only. With `maxFuzzy` 1 this is one edit for every word it applies to; the
 * index's typo dictionaries (index-writer.ts) are laid out for exactly one.
 */
export function fuzzyFor(term: string): number | false {
  return term.length >= FUZZY_MIN_LENGTH ? 0.2 : false;
}

/** Prefix match on the last word only (someone still typing); not on one or two letters, which match too much. */
export function prefixFor(term: string, index: number, terms: string[]): boolean {
  return index === terms.length - 1 && term.length >= 3;
}

export const searchOptions: SearchOptions = {
  // CONTRACT "Search": title above tags above summary above body.
  boost: { title: 4, tags: 2.5, terms: 1.5, summary: 1.5, body: 1 },
  // The edge's query applies this to the short fields only, not to bodies (see `createQuery` there).
  fuzzy: fuzzyFor,
  prefix: prefixFor,
  // One edit at most: a second made a long word's typo search the costliest part of a query (a crafted
  // 18-letter word took twice a typical query's time at 10,000 documents), and the relevance suite's
  // misspellings are one edit each.
  maxFuzzy: 1,
  combineWith: 'OR',
};

/** The options for `new MiniSearch(...)` at build time and for loading the index at the edge. */
export const miniSearchOptions: Options<SearchDocument> = {
  idField: 'id',
  fields: [...SEARCH_FIELDS],
  storeFields: ['stored'],
  tokenize,
  processTerm,
  searchOptions,
};

/**
 * CONTRACT "Ordering": score descending, then type, then id. Comparing the whole `<type>:<id>` compares type
 * then id, as no type name is a prefix of another. By the rounded score clients see, so ties read as ties.
 */
export const byRank = (a: MiniSearchResult, b: MiniSearchResult) => b.score - a.score || compareText(a.id, b.id);

/** Rounded to 4 decimals and never 0: every match is some match (CONTRACT: `score` > 0). */
export function roundScore(score: number): number {
  return Math.max(0.0001, Math.round(score * 10_000) / 10_000);
}

/** Fields where a word may be misspelled: the short ones. See `createQuery`. */
export const TYPO_FIELDS = SEARCH_FIELDS.filter((field) => field !== 'body');

/**
 * The query as MiniSearch runs it: typo tolerance (the shared `searchOptions`) in title, tags, terms and
 * summary, but not in the body. A fuzzy word in the body scans the posting lists of every neighbour in the
 * largest field, which was the slowest part of a search at 10,000 documents, and a misspelled word a person
 * means usually names the subject, which the short fields carry.
 */
export function createQuery(q: string): Query {
  return {
    combineWith: 'OR',
    queries: [
      { queries: [q], fields: TYPO_FIELDS },
      { queries: [q], fields: ['body'], fuzzy: false },
    ],
  };
}

/**
 * Most postings a query may score, summed over its terms. Scoring costs in proportion to the postings a term
 * has, so a query of many very common words would cost many times an ordinary one; past this budget its most
 * common words are left out (they weigh least in a score), but never its rarest. Below some thousands of
 * documents no query reaches it.
 */
export const MAX_QUERY_POSTINGS = 4000;

/**
 * A term with more postings than this matches a large share of the documents as it is, so it is searched
 * without typo tolerance or prefix expansion, which would add the postings of its neighbours to its own.
 */
export const MAX_EXPANDED_POSTINGS = 1000;

/** Typo and prefix options that leave the `common` terms unexpanded (see MAX_EXPANDED_POSTINGS). */
export function expansionsFor(common: ReadonlySet<string>): Pick<SearchOptions, 'fuzzy' | 'prefix'> {
  return {
    fuzzy: (term) => (common.has(term) ? false : fuzzyFor(term)),
    prefix: (term, index, terms) => !common.has(term) && prefixFor(term, index, terms),
  };
}

/** The terms a query is run with: rarest first while they fit the budget, then back in query order. */
export function selectAffordableTerms(terms: readonly string[], postingsOf: (term: string) => number): string[] {
  const byRarity = terms
    .map((term, position) => ({ term, position, postings: postingsOf(term) }))
    .sort((a, b) => a.postings - b.postings || a.position - b.position);
  const kept = new Set<string>();
  let total = 0;
  for (const { term, postings } of byRarity) {
    if (kept.size > 0 && total + postings > MAX_QUERY_POSTINGS) break;
    kept.add(term);
    total += postings;
  }
  return terms.filter((term) => kept.has(term));
}
