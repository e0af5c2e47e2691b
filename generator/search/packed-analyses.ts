/**
 * A whole write's analyses held compactly between analysing the documents (in build order) and collecting
 * their postings (in document-number order), by the index writer (index-writer.ts). Runtime-neutral.
 */
import { RecordBuilder } from './record-builder.ts';

/**
 * The documents' analyses as the writer holds them until their postings are collected: per document, for
 * each field its length, its number of terms, then each term's ordinal and frequency. A whole build's
 * analyses as arrays of names and numbers took several times the memory (the second thread's largest part).
 */
export class PackedAnalyses {
  private readonly ordinals = new Map<string, number>();
  /** Each ordinal's term. */
  readonly terms: string[] = [];
  readonly documents: (Uint32Array | undefined)[] = [];

  add(fields: readonly { length: number; terms: readonly (string | number)[] }[]): void {
    let size = 0;
    for (const { terms } of fields) size += 2 + terms.length;
    const packed = new Uint32Array(size);
    let at = 0;
    for (const { length, terms } of fields) {
      packed[at++] = length;
      packed[at++] = terms.length / 2;
      for (let i = 0; i < terms.length; i += 2) {
        const term = terms[i] as string;
        let ordinal = this.ordinals.get(term);
        if (ordinal === undefined) {
          ordinal = this.terms.length;
          this.ordinals.set(term, ordinal);
          this.terms.push(term);
        }
        packed[at++] = ordinal;
        packed[at++] = terms[i + 1] as number;
      }
    }
    this.documents.push(packed);
  }
}

/** Each term's postings record, built in document order (terms in the order they are first met). */
export function collectPostings(order: readonly number[], analysed: PackedAnalyses) {
  const postings = new Map<string, RecordBuilder>();
  const byOrdinal: (RecordBuilder | undefined)[] = [];
  const { documents, terms } = analysed;
  order.forEach((index, number) => {
    const packed = documents[index]!;
    for (let at = 0, fieldId = 0; at < packed.length; fieldId++) {
      const length = packed[at++]!;
      const end = at + 2 * packed[at++]!;
      for (; at < end; at += 2) {
        const ordinal = packed[at]!;
        let record = byOrdinal[ordinal];
        if (!record) {
          record = new RecordBuilder();
          byOrdinal[ordinal] = record;
          postings.set(terms[ordinal]!, record);
        }
        record.add(fieldId, number, packed[at + 1]!, length);
      }
    }
    // Each document's analysis is read once: let it go, so the build holds postings, not both.
    documents[index] = undefined;
  });
  return postings;
}
