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

/** One document's posting in one field, decoded. */
export interface Posting {
  document: number;
  tf: number;
  length: number;
}

/** Growable byte buffer for the writer. */
export class ByteWriter {
  private bytes: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.bytes = new Uint8Array(capacity);
  }

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

/** One field's postings of one term, varint-encoded as they are added (documents ascending). */
class FieldPostingsBuilder {
  readonly bytes = new ByteWriter(16);
  df = 0;
  private previous = -1;
  private type = 0;
  /** Where each type's segment ends in `bytes`, for the types before the current one. */
  private readonly ends: number[] = [];

  constructor(private readonly typeStarts: readonly number[]) {}

  add(document: number, type: number, tf: number, length: number): void {
    if (type < this.type || (type === this.type && document <= this.previous)) throw new Error('postings: documents must ascend');
    while (this.type < type) {
      this.ends.push(this.bytes.length);
      this.type++;
      this.previous = this.typeStarts[this.type]! - 1;
    }
    this.bytes.varint(document - this.previous);
    this.bytes.varint(tf);
    this.bytes.varint(length);
    this.previous = document;
    this.df++;
  }

  /** Each type's segment length. */
  segmentLengths(): number[] {
    const ends = [...this.ends];
    while (ends.length < this.typeStarts.length) ends.push(this.bytes.length);
    return ends.map((end, type) => end - (type === 0 ? 0 : ends[type - 1]!));
  }
}

/**
 * One term's postings record, built as the writer meets the term in document order: what is kept per
 * posting is its encoded bytes (about 3.5 on average), not the numbers.
 */
export class RecordBuilder {
  private readonly fields: (FieldPostingsBuilder | undefined)[] = [];
  /** Postings over all fields. */
  postings = 0;

  /** `typeStarts`: each type's first document number, ascending, from 0. */
  constructor(private readonly typeStarts: readonly number[]) {}

  add(fieldId: number, document: number, type: number, tf: number, length: number): void {
    this.fields[fieldId] ??= new FieldPostingsBuilder(this.typeStarts);
    this.fields[fieldId].add(document, type, tf, length);
    this.postings++;
  }

  has(fieldId: number): boolean {
    return this.fields[fieldId] !== undefined;
  }

  encode(): Uint8Array {
    const out = new ByteWriter();
    const present = this.fields.flatMap((field, fieldId) => (field ? [[fieldId, field] as const] : []));
    out.varint(present.length);
    for (const [fieldId, field] of present) {
      out.varint(fieldId);
      out.varint(field.df);
      for (const length of field.segmentLengths()) out.varint(length);
      out.append(field.bytes);
    }
    return out.result();
  }
}

/**
 * One term's record from flat `document, tf, length` triples per field (ascending documents; empty or
 * missing for a field without postings). For tests and tools; the writer uses RecordBuilder directly.
 */
export function encodeRecord(fields: readonly (readonly number[] | undefined)[], typeStarts: readonly number[]): Uint8Array {
  const builder = new RecordBuilder(typeStarts);
  fields.forEach((postings, fieldId) => {
    for (let i = 0; i < (postings?.length ?? 0); i += 3) {
      const document = postings![i]!;
      let type = typeStarts.length - 1;
      while (type > 0 && document < typeStarts[type]!) type--;
      builder.add(fieldId, document, type, postings![i + 1]!, postings![i + 2]!);
    }
  });
  return builder.encode();
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
