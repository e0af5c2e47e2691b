/**
 * The records of the terms an edit touches, made again: each one's postings decoded, the edited documents'
 * postings replaced by their new ones, and the record encoded as the writer encodes it. Runtime-neutral.
 */
import type { EncodedRecord, TermRecords } from './index-layout.ts';
import type { FieldAnalysis } from './index-writer.ts';
import type { DecodedPostings } from './postings-codec.ts';
import { SEARCH_FIELDS, TYPO_FIELDS } from './ranking.ts';
import { RecordBuilder } from './record-builder.ts';
import { blockTable, parseRecord, readBlock } from './record-reader.ts';
import { spliceRecord } from './record-splice.ts';

const FIELDS = SEARCH_FIELDS.length;
const TYPO_FIELD_IDS = TYPO_FIELDS.map((field) => SEARCH_FIELDS.indexOf(field));

/** The terms whose record changed: all of them, those new to the index and those gone, and each one's typo flag before. */
export interface ChangedTerms {
  all: Set<string>;
  added: Set<string>;
  removed: Set<string>;
  typoBefore: Map<string, boolean>;
}

/** An edited document: its number, and its fields analysed before and now. */
export interface ChangedDocument {
  number: number;
  old: FieldAnalysis[];
  now: FieldAnalysis[];
}

/** `[fieldId, tf, length]` of one document's posting, fields ascending. */
type Posting = [fieldId: number, tf: number, length: number][];

/** Every posting of a record, decoded (a common term's blocks one after the other). */
function decodeAll(record: EncodedRecord, documents: number): DecodedPostings[] {
  const parsed = parseRecord(record.bytes, 0, record.bytes.length, { documents, averageFieldLength: SEARCH_FIELDS.map(() => 1) });
  if (parsed.postings) return [parsed.postings];
  return Array.from(blockTable(parsed).block, (_, i) => readBlock(parsed, i));
}

/** Each term's postings in `analyses` (one document's fields), added to `byTerm` under document `number`. */
function addPostings(byTerm: Map<string, Map<number, Posting>>, number: number, analyses: readonly FieldAnalysis[]): void {
  analyses.forEach(({ length, terms }, fieldId) => {
    for (let i = 0; i < terms.length; i += 2) {
      const term = terms[i] as string;
      const documents = byTerm.get(term) ?? new Map<number, Posting>();
      byTerm.set(term, documents);
      const posting = documents.get(number) ?? [];
      documents.set(number, posting);
      posting.push([fieldId, terms[i + 1] as number, length]);
    }
  });
}

/** The edited documents' postings before and now, by term, then by document number. */
function newPostings(changed: readonly ChangedDocument[]) {
  const byTerm = new Map<string, Map<number, Posting>>();
  const before = new Map<string, Map<number, Posting>>();
  for (const { number, old, now } of changed) {
    addPostings(before, number, old);
    addPostings(byTerm, number, now);
  }
  return { byTerm, before, touched: new Set([...before.keys(), ...byTerm.keys()]) };
}

const samePosting = (a: Posting, b: Posting) =>
  a.length === b.length && a.every(([fieldId, tf, length], i) => b[i]![0] === fieldId && b[i]![1] === tf && b[i]![2] === length);

/**
 * Whether the edited documents hold the term exactly as before (the same fields, frequencies and lengths):
 * then its record, which depends on its postings, the number of documents and the grid only, is unchanged.
 * Most terms of a small edit are so (a title edit leaves every body term as it was), and none is decoded.
 */
function samePostings(old: Map<number, Posting> | undefined, now: Map<number, Posting> | undefined): boolean {
  if (!old || !now || old.size !== now.size) return false;
  for (const [document, posting] of now) {
    const was = old.get(document);
    if (!was || !samePosting(was, posting)) return false;
  }
  return true;
}

