/**
 * The bytes of one term's postings record. Unsigned LEB128 varints throughout:
 *
 *   record  = fieldCount, field*                  (fields in ascending id)
 *   field   = fieldId, df, segmentBytes[types], segment[types]
 *   segment = (gap, tf, length)*                  (one type's documents, ascending)
 *
 * `df` is the number of documents the term occurs in within that field (BM25's document frequency), `gap`
 * the distance from the previous document number (the first from the type's first number - 1), `tf` the
 * term's frequency in the document's field and `length` that field's length in the document. A reader that
 * wants one type skips the other segments by their byte lengths. Runtime-neutral.
 */

/** One document's posting in one field. */
export interface Posting {
  document: number;
  tf: number;
  length: number;
}

/** Growable byte buffer for the writer. */
export class ByteWriter {
  private bytes = new Uint8Array(256);
  length = 0;

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`postings: cannot encode ${value}`);
    this.reserve(8);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.length++] = rest;
  }

  append(other: ByteWriter): void {
    this.reserve(other.length);
    this.bytes.set(other.bytes.subarray(0, other.length), this.length);
    this.length += other.length;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/**
 * One term's record. `fields[fieldId]` holds its postings in that field as flat `document, tf, length`
 * triples in ascending document number (empty or missing when it has none); `typeStarts` is each type's
 * first document number, ascending, from 0.
 */
export function encodeRecord(fields: readonly (readonly number[] | undefined)[], typeStarts: readonly number[]): Uint8Array {
  const out = new ByteWriter();
  const present = fields.flatMap((postings, fieldId) => (postings?.length ? [fieldId] : []));
  out.varint(present.length);
  for (const fieldId of present) {
    const postings = fields[fieldId]!;
    const segments = typeStarts.map(() => new ByteWriter());
    let type = 0;
    let previous = -1;
    for (let i = 0; i < postings.length; i += 3) {
      const document = postings[i]!;
      if (document <= previous) throw new Error('postings: documents must ascend');
      while (type + 1 < typeStarts.length && document >= typeStarts[type + 1]!) type++;
      previous = Math.max(previous, typeStarts[type]! - 1);
      segments[type]!.varint(document - previous);
      segments[type]!.varint(postings[i + 1]!);
      segments[type]!.varint(postings[i + 2]!);
      previous = document;
    }
    out.varint(fieldId);
    out.varint(postings.length / 3);
    for (const segment of segments) out.varint(segment.length);
    for (const segment of segments) out.append(segment);
  }
  return out.result();
}

/** Sequential varint reads over a byte range; throws on a record that runs past its end. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public position: number,
    readonly end: number,
  ) {}

  varint(): number {
    const { bytes, end } = this;
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.position >= end || scale > 2 ** 49) throw new Error('postings: record is truncated or corrupt');
      const byte = bytes[this.position++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/** One field of a record: its id, document frequency, and the byte range of each type's segment. */
export interface FieldPostings {
  fieldId: number;
  df: number;
  /** `[start, end)` of each type's segment within the record's bytes. */
  segments: [start: number, end: number][];
}

/** The fields of the record at `bytes[offset, offset + length)`, with `types` segments each. */
export function readRecordFields(bytes: Uint8Array, offset: number, length: number, types: number): FieldPostings[] {
  const end = offset + length;
  if (end > bytes.length) throw new Error('postings: record is truncated or corrupt');
  const reader = new ByteReader(bytes, offset, end);
  const count = reader.varint();
  const fields: FieldPostings[] = [];
  for (let i = 0; i < count; i++) {
    const fieldId = reader.varint();
    const df = reader.varint();
    const sizes = Array.from({ length: types }, () => reader.varint());
    const segments = sizes.map((size): [number, number] => {
      const start = reader.position;
      reader.position += size;
      return [start, reader.position];
    });
    if (reader.position > end) throw new Error('postings: record is truncated or corrupt');
    fields.push({ fieldId, df, segments });
  }
  return fields;
}

/** Every posting of one segment, decoded (for tests and tools; scoring decodes in its own loop). */
export function decodeSegment(bytes: Uint8Array, [start, end]: [number, number], firstDocument: number): Posting[] {
  const reader = new ByteReader(bytes, start, end);
  const postings: Posting[] = [];
  let document = firstDocument - 1;
  while (reader.position < end) {
    document += reader.varint();
    postings.push({ document, tf: reader.varint(), length: reader.varint() });
  }
  return postings;
}
