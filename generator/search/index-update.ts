/**
 * The search index updated by term: given the state of the last index (index-writer.ts) and the documents
 * now, the parts an edit changes are made again and nothing else, with the writer's own functions, so the
 * result is byte for byte what writing the documents whole would give (test/search/index-update.test.ts).
 *
 * An edit of existing documents' text makes again the records of the terms in their old and new text (a
 * record depends on its own postings, the number of documents and the grid point of the averages only:
 * record-builder.ts), the dictionary blocks and shards those records are in, the typo files that list a
 * term whose entry moved, the documents' cards and meta.json. Documents added or removed renumber the
 * documents after them, a grid point that moves changes every bound, and other synonyms change what is
 * indexed: each of those writes the index whole. Runtime-neutral. The state is changed in place: after a
 * failure, the caller writes the index whole.
 */
import { type SearchDocument, SEARCH_META_PATH, type SearchMeta } from './index-format.ts';
import {
  type Analyse,
  type Card,
  cardsFile,
  CARDS_PER_FILE,
  documentAnalyser,
  type FieldAnalysis,
  metaOf,
  runningAverage,
  type SearchIndexFile,
  type SearchIndexState,
  writeSearchIndexState,
} from './index-writer.ts';
import { type BytesEqual, rebuildRecords, sameBytes } from './record-update.ts';
import { SEARCH_FIELDS } from './ranking.ts';
import { boundAverages } from './record-builder.ts';
import type { SynonymTable } from './synonyms.ts';
import { relayTerms, typoUpdates } from './term-layout-update.ts';

export interface SearchIndexUpdate {
  state: SearchIndexState;
  /** Parts that are new or whose bytes changed. */
  written: SearchIndexFile[];
  /** Parts the index no longer has. */
  removed: string[];
  /** Whether the index was written whole (and why), or updated by term. */
  whole: string | false;
}

const FIELDS = SEARCH_FIELDS.length;
const sameDocument = (a: SearchDocument, b: SearchDocument) =>
  SEARCH_FIELDS.every((field) => a[field] === b[field]) && a.stored.every((value, i) => value === b.stored[i]);
const sameBody = (a: string | Uint8Array | undefined, b: string | Uint8Array, equal: BytesEqual) =>
  a === b || (typeof a === 'string' || typeof b === 'string' ? a === b : a !== undefined && equal(a, b));

/**
 * The index of `documents` from `state`: updated by term when it can be, else written whole. `equal`: how two
 * parts' or records' bytes are compared (sameBytes, or the runtime's own on Node).
 */
export function updateSearchIndex(
  state: SearchIndexState,
  documents: readonly SearchDocument[],
  analyse?: Analyse,
  synonyms: SynonymTable | null = null,
  equal: BytesEqual = sameBytes,
): SearchIndexUpdate {
  const reason = wholeReason(state, documents, synonyms);
  if (reason) return writeWhole(state, documents, analyse, synonyms, reason, equal);
  const previousAt = positions(state.documents);
  // One walk over the documents: a document that is the very one at the same place before (all but the
  // edited ones, when the caller keeps its documents) is passed over; each other one is found where it was,
  // and one no document before had the id of was added.
  const others: [index: number, was: number][] = [];
  for (let index = 0; index < documents.length; index++) {
    const document = documents[index]!;
    if (state.documents[index] === document) continue;
    const was = previousAt(document, index);
    if (was === undefined) return writeWhole(state, documents, analyse, synonyms, ADDED_OR_REMOVED, equal);
    others.push([index, was]);
  }
  const analyser = documentAnalyser(analyse, synonyms);
  // As many documents as before (wholeReason): every length copied at once.
  const lengths = state.lengths.slice();
  const changed: { number: number; old: FieldAnalysis[]; now: FieldAnalysis[] }[] = [];
  for (const [index, was] of others) {
    const document = documents[index]!;
    const previous = state.documents[was]!;
    if (previous === document || sameDocument(previous, document)) {
      // A loop, not subarray and set: this may run for every document, and a view costs more than five copies.
      for (let fieldId = 0; fieldId < FIELDS; fieldId++) lengths[index * FIELDS + fieldId] = state.lengths[was * FIELDS + fieldId]!;
      continue;
    }
    const now = analyser(document);
    now.forEach(({ length }, fieldId) => {
      lengths[index * FIELDS + fieldId] = length;
    });
    changed.push({ number: state.numbers.get(document.id)!, old: analyser(previous), now });
  }
  const update = updateTerms(state, { count: documents.length, lengths, changed, byNumber: numbering(state, documents) }, synonyms, equal);
  if (!update) return writeWhole(state, documents, analyse, synonyms, 'an average field length moved to another grid point', equal);
  const next: SearchIndexState = { ...state, documents, lengths, meta: update.meta, synonyms };
  return { state: next, written: update.written, removed: update.removed, whole: false };
}

/**
 * What an edit of existing documents changed, as updateTerms takes it: updateSearchIndex finds it by a walk
 * over the documents; a build with its state on disk, from the keys it kept (stored-search-update.ts).
 */
export interface TermEdits {
  /** The number of documents, the same as before. */
  count: number;
  /** Every document's field lengths now, in build order. */
  lengths: Uint32Array;
  /** Each edited document's number, and its analysis before and now. */
  changed: { number: number; old: FieldAnalysis[]; now: FieldAnalysis[] }[];
  /** The document of a number (for the edited documents' cards), undefined past the last. */
  byNumber: (number: number) => Card | undefined;
}

