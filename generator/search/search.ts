/**
 * Search over the index the generator wrote (SEARCH_INDEX_PATH). Web APIs only: the index is read through
 * the function the runtime adapter gives, loaded on the first search and kept for the isolate's life.
 */
import MiniSearch, { type Query, type SearchResult as MiniSearchResult } from 'minisearch';
import type { SearchResult } from '../schemas/api.ts';
import { compareText } from '../shared/compare-text.ts';
import {
  miniSearchOptions,
  processQuery,
  SEARCH_FIELDS,
  SEARCH_INDEX_FORMAT,
  type SearchDocument,
  type SearchType,
  type SerializedSearchIndex,
  type StoredResult,
} from './search-options.ts';

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

/** The parts of a MiniSearch instance that `loadSearchIndex` fills: what `MiniSearch.loadJS` fills, in 7.x. */
interface MiniSearchInternals {
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, { stored: StoredResult }>;
  _index: { set(term: string, fields: Map<number, Map<number, number>>): unknown };
}

/**
 * Loads SEARCH_INDEX_PATH (SerializedSearchIndex): the same index `MiniSearch.loadJSON` would load from
 * MiniSearch's own JSON, built as `loadJS` builds it but from arrays of numbers rather than objects keyed by
 * short id, which parse and load in about half the time. MiniSearch has no public way to add postings, so the
 * header goes through `loadJS` and the rest into the maps `loadJS` fills; test/search checks that the result
 * serializes exactly as `MiniSearch.loadJSON` loads the same index, so a MiniSearch release that changes those
 * maps fails there (and a missing map fails here).
 */
export function loadSearchIndex(json: string): MiniSearch<SearchDocument> {
  const serialized = JSON.parse(json) as SerializedSearchIndex;
  if (serialized.format !== SEARCH_INDEX_FORMAT) throw new Error(`search index: expected format ${SEARCH_INDEX_FORMAT}, not ${String(serialized.format)}; rebuild the site`);
  const { fieldIds, averageFieldLength, documents, terms } = serialized;
  const count = documents.length;
  const index = MiniSearch.loadJS<SearchDocument>(
    { documentCount: count, nextId: count, documentIds: {}, fieldIds, fieldLength: {}, averageFieldLength, storedFields: {}, dirtCount: 0, index: [], serializationVersion: 2 },
    miniSearchOptions,
  );
  const internals = index as unknown as MiniSearchInternals;
  const { _documentIds: documentIds, _idToShortId: idToShortId, _fieldLength: fieldLength, _storedFields: storedFields, _index: termIndex } = internals;
  if (![documentIds, idToShortId, fieldLength, storedFields].every((map) => map instanceof Map) || typeof termIndex?.set !== 'function') {
    throw new Error('search index: this MiniSearch version keeps its index differently; update loadSearchIndex');
  }
  for (let shortId = 0; shortId < count; shortId++) {
    const [id, lengths, stored] = documents[shortId]!;
    documentIds.set(shortId, id);
    idToShortId.set(id, shortId);
    fieldLength.set(shortId, lengths);
    storedFields.set(shortId, { stored });
  }
  for (const row of terms) {
    const fields = new Map<number, Map<number, number>>();
    for (let i = 1; i < row.length; i += 2) {
      const postings = row[i + 1] as number[];
      const entry = new Map<number, number>();
      let shortId = -1;
      for (let j = 0; j < postings.length; j++) {
        const value = postings[j]!;
        if (value > 0) entry.set((shortId += value), 1);
        else entry.set(shortId, -value);
      }
      fields.set(row[i] as number, entry);
    }
    termIndex.set(row[0], fields);
  }
  return index;
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
