/** A validated record beside the raw record it came from, so later checks can still name file and line. */
import type { RawRecord } from '../load/load-content.ts';

export interface Checked<T = Record<string, unknown>> {
  value: T;
  raw: RawRecord;
}

/** Every collection's checked records by key; `site` holds the one settings document. */
export type CheckedContent = Record<string, Checked[]> & { site: Checked<{ [field: string]: unknown }> };
