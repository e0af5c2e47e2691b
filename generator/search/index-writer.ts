/**
 * The index writer: analyses the documents exactly as MiniSearch's `add` would with the ranking options
 * (same tokenizer and term processing, field lengths counted and averaged as it counts them) and writes the
 * parts of index-format.ts. Whole fields, bodies included. Runtime-neutral.
 */
import { compareText } from '../shared/compare-text.ts';
import type { ScoreContext } from './postings-codec.ts';
import { memoize } from '../shared/memoize.ts';
import {
  cardsPath,
  type ResultCard,
  SEARCH_INDEX_FORMAT,
  SEARCH_META_PATH,
  SEARCH_SYNONYMS_PATH,
  type SearchDocument,
  type SearchMeta,
} from './index-format.ts';
import { RANKING, SEARCH_FIELDS, type SearchField, TYPO_FIELDS } from './ranking.ts';
import { boundAverages, type RecordBuilder } from './record-builder.ts';
import { collectPostings, PackedAnalyses } from './packed-analyses.ts';
import { phrasesOf, phraseTerms, type SynonymTable } from './synonyms.ts';
import { processTerm, tokenize } from './text-analysis.ts';
import { assembleParts, type IndexLayout, type TermRecords } from './index-layout.ts';

/** Result cards per file: a page of results reads at most `limit` of them, in parallel. */
export const CARDS_PER_FILE = 8;

/** One field of one document as the index sees it: MiniSearch's field length, and each term with its frequency. */
export interface FieldAnalysis {
  length: number;
  /** `term, tf, term, tf, ...` in first-occurrence order. */
  terms: (string | number)[];
}

/** A field's text as MiniSearch's `add` reads it: the length is the number of distinct tokens, before processing. */
export function analyseField(text: string, process: (token: string) => string | null = processTerm): FieldAnalysis {
  // Each distinct token counted once, in first-occurrence order, then processed once: a term's first
  // token comes first among its tokens, so the terms keep their first-occurrence order and their counts.
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  const frequency = new Map<string, number>();
  for (const [token, count] of counts) {
    const term = process(token);
    if (term) frequency.set(term, (frequency.get(term) ?? 0) + count);
  }
  const terms: (string | number)[] = [];
  for (const [term, count] of frequency) terms.push(term, count);
  return { length: counts.size, terms };
}

export interface SearchIndexFile {
  path: string;
  body: string | Uint8Array;
}

export type Analyse = (text: string, field: string) => FieldAnalysis;

/** MiniSearch's running average after the `count + 1`th length: the writer's and an update's, the same bits. */
export const runningAverage = (average: number, count: number, length: number) => (average * count + length) / (count + 1);

/**
 * A title's length is its number of terms, repeats counted and stop words left out (Lucene's field length),
 * not MiniSearch's distinct tokens: a word no query can match does not make a title longer, and a title that
 * repeats a word is longer by it (docs/search-measurements.md has the figures). BM25 normalises titles by it; it is also
 * the length title coverage (the share of a title the query's words make up) is measured with.
 */
export function withTitleLength(name: SearchField, analysis: FieldAnalysis): FieldAnalysis {
  if (name !== 'title') return analysis;
  let length = 0;
  for (let i = 1; i < analysis.terms.length; i += 2) length += analysis.terms[i] as number;
  return length === analysis.length ? analysis : { length, terms: analysis.terms };
}

/** A document's fields analysed, synonym phrases included; `analyse` as writeSearchIndex takes it. */
export function documentAnalyser(analyse: Analyse | undefined, synonyms: SynonymTable | null) {
  const process = memoize(processTerm);
  const field = analyse ?? ((text: string) => analyseField(text, process));
  const withPhrases = phraseAdder(synonyms, process);
  return (document: SearchDocument): FieldAnalysis[] =>
    SEARCH_FIELDS.map((name) => withPhrases(document[name], withTitleLength(name, field(document[name], name))));
}

/**
 * The synonym phrases (synonyms.ts) a field holds, added to its analysis as terms (the field's length is
 * unchanged). Only fields that hold some phrase's first word are read again.
 */
