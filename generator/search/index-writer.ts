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
  dictionaryPath,
  postingsPath,
  type ResultCard,
  SEARCH_INDEX_FORMAT,
  SEARCH_META_PATH,
  SEARCH_SYNONYMS_PATH,
  type SearchDocument,
  type SearchMeta,
  toDictionaryBlock,
} from './index-format.ts';
import { RANKING, SEARCH_FIELDS, TYPO_FIELDS } from './ranking.ts';
import { boundAverages, RecordBuilder } from './record-builder.ts';
import { phrasesOf, phraseTerms, type SynonymTable } from './synonyms.ts';
import { processTerm, tokenize } from './text-analysis.ts';
import { typoFiles } from './typo-dictionary.ts';

/** Dictionary terms per block: a block is about 15 KB of JSON (what a word's look-up reads), and the top-level table one term per block. */
export const TERMS_PER_BLOCK = 512;
/** Postings bytes a shard is filled to (a larger record gets a shard of its own): what a rare term's read costs. */
export const SHARD_BYTES = 16 * 1024;
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
  const tokens = tokenize(text);
  const frequency = new Map<string, number>();
  for (const token of tokens) {
    const term = process(token);
    if (term) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  return { length: new Set(tokens).size, terms: [...frequency].flat() };
}

export interface SearchIndexFile {
  path: string;
  body: string | Uint8Array;
}

type Analyse = (text: string, field: string) => FieldAnalysis;

/**
 * Every document's fields analysed in build order, with the running field-length averages MiniSearch keeps
 * (`addFieldLength`: the new average is `(average * count + length) / (count + 1)`), whose last bits depend
 * on that order, so they are computed here once and read by the edge, never recomputed.
 */
function analyseAll(
  documents: readonly SearchDocument[],
  analyse: Analyse,
  withPhrases: (text: string, analysis: FieldAnalysis) => FieldAnalysis,
) {
  const averageFieldLength = SEARCH_FIELDS.map(() => 0);
  const analysed = documents.map((document, count) =>
    SEARCH_FIELDS.map((field, fieldId) => {
      const analysis = withPhrases(document[field], analyse(document[field], field));
      averageFieldLength[fieldId] = (averageFieldLength[fieldId]! * count + analysis.length) / (count + 1);
      return analysis;
    }),
  );
  return { analysed, averageFieldLength };
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
function numberDocuments(documents: readonly SearchDocument[]) {
  const order = documents.map((_, index) => index).sort((a, b) => compareText(documents[a]!.id, documents[b]!.id));
  const types: SearchMeta['types'] = [];
  order.forEach((index, number) => {
    const type = documents[index]!.id.slice(0, documents[index]!.id.indexOf(':'));
    const last = types[types.length - 1];
    if (last?.[0] === type) last[2] = number + 1;
    else types.push([type, number, number + 1]);
  });
  return { order, types };
}

/** Each term's postings record, built in document order. */
function collectPostings(order: readonly number[], analysed: (FieldAnalysis[] | undefined)[]) {
  const postings = new Map<string, RecordBuilder>();
  order.forEach((index, number) => {
    analysed[index]!.forEach(({ length, terms }, fieldId) => {
      for (let i = 0; i < terms.length; i += 2) {
        const term = terms[i] as string;
        let record = postings.get(term);
        if (!record) {
          record = new RecordBuilder();
          postings.set(term, record);
        }
        record.add(fieldId, number, terms[i + 1] as number, length);
      }
    });
    // Each document's analysis is read once: let it go, so the build holds postings, not both.
    analysed[index] = undefined;
  });
  return postings;
}

/** The postings shards and the dictionary (one entry per term, in `terms` order), in blocks. */
function writeTerms(terms: readonly string[], postings: Map<string, RecordBuilder>, context: ScoreContext) {
  const files: SearchIndexFile[] = [];
  const entries = new Map<string, { postings: number; location: [number, number, number] }>();
  let shard: Uint8Array[] = [];
  let shardBytes = 0;
  const flush = () => {
    if (shard.length === 0) return;
    const body = new Uint8Array(shardBytes);
    let offset = 0;
    for (const record of shard) {
      body.set(record, offset);
      offset += record.length;
    }
    files.push({ path: postingsPath(files.length), body });
    shard = [];
    shardBytes = 0;
  };
  for (const term of terms) {
    const builder = postings.get(term)!;
    const record = builder.encode(context);
    if (shardBytes > 0 && shardBytes + record.length > SHARD_BYTES) flush();
    entries.set(term, { postings: builder.postings, location: [files.length, shardBytes, record.length] });
    shard.push(record);
    shardBytes += record.length;
  }
  flush();
  return { files, entries };
}

/** The result cards, CARDS_PER_FILE documents a file, in document-number order. */
function writeCards(documents: readonly SearchDocument[], order: readonly number[]): SearchIndexFile[] {
  const files: SearchIndexFile[] = [];
  for (let first = 0; first < order.length; first += CARDS_PER_FILE) {
    const cards = order.slice(first, first + CARDS_PER_FILE).map((index): ResultCard => {
      const { id, stored } = documents[index]!;
      return [id.slice(id.indexOf(':') + 1), ...stored];
    });
    files.push({ path: cardsPath(first / CARDS_PER_FILE), body: JSON.stringify(cards) });
  }
  return files;
}

/**
 * The index of `documents` (built in this order, which fixes the averages' last bits) as files. `analyse`
 * may answer from a cache (the build keeps bodies' analyses between rebuilds); it must give what
 * `analyseField` gives.
 */
export function writeSearchIndex(
  documents: readonly SearchDocument[],
  analyse?: Analyse,
  synonyms: SynonymTable | null = null,
): SearchIndexFile[] {
  const process = memoize(processTerm);
  const { analysed, averageFieldLength } = analyseAll(
    documents,
    analyse ?? ((text) => analyseField(text, process)),
    phraseAdder(synonyms, process),
  );
  const { order, types } = numberDocuments(documents);
  const postings = collectPostings(order, analysed);
  const terms = [...postings.keys()].sort(compareText);
  const bounds = boundAverages(averageFieldLength);
  const { files, entries } = writeTerms(terms, postings, { documents: documents.length, averageFieldLength: bounds });
  const typoFieldIds = TYPO_FIELDS.map((field) => SEARCH_FIELDS.indexOf(field));
  const typoTerms = terms.filter((term) => typoFieldIds.some((fieldId) => postings.get(term)!.has(fieldId)));
  postings.clear();
  const blocks: string[] = [];
  for (let first = 0; first < terms.length; first += TERMS_PER_BLOCK) {
    const slice = terms.slice(first, first + TERMS_PER_BLOCK);
    files.push({ path: dictionaryPath(blocks.length), body: JSON.stringify(toDictionaryBlock(slice, entries)) });
    blocks.push(slice[0]!);
  }
  const typos = typoFiles(typoTerms, entries);
  const meta: SearchMeta = {
    format: SEARCH_INDEX_FORMAT,
    documents: documents.length,
    fields: [...SEARCH_FIELDS],
    averageFieldLength,
    boundAverages: bounds,
    types,
    blocks,
    cardsPerFile: CARDS_PER_FILE,
    ranking: JSON.stringify(RANKING),
    synonyms: synonyms !== null,
  };
  const synonymFiles = synonyms ? [{ path: SEARCH_SYNONYMS_PATH, body: JSON.stringify(synonyms) }] : [];
  return [{ path: SEARCH_META_PATH, body: JSON.stringify(meta) }, ...files, ...typos, ...synonymFiles, ...writeCards(documents, order)];
}