/** The parts of an index an update by term reads and changes. */
export type IndexParts = Pick<SearchIndexState, 'meta' | 'records' | 'parts' | 'files'>;

/**
 * The parts `edits` change made again, `state`'s records, layout and files changed in place: the parts
 * written (new or other bytes), the parts removed and the new meta. Undefined when an average moves to another
 * grid point (every bound changes: the index is written whole). `equal` as updateSearchIndex's.
 */
export function updateTerms(
  state: IndexParts,
  { count, lengths, changed, byNumber }: TermEdits,
  synonyms: SynonymTable | null,
  equal: BytesEqual = sameBytes,
): { meta: SearchMeta; written: SearchIndexFile[]; removed: string[] } | undefined {
  const averages = averagesOf(lengths);
  const grid = boundAverages(averages);
  if (grid.some((value, i) => value !== state.meta.boundAverages[i])) return undefined;
  const files = new Map<string, string | Uint8Array>();
  const removed: string[] = [];
  const { records, parts } = state;
  const terms = rebuildRecords(records, changed, { documents: count, grid, equal });
  const moved = relayTerms(parts, records, terms, files, removed, state.files);
  typoUpdates(parts, records, terms, moved, files, removed);
  const meta = metaOf(count, averages, state.meta.types, parts.blocks, synonyms);
  files.set(SEARCH_META_PATH, JSON.stringify(meta));
  for (const chunk of new Set(changed.map(({ number }) => Math.floor(number / CARDS_PER_FILE)))) {
    const card = cardsFile(chunk, byNumber);
    files.set(card.path, card.body);
  }
  const written: SearchIndexFile[] = [];
  for (const [path, body] of files) {
    if (!sameBody(state.files.get(path), body, equal)) written.push({ path, body });
    state.files.set(path, body);
  }
  for (const path of removed) state.files.delete(path);
  return { meta, written, removed };
}

const ADDED_OR_REMOVED = 'documents were added or removed (the documents after them are numbered anew)';

/** Why the index must be written whole, as far as told without a walk over the documents (updateSearchIndex's finds the rest). */
function wholeReason(state: SearchIndexState, documents: readonly SearchDocument[], synonyms: SynonymTable | null): string | undefined {
  if (JSON.stringify(synonyms) !== JSON.stringify(state.synonyms)) return 'the synonyms changed';
  if (documents.length !== state.documents.length) return ADDED_OR_REMOVED;
  return undefined;
}

function writeWhole(
  state: SearchIndexState,
  documents: readonly SearchDocument[],
  analyse: Analyse | undefined,
  synonyms: SynonymTable | null,
  reason: string,
  equal: BytesEqual,
): SearchIndexUpdate {
  const next = writeSearchIndexState(documents, analyse, synonyms);
  const written = [...next.files]
    .filter(([path, body]) => !sameBody(state.files.get(path), body, equal))
    .map(([path, body]) => ({ path, body }));
  const removed = [...state.files.keys()].filter((path) => !next.files.has(path));
  return { state: next, written, removed, whole: reason };
}

/**
 * Where a document was in the last build's `documents`: at the same index when the document there has its id
 * (every document but after an edit that reorders them), else found by id. The table by id is made only when
 * first needed: at 100,000 documents it was a tenth of the update's time, every build. Undefined: no
 * document had its id.
 */
function positions(documents: readonly SearchDocument[]): (document: SearchDocument, index: number) => number | undefined {
  let byId: Map<string, number> | undefined;
  return (document, index) => {
    if (documents[index]?.id === document.id) return index;
    byId ??= new Map(documents.map((previous, at) => [previous.id, at]));
    return byId.get(document.id);
  };
}

/** Each field's running average over `lengths` in build order, as the writer computes it. */
function averagesOf(lengths: Uint32Array): number[] {
  const averages = SEARCH_FIELDS.map(() => 0);
  for (let index = 0; index < lengths.length / FIELDS; index++) {
    for (let fieldId = 0; fieldId < FIELDS; fieldId++) {
      averages[fieldId] = runningAverage(averages[fieldId]!, index, lengths[index * FIELDS + fieldId]!);
    }
  }
  return averages;
}

/**
 * Per numbering (kept from update to update while the same documents are indexed), each number's index in
 * the documents: the edited records' cards are made from it. A table made from every document's id at each
 * update was a tenth of a title edit's update at 20,000 documents; this one is made again only when a
 * document it gives does not have the number asked for (an edit reordered them).
 */
const orderOf = new WeakMap<ReadonlyMap<string, number>, Int32Array>();

/** The documents by number (numbers are kept: the same documents, numbered in `type:id` order). */
function numbering(state: SearchIndexState, documents: readonly SearchDocument[]) {
  return (number: number) => {
    const found = orderOf.get(state.numbers);
    if (found && state.numbers.get(documents[found[number]!]?.id ?? '') === number) return documents[found[number]!]!;
    const order = new Int32Array(documents.length);
    documents.forEach((document, index) => {
      order[state.numbers.get(document.id)!] = index;
    });
    orderOf.set(state.numbers, order);
    return documents[order[number]!]!;
  };
}
