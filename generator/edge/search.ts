/**
 * Search over the index the generator wrote (SEARCH_INDEX_PATH). Web APIs only: the index is read through
 * the function the runtime adapter gives, loaded on the first search and kept for the isolate's life.
 */
import MiniSearch, { type SearchResult as MiniSearchResult } from 'minisearch';
import type { SearchResult } from '../schemas/api.ts';
import { miniSearchOptions, processQuery, type SearchDocument, type SearchType, type StoredResult } from '../shared/search-options.ts';

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

/** A match before its item is built: only the window's matches ever become items. */
interface Ranked {
  score: number;
  type: SearchType;
  id: string;
  stored: StoredResult;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** CONTRACT "Ordering": score descending, then type, then id; by the score clients see, so ties read as ties. */
const byRank = (a: Ranked, b: Ranked) => b.score - a.score || compareText(a.type, b.type) || compareText(a.id, b.id);

/** Rounded to 4 decimals and never 0: every match is some match (CONTRACT: `score` > 0). */
export function roundScore(score: number): number {
  return Math.max(0.0001, Math.round(score * 10_000) / 10_000);
}

/**
 * MiniSearch's OR already multiplies a score by the number of query terms matched; multiplying again by
 * the share matched puts documents that answer every word of a long question above those that repeat one
 * of its words often.
 */
function rankResult(result: MiniSearchResult, wanted: number): Ranked {
  const separator = result.id.indexOf(':');
  return {
    score: roundScore(result.score * (result.queryTerms.length / wanted)),
    type: result.id.slice(0, separator) as SearchType,
    id: result.id.slice(separator + 1),
    stored: result.stored as StoredResult,
  };
}

function toItem(ranked: Ranked): SearchResult {
  const [slug, title, summary, url] = ranked.stored;
  return { type: ranked.type, id: ranked.id, slug, title, summary, url, score: ranked.score };
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
      const wanted = processQuery(q).length;
      // Only stop words or punctuation: nothing to look for, and no reason to load the index.
      if (wanted === 0) return { total: 0, items: [] };
      const index = await loadIndex();
      const prefix = `${type}:`;
      const results = index.search(q, type === 'all' ? {} : { filter: (result) => result.id.startsWith(prefix) });
      const ranked = results.map((result) => rankResult(result, wanted)).sort(byRank);
      return { total: ranked.length, items: ranked.slice(offset, offset + limit).map(toItem) };
    },
  };
}
