/**
 * The search index's file layout: what one indexed document is, and the parts the writer (index-writer.ts)
 * produces under SEARCH_DIR for the reader (index-reader.ts). A query reads the small top-level file, the
 * dictionary blocks and postings records of its own terms, and the result cards of the page it returns, so
 * what a first search costs depends on the query, not on the number of documents. docs/search.md describes
 * every part and how a query walks them.
 */
import { DATA_DIR, partPath } from '../shared/data-paths.ts';

/** What a result shows besides its type and id: the fields `/v1/search` answers with. */
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

/** Changes whenever a part's layout or what it holds does (8: typo files are bytes); the reader refuses any other. */
export const SEARCH_INDEX_FORMAT = 'search-index/8';

export const SEARCH_DIR = `${DATA_DIR}/search`;
export const SEARCH_META_PATH = `${SEARCH_DIR}/meta.json`;
export const dictionaryPath = (block: number) => `${SEARCH_DIR}/terms/${partPath(block)}.json`;
/** A typo dictionary (typo-dictionary.ts, bytes), keyed by a term length and a UTF-16 code unit. */
export const typoPath = (key: string) => `${SEARCH_DIR}/typos/${key}.bin`;
// Numbered parts sit in folders of a thousand (partPath), so that no folder grows past 10,000 entries.
export const postingsPath = (shard: number) => `${SEARCH_DIR}/postings/${partPath(shard)}.bin`;
export const cardsPath = (chunk: number) => `${SEARCH_DIR}/cards/${partPath(chunk)}.json`;
/** The editors' synonyms, analysed (synonyms.ts `SynonymTable`); written only when there are some. */
export const SEARCH_SYNONYMS_PATH = `${SEARCH_DIR}/synonyms.json`;

/**
 * SEARCH_META_PATH: the global figures scoring needs and the tables that say which part holds what. Its
 * size grows with the number of dictionary blocks only (one term each), not with documents or postings.
 */
export interface SearchMeta {
  format: typeof SEARCH_INDEX_FORMAT;
  /** Documents indexed: BM25's N. */
  documents: number;
  /** The indexed fields, a field's id being its position. */
  fields: string[];
  /** Each field's average length as MiniSearch keeps it (a running average over the documents in build order). */
  averageFieldLength: number[];
  /**
   * The averages the records' block bounds were scored with: each one rounded up to a coarse grid
   * (record-builder.ts boundAverages), so a bound stays an upper bound and an edit rarely moves them.
   */
  boundAverages: number[];
  /** Document numbers run in `type:id` order, so each type is one range, `[type, first, end)`. */
  types: [type: string, first: number, end: number][];
  /** The first term of each dictionary block (dictionaryPath), in order: a term lives in the last block whose first term is <= it. */
  blocks: string[];
  /** Result cards per cards file (cardsPath): document `n` is entry `n % cardsPerFile` of file `n / cardsPerFile`. */
  cardsPerFile: number;
  /** The ranking knobs the index was written with (ranking.ts RANKING): block bounds depend on them. */
  ranking: string;
  /** Whether SEARCH_SYNONYMS_PATH exists. */
  synonyms: boolean;
}

/** Where a term's postings record is: `postingsPath(shard)`, bytes `[offset, offset + length)`. */
export type PostingsLocation = [shard: number, offset: number, length: number];

/**
 * A dictionary block (dictionaryPath): terms in code-unit order; for each,
 * how many postings it has over all fields (what scoring it costs) and where its record is, flattened as
 * `[shard, offset, length, ...]`, three numbers per term.
 */
export interface DictionaryBlock {
  terms: string[];
  postings: number[];
  locations: number[];
}

/** A dictionary entry: a term, its postings over all fields, and where its record is. */
export interface TermEntry {
  term: string;
  postings: number;
  location: PostingsLocation;
}

/** The block of `terms` (sorted), with each one's count and location from `entries`. */
export function toDictionaryBlock(terms: readonly string[], entries: ReadonlyMap<string, Omit<TermEntry, 'term'>>): DictionaryBlock {
  return {
    terms: [...terms],
    postings: terms.map((term) => entries.get(term)!.postings),
    locations: terms.flatMap((term) => entries.get(term)!.location),
  };
}

/** The entry at `index` of a block. */
export const entryAt = (block: DictionaryBlock, index: number): TermEntry => ({
  term: block.terms[index]!,
  postings: block.postings[index]!,
  location: block.locations.slice(index * 3, index * 3 + 3) as PostingsLocation,
});

/** A cards file (cardsPath): `[id, slug, title, summary, url]` per document, in document-number order. */
export type ResultCard = [id: string, ...StoredResult];