/** Each edited document's pairs of a term now (none where it held the term before and no longer does). */
function editsOf(old: Map<number, Posting> | undefined, now: Map<number, Posting> | undefined): Map<number, Posting> {
  const edits = new Map<number, Posting>();
  for (const document of old?.keys() ?? []) edits.set(document, []);
  for (const [document, posting] of now ?? []) edits.set(document, posting);
  return edits;
}

/** `term`'s record with the postings of the documents in `numbers` (ascending) replaced by `now`'s. */
function rebuild(old: EncodedRecord | undefined, numbers: readonly number[], now: Map<number, Posting> | undefined, documents: number) {
  const builder = new RecordBuilder();
  const edited = new Set(numbers);
  const insert = now ? [...now.keys()].sort((a, b) => a - b) : [];
  let next = 0;
  const addNew = (upTo: number) => {
    for (; next < insert.length && insert[next]! < upTo; next++) {
      for (const [fieldId, tf, length] of now!.get(insert[next]!)!) builder.add(fieldId, insert[next]!, tf, length);
    }
  };
  for (const { docs, masks, tf, lengths } of old ? decodeAll(old, documents) : []) {
    for (let i = 0; i < docs.length; i++) {
      const document = docs[i]!;
      addNew(document);
      if (edited.has(document)) continue;
      for (let field = 0; field < FIELDS; field++) {
        if (masks[i]! & (1 << field)) builder.add(field, document, tf[i * FIELDS + field]!, lengths[i * FIELDS + field]!);
      }
    }
  }
  addNew(Number.POSITIVE_INFINITY);
  return builder;
}

/** Whether two byte arrays hold the same bytes. */
export type BytesEqual = (a: Uint8Array, b: Uint8Array) => boolean;

/**
 * Whether two byte arrays hold the same bytes, in plain JavaScript (this folder runs at the edge too). A
 * caller on Node passes its native comparison instead (updateTerms' `equal`): an update compares whole shards
 * and spliced records, tens of megabytes at 100,000 documents, which this loop took some 70 ms to do in a
 * fresh process, before the engine optimizes it.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The records of every term in the edited documents' old or new text made again in `records` (a term no
 * document holds any more is deleted); which changed.
 */
export function rebuildRecords(
  records: TermRecords,
  changed: readonly ChangedDocument[],
  context: { documents: number; grid: number[]; equal: BytesEqual },
): ChangedTerms {
  const { byTerm, before, touched } = newPostings(changed);
  const numbers = changed.map(({ number }) => number).sort((a, b) => a - b);
  const terms: ChangedTerms = { all: new Set(), added: new Set(), removed: new Set(), typoBefore: new Map() };
  for (const term of touched) {
    const old = records.get(term);
    const now = byTerm.get(term);
    if (old && samePostings(before.get(term), now)) continue;
    // A common term's record is spliced: only the edited documents' blocks are encoded again (record-splice.ts).
    const spliced = old && spliceRecord(old.bytes, editsOf(before.get(term), now), context.documents, context.grid);
    if (spliced) {
      if (context.equal(spliced.bytes, old!.bytes)) continue;
      const postings = spliced.df.reduce((sum, df) => sum + df, 0);
      records.set(term, { bytes: spliced.bytes, postings, typo: TYPO_FIELD_IDS.some((id) => spliced.df[id]! > 0) });
      terms.all.add(term);
      terms.typoBefore.set(term, old!.typo);
      continue;
    }
    const builder = rebuild(old, numbers, now, context.documents);
    if (builder.docCount === 0) {
      if (!old) continue;
      records.delete(term);
      terms.removed.add(term);
    } else {
      const record = {
        bytes: builder.encode({ documents: context.documents, averageFieldLength: context.grid }),
        postings: builder.postings,
        typo: TYPO_FIELD_IDS.some((id) => builder.has(id)),
      };
      if (old && old.postings === record.postings && old.typo === record.typo && context.equal(old.bytes, record.bytes)) continue;
      if (!old) terms.added.add(term);
      records.set(term, record);
    }
    terms.all.add(term);
    terms.typoBefore.set(term, old?.typo ?? false);
  }
  return terms;
}
