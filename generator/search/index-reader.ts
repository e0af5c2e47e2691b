/**
 * The index reader: loads SEARCH_INDEX_PATH (index-format.ts) into a MiniSearch instance built with the
 * ranking options. Runtime-neutral; the edge runs it on the first search of an isolate.
 */
import MiniSearch from 'minisearch';
import { SEARCH_INDEX_FORMAT, type SearchDocument, type SerializedSearchIndex, type StoredResult } from './index-format.ts';
import { miniSearchOptions } from './ranking.ts';

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
  if (serialized.format !== SEARCH_INDEX_FORMAT)
    throw new Error(`search index: expected format ${SEARCH_INDEX_FORMAT}, not ${String(serialized.format)}; rebuild the site`);
  const { fieldIds, averageFieldLength, documents, terms } = serialized;
  const count = documents.length;
  const index = MiniSearch.loadJS<SearchDocument>(
    {
      documentCount: count,
      nextId: count,
      documentIds: {},
      fieldIds,
      fieldLength: {},
      averageFieldLength,
      storedFields: {},
      dirtCount: 0,
      index: [],
      serializationVersion: 2,
    },
    miniSearchOptions,
  );
  const internals = index as unknown as MiniSearchInternals;
  const {
    _documentIds: documentIds,
    _idToShortId: idToShortId,
    _fieldLength: fieldLength,
    _storedFields: storedFields,
    _index: termIndex,
  } = internals;
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
        if (value > 0) {
          shortId += value;
          entry.set(shortId, 1);
        } else entry.set(shortId, -value);
      }
      fields.set(row[i] as number, entry);
    }
    termIndex.set(row[0], fields);
  }
  return index;
}

/**
 * The postings a term has across all fields: what scoring it costs. Read from the same internal map the
 * loader fills (`_index`), so a MiniSearch release that moves it fails the loader's check first.
 */
export function countPostings(index: MiniSearch<SearchDocument>, term: string): number {
  const fields = (index as unknown as { _index: { get(term: string): Map<number, Map<number, number>> | undefined } })._index.get(term);
  let count = 0;
  for (const postings of fields?.values() ?? []) count += postings.size;
  return count;
}
