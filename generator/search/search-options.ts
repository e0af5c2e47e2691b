/**
 * The search index's options, shared by the generator (which builds the index) and the edge handler (which
 * loads it): MiniSearch must be loaded with the exact options it was built with, and a query must be
 * processed exactly as the documents were. Runtime-neutral: no Node, no build-only code.
 */
import type { Options, SearchOptions } from 'minisearch';
import { stemmer } from 'stemmer';
// @ts-expect-error -- stopword ships no type declarations; `eng` is a plain array of lowercase words.
import { eng } from 'stopword';

/** The collections search covers (CONTRACT "Search"); a document id is `<type>:<record id>`. */
export type SearchType = 'services' | 'expertise' | 'intelligence';

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

export const SEARCH_FIELDS = ['title', 'tags', 'terms', 'summary', 'body'] as const;

const STOP_WORDS: ReadonlySet<string> = new Set<string>(eng as string[]);

// Apostrophes join rather than split, so "merchant's" indexes as "merchant" and "don't" as "dont".
const APOSTROPHE = /['\u2019](?:s\b)?/g;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}+/gu;

/** Splits text into words on anything but letters and digits; accents are folded so "café" finds "cafe". */
export function tokenize(text: string): string[] {
  const folded = NON_ASCII.test(text) ? text.normalize('NFKD').replace(MARKS, '') : text;
  return folded.replace(APOSTROPHE, '').split(SEPARATORS);
}

// British -ise/-isation and -yse forms meet their American -ize/-yze spellings ("optimisation" finds
// "optimization"), which stemming alone would keep apart. Only after the endings of such verbs, so that
// "promise", "advertise" or "expertise" keep their own families.
const ISE_SPELLING = /(al|an|en|gn|ic|il|im|it|og|om|on|or|rd)is(e|es|ed|er|ers|ing|ation|ations)$/;
const YSE_SPELLING = /lys(e|es|ed|er|ers|ing)$/;

/** One spelling for words that British and American English write differently (folded to American). */
export function foldSpelling(word: string): string {
  return word.replace(ISE_SPELLING, '$1iz$2').replace(YSE_SPELLING, 'lyz$1');
}

/**
 * Lowercase, drop stop words and stray single letters (left over from "e-commerce" or initials, and a
 * one-letter prefix would match a large part of the vocabulary), then Porter-stem so word forms meet.
 */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (word === '' || STOP_WORDS.has(word)) return null;
  if (word.length === 1 && !/\d/.test(word)) return null;
  return stemmer(foldSpelling(word));
}

/** The distinct terms a query is searched with, in query order; empty when it holds only stop words. */
export function processQuery(query: string): string[] {
  const terms = new Set<string>();
  for (const token of tokenize(query)) {
    const term = processTerm(token);
    if (term) terms.add(term);
  }
  return [...terms];
}

/** Typo tolerance on longer words only: a short word one edit away is usually another word. */
export function fuzzyFor(term: string): number | false {
  return term.length >= 5 ? 0.2 : false;
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
  maxFuzzy: 2,
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
