/**
 * The search index's file format (SEARCH_INDEX_PATH): what one document is, and the serialized shape the
 * writer (index-writer.ts) produces and the reader (index-reader.ts) loads.
 */

/**
 * What the index keeps per document so that a result needs no other read. A tuple rather than named
 * fields: the names would otherwise be repeated once per document in the serialized index.
 */
export type StoredResult = [slug: string, title: string, summary: string, url: string];

/** One indexed document. `tags` holds tags and topics, `terms` the category and industry names. */
export interface SearchDocument {
  id: string;
  title: string;
  tags: string;
  terms: string;
  summary: string;
  body: string;
  stored: StoredResult;
}

/** A document of the serialized index, by short id: its id, its field lengths (in SEARCH_FIELDS order) and what it stores. */
export type SerializedDocument = [id: string, fieldLength: number[], stored: StoredResult];

/**
 * A term of the serialized index and its postings per field: `[term, fieldId, postings, fieldId, postings...]`.
 * Postings list the documents in ascending short id as gaps (the first from -1, so every gap is >= 1), each
 * followed by `-tf` when the term frequency is not 1.
 */
export type SerializedTerm = [term: string, ...fieldsAndPostings: (number | number[])[]];

/**
 * SEARCH_INDEX_PATH's format: the same index as MiniSearch's own JSON, in a shape that parses and loads in
 * about half the time (a cold start is bound by the number of postings, and MiniSearch writes each as an
 * object key that loading turns back into a number). Written by serializeSearchIndex, read by the edge's
 * `loadSearchIndex`; a short id is a document's position in `documents`.
 */
export interface SerializedSearchIndex {
  format: typeof SEARCH_INDEX_FORMAT;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  documents: SerializedDocument[];
  terms: SerializedTerm[];
}

/** Changes whenever SerializedSearchIndex does. */
export const SEARCH_INDEX_FORMAT = 'search-index/1';
