/**
 * What an edit can reach, found from the edit rather than from every output. Each build records, per
 * published Markdown record, its file's digest, a digest of its facts (the record as validated, less its body
 * and its shown fields: what orders, groups and publishes it, and what its own outputs print) and a digest of
 * its shown fields (its title, where the title does not order its collection), with the digest of the build's
 * scope. The next build compares only digests. When the scope is the same, the same records are published,
 * and every record whose file changed kept its facts (its body or its title was edited), the build is
 * **steady**: the edited records are touched, and so are the records that print an edited title
 * (outputs/records/title-readers.ts). An output that names no touched record is made from what it was made
 * from before, so it keeps its key without its inputs being computed (output-tracker.ts); a touched record's
 * own outputs, and the list windows that hold it, are keyed from their inputs as ever. Anything else (a date, a
 * topic, a record added or removed, another scope) is not steady, and every output is keyed from its inputs.
 *
 * `npm run build` keeps the table beside the output (tracked-outputs.ts); `npm run dev` keeps it in memory
 * with the rest of the tracked outputs, and needs nothing else: the digests come from the load it runs.
 */
import { hash } from 'node:crypto';

/** What one build recorded of its published records: each file's digest, facts and shown fields, and the scope's digest. */
export interface RecordFacts {
  scoped: string;
  byFile: ReadonlyMap<string, [digest: string, facts: string, shown: string]>;
}

/** A published Markdown record as the reach reads it: its file and its validated value. */
export interface ReachRecord {
  file: string;
  body?: unknown;
  [field: string]: unknown;
}

/**
 * A record and the fields of it that other records print but that neither order nor group it (its title,
 * where its collection is not ordered by title): an edit of those reaches the records that print them.
 */
export interface ReachEntry {
  record: ReachRecord;
  shown: readonly string[];
  /** The record's collection. */
  collection?: string;
}

/**
 * What a build knows of its records without walking them all: the ones whose objects are not the previous
 * build's (the same object is the same record read from the same file: kept-order.ts), when the same files are
 * published as then, and the records read from given files. A build that knows them compares only those
 * records with the previous table: a walk of every record cost an edit some 30 ms at 20,000 articles.
 */
export interface KnownRecords {
  /** The changed records, in the order `records` lists them, and how many records there are; undefined when not known. */
  edited(): { entries: readonly ReachEntry[]; count: number } | undefined;
  /** The records read from `files`, in the order `records` lists them. */
  of(files: ReadonlySet<string>): ReachEntry[];
}

export interface EditReach {
  /** True when only the touched records' outputs, and the windows that hold them, can differ from the build before. */
  steady(): boolean;
  /**
   * True when the scope is the same and the same records are published with the same facts (every steady
   * build, and one whose edited titles' readers cannot be said): what is made of facts alone (groups, order,
   * selections) is as before. Known before the readers are asked, so they may ask it.
   */
  sameFacts(): boolean;
  /** Whether the outputs of the record read from `file` may differ from the previous build's: every record unless steady. */
  touched(file: string): boolean;
  /** The touched records themselves, when steady (the producers are asked for these only); undefined otherwise. */
  touchedRecords(): readonly ReachEntry[] | undefined;
  /** The table for the next build. */
  record(): RecordFacts;
}

/** A record's facts (everything of its validated value but its body and its shown fields) and its shown fields, as digests. */
export function factsOf({ record, shown }: ReachEntry): [facts: string, shown: string] {
  const facts: Record<string, unknown> = {};
  const shownValues: unknown[] = [];
  // Read field by field, so a body kept aside until asked for is not read.
  for (const field of Object.keys(record)) {
    if (shown.includes(field)) shownValues.push(record[field]);
    else if (field !== 'body') facts[field] = record[field];
  }
  return [hash('sha1', JSON.stringify(facts), 'base64'), hash('sha1', JSON.stringify(shownValues), 'base64')];
}

/**
 * The reach of this build's edit. `records` lists the published Markdown records; `digest` gives a file's
 * digest ('' for a file the build did not read, which is never steady); `readers` gives the files of the records
 * that print a shown field of the records read from the given files (undefined when it cannot say: not steady);
 * `index`, what the build knows of its records without walking them. Computed once, when first asked.
 */
