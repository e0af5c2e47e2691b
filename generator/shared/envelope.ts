/**
 * The success envelope, written one way for the generator's files and the handler's responses, so that
 * the handler can swap the per-request `meta` without parsing the data.
 */

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface MetaFields {
  timestamp: string;
  request_id: string;
  processing_time_ms: number;
  language: string;
  pagination?: Pagination;
}

const PREFIX = '{"success":true,"data":';
const META = ',"meta":';

/** Serializes an envelope around already-serialized `data` JSON. */
export function serializeEnvelope(dataJson: string, meta: MetaFields): string {
  return `${PREFIX}${dataJson}${META}${JSON.stringify(meta)}}`;
}

/**
 * The `data` JSON of an envelope written by `serializeEnvelope`. Inside JSON strings every quote is
 * escaped, so the last `,"meta":` is the envelope's own.
 */
export function extractData(envelope: string): string {
  const end = envelope.lastIndexOf(META);
  if (!envelope.startsWith(PREFIX) || end < 0) throw new Error('not a success envelope');
  return envelope.slice(PREFIX.length, end);
}

export function pagination(total: number, limit: number, offset: number, count: number): Pagination {
  return { total, limit, offset, has_more: offset + count < total };
}