function phraseAdder(table: SynonymTable | null, process: (token: string) => string | null) {
  const phrases = phrasesOf(table);
  const firsts = new Set([...phrases].map((phrase) => phrase.slice(0, phrase.indexOf(' '))));
  return (text: string, analysis: FieldAnalysis): FieldAnalysis => {
    if (phrases.size === 0 || !analysis.terms.some((term, i) => i % 2 === 0 && firsts.has(term as string))) return analysis;
    const terms = tokenize(text).flatMap((token) => process(token) ?? []);
    const found = new Map<string, number>();
    for (const phrase of phraseTerms(terms, phrases, table!.longest)) found.set(phrase, (found.get(phrase) ?? 0) + 1);
    return found.size === 0 ? analysis : { length: analysis.length, terms: [...analysis.terms, ...[...found].flat()] };
  };
}

/** Document numbers in `type:id` order (the contract's tie-break), and each type's range of them. */
function numberDocuments(ids: readonly string[]) {
  const order = ids.map((_, index) => index).sort((a, b) => compareText(ids[a]!, ids[b]!));
  const types: SearchMeta['types'] = [];
  order.forEach((index, number) => {
    const type = ids[index]!.slice(0, ids[index]!.indexOf(':'));
    const last = types[types.length - 1];
    if (last?.[0] === type) last[2] = number + 1;
    else types.push([type, number, number + 1]);
  });
  return { order, types };
}

/** Each term's record encoded (index-layout.ts TermRecords), the builders let go as they are read. */
function encodeRecords(postings: Map<string, RecordBuilder>, context: ScoreContext): TermRecords {
  const typoFieldIds = TYPO_FIELDS.map((field) => SEARCH_FIELDS.indexOf(field));
  const records: TermRecords = new Map();
  for (const [term, builder] of postings) {
    records.set(term, { bytes: builder.encode(context), postings: builder.postings, typo: typoFieldIds.some((id) => builder.has(id)) });
  }
  postings.clear();
  return records;
}

/** Cards file `chunk`: the cards of documents `chunk * CARDS_PER_FILE` on, in document-number order (`byNumber`). */
export function cardsFile(chunk: number, byNumber: (number: number) => Card | undefined): SearchIndexFile {
  const cards: ResultCard[] = [];
  for (let number = chunk * CARDS_PER_FILE; number < (chunk + 1) * CARDS_PER_FILE; number++) {
    const document = byNumber(number);
    if (!document) break;
    cards.push([document.id.slice(document.id.indexOf(':') + 1), ...document.stored]);
  }
  return { path: cardsPath(chunk), body: JSON.stringify(cards) };
}

/** What a result card is made of: a document's id and its stored fields. */
export type Card = Pick<SearchDocument, 'id' | 'stored'>;

/** The result cards, CARDS_PER_FILE documents a file, in document-number order. */
function writeCards(cards: readonly Card[], order: readonly number[]): SearchIndexFile[] {
  const byNumber = (number: number) => cards[order[number]!];
  return Array.from({ length: Math.ceil(order.length / CARDS_PER_FILE) }, (_, chunk) => cardsFile(chunk, byNumber));
}

/** What the writer keeps of an index to update it by term (index-update.ts); every part's body included. */
export interface SearchIndexState {
  /** The documents in build order, each one's field lengths (SEARCH_FIELDS apart), and each one's number. */
  documents: readonly SearchDocument[];
  lengths: Uint32Array;
  numbers: ReadonlyMap<string, number>;
  synonyms: SynonymTable | null;
  meta: SearchMeta;
  records: TermRecords;
  parts: IndexLayout;
  files: Map<string, string | Uint8Array>;
}

/** An index written from documents given one at a time, in build order (startIndexWrite). */
export interface IndexWrite {
  /** Analyses the document; only its id and stored fields are kept from it (the caller may let its texts go). */
  add(document: SearchDocument): void;
  /** The index's files, with each document's number and field lengths; the write can take no more documents. */
  finish(): Omit<SearchIndexState, 'documents'>;
}

