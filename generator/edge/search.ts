/**
 * Search over the index the generator wrote (SEARCH_INDEX_PATH). Web APIs only: the index is read through
 * the function the runtime adapter gives, loaded on the first search and kept for the isolate's life.
 */
import MiniSearch, { type Query, type SearchResult as MiniSearchResult } from 'minisearch';
import type { SearchResult } from '../schemas/api.ts';
import { miniSearchOptions, processQuery, SEARCH_FIELDS, type SearchDocument, type SearchType, type StoredResult } from '../shared/search-options.ts';

export interface SearchQuery {
  /** Trimmed and validated by the handler: 1 to 200 characters. */
  q: string;
  type: 'all' | SearchType;
  limit: number;
  offset: number;
}

export interface SearchAnswer {
  /** Every match, not only the window. */
  total: number;
  items: SearchResult[];
}

export interface Search {
  search(query: SearchQuery): Promise<SearchAnswer>;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * CONTRACT "Ordering": score descending, then type, then id. Comparing the whole `<type>:<id>` compares type
 * then id, as no type name is a prefix of another. By the rounded score clients see, so ties read as ties.
 */
const byRank = (a: MiniSearchResult, b: MiniSearchResult) => b.score - a.score || compareText(a.id, b.id);

/** Rounded to 4 decimals and never 0: every match is some match (CONTRACT: `score` > 0). */
export function roundScore(score: number): number {
  return Math.max(0.0001, Math.round(score * 10_000) / 10_000);
}

function toItem(result: MiniSearchResult): SearchResult {
  const separator = result.id.indexOf(':');
  const [slug, title, summary, url] = result.stored as StoredResult;
  return { type: result.id.slice(0, separator) as SearchType, id: result.id.slice(separator + 1), slug, title, summary, url, score: result.score };
}

/** Fields where a word may be misspelled: the short ones. See `createQuery`. */
const TYPO_FIELDS = SEARCH_FIELDS.filter((field) => field !== 'body');

/**
 * The query as MiniSearch runs it: typo tolerance (the shared `searchOptions`) in title, tags, terms and
 * summary, but not in the body. A fuzzy word in the body scans the posting lists of every neighbour in the
 * largest field, which was the slowest part of a search at 10,000 documents, and a misspelled word a person
 * means usually names the subject, which the short fields carry.
 */
function createQuery(q: string): Query {
  return { combineWith: 'OR', queries: [{ queries: [q], fields: TYPO_FIELDS }, { queries: [q], fields: ['body'], fuzzy: false }] };
}

/**
 * `readIndex` returns the serialized index, or null when the build wrote none. It is called once; a failed
 * load is forgotten so that the next search tries again rather than failing for the isolate's life.
 */
export function createSearch(readIndex: () => Promise<string | null>): Search {
  let loading: Promise<MiniSearch<SearchDocument>> | undefined;

  const loadIndex = () => {
    loading ??= Promise.resolve()
      .then(readIndex)
      .then((json) => {
        if (json === null) throw new Error('search index not found: the build writes it to SEARCH_INDEX_PATH');
        return MiniSearch.loadJSON<SearchDocument>(json, miniSearchOptions);
      })
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };

  return {
    async search({ q, type, limit, offset }) {
      const terms = processQuery(q);
      // Only stop words or punctuation: nothing to look for, and no reason to load the index.
      if (terms.length === 0) return { total: 0, items: [] };
      const index = await loadIndex();
      const prefix = `${type}:`;
      const filter = type === 'all' ? undefined : (result: MiniSearchResult) => result.id.startsWith(prefix);
      const results = index.search(createQuery(q), { filter });
      // MiniSearch's OR already multiplies a score by the number of query terms matched; multiplying again
      // by the share matched puts documents that answer every word of a long question above those that
      // repeat one of its words often. Results are MiniSearch's own objects, so they are scored in place.
      for (const result of results) result.score = roundScore((result.score * result.queryTerms.length) / terms.length);
      results.sort(byRank);
      return { total: results.length, items: results.slice(offset, offset + limit).map(toItem) };
    },
  };
}
