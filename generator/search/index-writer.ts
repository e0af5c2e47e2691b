/**
 * The index writer: builds a MiniSearch index of the documents with the ranking options and writes it in
 * the site's format (index-format.ts), bodies pruned (body-pruning.ts). Runtime-neutral.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { BODY_PRUNING, type BodyPruning, type BodyTerms, createTermCache, pruneSearchBodies } from './body-pruning.ts';
import {
  SEARCH_INDEX_FORMAT,
  type SearchDocument,
  type SerializedDocument,
  type SerializedSearchIndex,
  type SerializedTerm,
  type StoredResult,
} from './index-format.ts';
import { miniSearchOptions } from './ranking.ts';

/** MiniSearch's postings of one term in one field, `{ shortId: tf }`, as SerializedTerm's gaps. */
function toPostings(entry: Record<string, number>): number[] {
  const postings: number[] = [];
  let previous = -1;
  // Integer keys enumerate in ascending order.
  for (const key of Object.keys(entry)) {
    const shortId = Number(key);
    postings.push(shortId - previous);
    if (entry[key] !== 1) postings.push(-entry[key]!);
    previous = shortId;
  }
  return postings;
}

/** MiniSearch's JSON of a freshly built index (short ids 0 to n - 1, nothing removed) in the site's format. */
export function toSerializedSearchIndex(index: AsPlainObject): SerializedSearchIndex {
  const documents: SerializedDocument[] = [];
  for (let shortId = 0; shortId < index.nextId; shortId++) {
    const id = index.documentIds[shortId] as string | undefined;
    if (id === undefined || index.dirtCount !== 0) throw new Error('search index: short ids must run from 0 without gaps');
    const { stored } = index.storedFields[shortId] as { stored: StoredResult };
    documents.push([id, index.fieldLength[shortId]!, stored]);
  }
  const terms = index.index.map(([term, fields]): SerializedTerm => {
    const row: SerializedTerm = [term];
    for (const fieldId of Object.keys(fields)) row.push(Number(fieldId), toPostings(fields[fieldId]!));
    return row;
  });
  return { format: SEARCH_INDEX_FORMAT, fieldIds: index.fieldIds, averageFieldLength: index.averageFieldLength, documents, terms };
}

/**
 * The serialized index of `documents` (SerializedSearchIndex), bodies pruned (see body-pruning.ts): what
 * the build writes, and what bench/search.ts measures. `pruning` is for measuring other settings (null: whole
 * bodies); the build uses the default.
 */
export function serializeSearchIndex(
  documents: readonly SearchDocument[],
  pruning: BodyPruning | null = BODY_PRUNING,
  termsOf?: (body: string) => BodyTerms,
): string {
  // The cache changes no term, only how often the stemmer runs: the edge loads the index with the plain options.
  const index = new MiniSearch<SearchDocument>({ ...miniSearchOptions, processTerm: createTermCache() });
  index.addAll(pruning ? pruneSearchBodies(documents, pruning, termsOf) : documents);
  return JSON.stringify(toSerializedSearchIndex(index.toJSON()));
}