/**
 * An index written from documents as they come, so a caller holds each text only until it is added (the
 * build's helper gets them in slices): the same bytes as writeSearchIndexState for the same order. The
 * field-length averages are MiniSearch's running ones (`addFieldLength`), whose last bits depend on that
 * order, so they are computed here once and read by the edge, never recomputed. `analyse` may answer from
 * a cache (it must give what `analyseField` gives); `seen` is given each analysis, for a caller that keeps them.
 */
export function startIndexWrite(
  analyse?: Analyse,
  synonyms: SynonymTable | null = null,
  seen?: (index: number, fields: FieldAnalysis[]) => void,
): IndexWrite {
  const analyseDocument = documentAnalyser(analyse, synonyms);
  const averageFieldLength = SEARCH_FIELDS.map(() => 0);
  const lengths: number[] = [];
  const cards: Card[] = [];
  const analysed = new PackedAnalyses();
  return {
    add(document) {
      const count = cards.length;
      const fields = analyseDocument(document);
      seen?.(count, fields);
      fields.forEach(({ length }, fieldId) => {
        averageFieldLength[fieldId] = runningAverage(averageFieldLength[fieldId]!, count, length);
        lengths.push(length);
      });
      analysed.add(fields);
      cards.push({ id: document.id, stored: document.stored });
    },
    finish() {
      const ids = cards.map(({ id }) => id);
      const { order, types } = numberDocuments(ids);
      const bounds = boundAverages(averageFieldLength);
      const records = encodeRecords(collectPostings(order, analysed), { documents: ids.length, averageFieldLength: bounds });
      const parts = assembleParts(records);
      const meta = metaOf(ids.length, averageFieldLength, types, parts.blocks, synonyms);
      const files = new Map<string, string | Uint8Array>([[SEARCH_META_PATH, JSON.stringify(meta)]]);
      for (const { path, body } of [...parts.files(), ...synonymFiles(synonyms), ...writeCards(cards, order)]) files.set(path, body);
      const numbers = new Map(order.map((index, number) => [ids[index]!, number]));
      return { lengths: Uint32Array.from(lengths), numbers, synonyms, meta, records, parts, files };
    },
  };
}

/**
 * The index of `documents` (built in this order, which fixes the averages' last bits) as files, and the
 * state an update starts from (startIndexWrite, every document at once).
 */
export function writeSearchIndexState(
  documents: readonly SearchDocument[],
  analyse?: Analyse,
  synonyms: SynonymTable | null = null,
  seen?: (index: number, fields: FieldAnalysis[]) => void,
): SearchIndexState {
  const write = startIndexWrite(analyse, synonyms, seen);
  for (const document of documents) write.add(document);
  return { documents, ...write.finish() };
}

/** The index of `documents` as files (writeSearchIndexState without the state). */
export function writeSearchIndex(
  documents: readonly SearchDocument[],
  analyse?: Analyse,
  synonyms: SynonymTable | null = null,
): SearchIndexFile[] {
  return [...writeSearchIndexState(documents, analyse, synonyms).files].map(([path, body]) => ({ path, body }));
}

/** The top-level file: the global figures and the tables of parts. */
export function metaOf(
  documents: number,
  averageFieldLength: number[],
  types: SearchMeta['types'],
  blocks: string[],
  synonyms: SynonymTable | null,
): SearchMeta {
  return {
    format: SEARCH_INDEX_FORMAT,
    documents,
    fields: [...SEARCH_FIELDS],
    averageFieldLength,
    boundAverages: boundAverages(averageFieldLength),
    types,
    blocks,
    cardsPerFile: CARDS_PER_FILE,
    ranking: JSON.stringify(RANKING),
    synonyms: synonyms !== null,
  };
}

const synonymFiles = (synonyms: SynonymTable | null) => (synonyms ? [{ path: SEARCH_SYNONYMS_PATH, body: JSON.stringify(synonyms) }] : []);