export function findReach(
  previous: RecordFacts | undefined,
  scoped: string,
  records: () => Iterable<ReachEntry>,
  digest: (file: string) => string,
  readers?: (files: ReadonlySet<string>) => ReadonlySet<string> | undefined,
  index?: KnownRecords,
): EditReach {
  let found: { steady: boolean; touched: Set<string>; entries: ReachEntry[]; table: () => RecordFacts } | undefined;
  let sameFacts: boolean | undefined;
  const find = () => {
    if (found) return found;
    // Only the rows of the records whose files changed: in a steady build, the previous table is those rows
    // over it (see `table`), where each build made a table of every record.
    const byFile = new Map<string, [string, string, string]>();
    /** Records read from a file that the previous table has: all of them when the same records are published. */
    let known = 0;
    const touched = new Set<string>();
    const entries: ReachEntry[] = [];
    const reshown = new Set<string>();
    let steady = previous !== undefined && previous.scoped === scoped;
    let count = 0;
    // Only the changed records, when they are known: the others were read from the same files as before.
    const edited = previous && index?.edited();
    for (const entry of edited?.entries ?? records()) {
      const { file } = entry.record;
      count++;
      const now = digest(file);
      const before = previous?.byFile.get(file);
      if (!now) {
        steady = false;
        continue;
      }
      if (before) known++;
      if (before?.[0] === now) continue;
      const [facts, shown] = factsOf(entry);
      byFile.set(file, [now, facts, shown]);
      touched.add(file);
      if (steady) entries.push(entry);
      if (before?.[1] !== facts) steady = false;
      else if (before[2] !== shown) reshown.add(file);
    }
    if (edited) {
      known += edited.count - count;
      count = edited.count;
    }
    // Every record now was published before (checked above); as many as before, so none was removed.
    if (count !== previous?.byFile.size) steady = false;
    sameFacts = steady;
    const more = steady && reshown.size > 0 ? readers?.(reshown) : new Set<string>();
    if (!more) steady = false;
    else if (more.size) {
      // The readers of an edited title: a second pass over the records finds them (title edits only).
      const own = new Set(touched);
      for (const file of more) touched.add(file);
      for (const entry of index?.of(more) ?? records()) if (more.has(entry.record.file) && !own.has(entry.record.file)) entries.push(entry);
    }
    found = {
      steady,
      touched,
      entries,
      table: tableOf({ previous, scoped, changed: byFile, same: known === count && count === previous?.byFile.size }, records, digest),
    };
    return found;
  };
  return {
    steady: () => find().steady,
    sameFacts: () => {
      if (sameFacts === undefined) find();
      return sameFacts!;
    },
    touched: (file) => !find().steady || find().touched.has(file),
    touchedRecords: () => (find().steady ? find().entries : undefined),
    record: () => find().table(),
  };
}

/**
 * The table for the next build, made when asked (once the build is settled): when the same records are
 * published (every edit of a record's text), the previous table with the changed rows set in place, since only
 * a build whose files were put in place records its table; otherwise a table of the records now, the unchanged
 * rows taken from the previous one.
 */
function tableOf(
  build: { previous: RecordFacts | undefined; scoped: string; changed: Map<string, [string, string, string]>; same: boolean },
  records: () => Iterable<ReachEntry>,
  digest: (file: string) => string,
): () => RecordFacts {
  const { previous, scoped, changed, same } = build;
  let table: RecordFacts | undefined;
  return () => {
    if (table) return table;
    if (same && previous) {
      const byFile = previous.byFile as Map<string, [string, string, string]>;
      for (const [file, row] of changed) byFile.set(file, row);
      table = { scoped, byFile };
      return table;
    }
    const byFile = new Map<string, [string, string, string]>();
    for (const { record } of records()) {
      // A record read from no file has no row; an unchanged one keeps its row.
      if (!digest(record.file)) continue;
      const row = changed.get(record.file) ?? previous?.byFile.get(record.file);
      if (row) byFile.set(record.file, row);
    }
    table = { scoped, byFile };
    return table;
  };
}
