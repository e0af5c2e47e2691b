/**
 * What an edit can reach, found from the edit rather than from every output. Each build records, per
 * published Markdown record, its file's digest and a digest of its facts (the record as validated, less its
 * body: everything another record's outputs may print of it, and what orders and groups it), with the
 * digest of the build's scope. The next build compares only digests. When the scope is the same, the same
 * records are published, and every record whose file changed kept its facts (only its body was edited),
 * the build is **steady**: an output that names no changed record is made from what it was made from before, so it keeps
 * its key without its inputs being computed (output-tracker.ts). A changed record's own outputs, and the list
 * windows that hold it, are keyed as ever. Anything else (a title, a date, a record added or removed, another
 * scope) is not steady, and every output is keyed from its inputs, as before.
 *
 * `npm run build` keeps the table beside the output (tracked-outputs.ts); `npm run dev` keeps it in memory
 * with the rest of the tracked outputs, and needs nothing else: the digests come from the load it runs.
 */
import { hash } from 'node:crypto';

/** What one build recorded of its published records: each file's digest and facts, and the scope's digest. */
export interface RecordFacts {
  scoped: string;
  byFile: ReadonlyMap<string, [digest: string, facts: string]>;
}

/** A published Markdown record as the reach reads it: its file and its validated value. */
export interface ReachRecord {
  file: string;
  body?: unknown;
}

export interface EditReach {
  /** True when only the changed records' own outputs, and the windows that hold them, can differ from the build before. */
  steady(): boolean;
  /** Whether the outputs of the record read from `file` may differ from the previous build's: every record unless steady. */
  touched(file: string): boolean;
  /** The table for the next build. */
  record(): RecordFacts;
}

/** A record's facts: everything of its validated value but its body, as one digest. */
export function factsOf(record: ReachRecord): string {
  const { body: _, ...facts } = record;
  return hash('sha1', JSON.stringify(facts), 'base64');
}

/**
 * The reach of this build's edit. `records` lists the published Markdown records; `digest` gives a file's
 * digest ('' for a file the build did not read, which is never steady). Computed once, when first asked.
 */
export function findReach(
  previous: RecordFacts | undefined,
  scoped: string,
  records: () => Iterable<ReachRecord>,
  digest: (file: string) => string,
): EditReach {
  let found: { steady: boolean; changed: Set<string>; table: RecordFacts } | undefined;
  const find = () => {
    if (found) return found;
    const byFile = new Map<string, [string, string]>();
    const changed = new Set<string>();
    let steady = previous !== undefined && previous.scoped === scoped;
    let count = 0;
    for (const record of records()) {
      count++;
      const now = digest(record.file);
      const before = previous?.byFile.get(record.file);
      if (!now) {
        steady = false;
        continue;
      }
      if (before?.[0] === now) {
        byFile.set(record.file, before);
        continue;
      }
      const facts = factsOf(record);
      byFile.set(record.file, [now, facts]);
      changed.add(record.file);
      if (before?.[1] !== facts) steady = false;
    }
    // Every record now was published before (checked above); as many as before, so none was removed.
    if (count !== previous?.byFile.size) steady = false;
    found = { steady, changed, table: { scoped, byFile } };
    return found;
  };
  return {
    steady: () => find().steady,
    touched: (file) => !find().steady || find().changed.has(file),
    record: () => find().table,
  };
}
