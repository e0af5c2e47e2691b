/**
 * Search over the index the generator wrote (SEARCH_INDEX_PATH). Web APIs only: the index is read through
 * the function the runtime adapter gives, loaded on the first search and kept for the isolate's life.
 */
import type { default as MiniSearch, SearchResult as MiniSearchResult } from 'minisearch';
import type { SearchResult } from '../schemas/api.ts';
import type { SearchDocument, StoredResult } from './index-format.ts';
import { countPostings, loadSearchIndex } from './index-reader.ts';
import { byRank, createQuery, expansionsFor, MAX_EXPANDED_POSTINGS, roundScore, selectAffordableTerms } from './ranking.ts';
import { processQuery } from './text-analysis.ts';

/** The query handed to MiniSearch is its analysed terms joined by spaces: split them back, change none. */
const splitTerms = (text: string) => text.split(' ');
const keepTerm = (term: string) => term;

export interface SearchQuery {
  /** Trimmed and validated by the handler: 1 to 200 characters. */
  q: string;
  /** `all`, or the API path of one searchable collection. */
  type: string;
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
function toItem(result: MiniSearchResult): SearchResult {
  const separator = result.id.indexOf(':');
  const [slug, title, summary, url] = result.stored as StoredResult;
  return { type: result.id.slice(0, separator), id: result.id.slice(separator + 1), slug, title, summary, url, score: result.score };
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
        return loadSearchIndex(json);
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
      // The distinct terms, already analysed (a repeated word counts once, nothing past the cap), within the budget.
      const postings = new Map(terms.map((term) => [term, countPostings(index, term)]));
      const run = selectAffordableTerms(terms, (term) => postings.get(term)!);
      const common = new Set(run.filter((term) => postings.get(term)! > MAX_EXPANDED_POSTINGS));
      const options = { filter, tokenize: splitTerms, processTerm: keepTerm, ...expansionsFor(common) };
      const results = index.search(createQuery(run.join(' ')), options);
      // MiniSearch's OR already multiplies a score by the number of query terms matched; multiplying again
      // by the share matched puts documents that answer every word of a long question above those that
      // repeat one of its words often. Results are MiniSearch's own objects, so they are scored in place.
      for (const result of results) result.score = roundScore((result.score * result.queryTerms.length) / run.length);
      results.sort(byRank);
      return { total: results.length, items: results.slice(offset, offset + limit).map(toItem) };
    },
  };
}
