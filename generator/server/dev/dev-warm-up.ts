/**
 * `npm run dev`'s practice edit, made before it says it is ready: a build of the content with one record's
 * title changed in memory, then a build of the content as it is, and neither served. The first edit an
 * editor saves then finds every path an edit takes already run (the records' and relations' made again,
 * the search index updated by term, the changed files compared) and compiled by the engine: a rebuild with
 * nothing changed runs none of them, and the first edit after it took about twice the CPU of the next ones,
 * the slowest edit of a session. Nothing is read from or written to the content folder for it.
 */
import type { RawContent, RawRecord } from '../../pipeline/load/load-content.ts';
import { dataOf } from '../../pipeline/load/load-file.ts';
import type { CollectionTable } from '../../schemas/collections.ts';

const fieldOf = (record: RawRecord | undefined, field: string | undefined) =>
  field === undefined || !record ? undefined : (dataOf(record) as Record<string, unknown> | undefined)?.[field];

/** A date as the YAML gives it (a date, or text not checked yet), as ISO text that sorts by time; undefined for anything else. */
const isoDate = (value: unknown) =>
  value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : typeof value === 'string' ? value : undefined;

/**
 * Up to this many records in its collection, the practice edit is of the newest record, else of the oldest.
 * The newest's title is on the lists of many others, so its edit takes every path an edit of a recent record
 * takes (relations made again for the records that show it, their pages and envelopes, list windows): at
 * 4,000 articles about a thousand files, which the first such edit paid for in compiling and deoptimizing
 * (its edit was the slowest of a session, 475 to 723 ms on the quiet machine against a 600 ms goal). At
 * 100,000 articles one of the newest is on 88,000 pages, which a practice would make twice: the oldest
 * there, whose title no short list shows.
 */
export const PRACTISE_NEWEST_UP_TO = 10_000;

/** The record to practise on: the newest or the oldest by its collection's date (see above), else the last. */
function practiceRecord(records: readonly RawRecord[], dateField: string | undefined, newestUpTo: number): number {
  const newest = records.length <= newestUpTo;
  let at = records.length - 1;
  let best: string | undefined;
  records.forEach((record, i) => {
    const date = isoDate(fieldOf(record, dateField));
    if (date !== undefined && (best === undefined || (newest ? date > best : date < best))) [at, best] = [i, date];
  });
  return at;
}

/**
 * `raw` with one record's title replaced by another record's of the same collection (a title the schema
 * took, so the practice build passes as the content does), in the Markdown collection with the most
 * records: its newest, or its oldest past `newestUpTo` records; `raw` itself when no collection has two records with different titles. The file's digest is
 * changed too, so that what is tracked by it is made again. Nothing of `raw` is changed in place: the
 * loader keeps its records for the next build.
 */
export function practiceEdit(raw: RawContent, collections: CollectionTable, newestUpTo = PRACTISE_NEWEST_UP_TO): RawContent {
  const candidates = Object.entries(collections)
    .flatMap(([key, collection]) => (collection.kind === 'markdown' ? [{ key, fields: collection.fields }] : []))
    .sort((a, b) => (raw.records[b.key]?.length ?? 0) - (raw.records[a.key]?.length ?? 0));
  for (const { key, fields } of candidates) {
    const records = raw.records[key] ?? [];
    const at = practiceRecord(records, fields.date, newestUpTo);
    const title = fieldOf(records[at], fields.title);
    const other = records.find((record) => typeof fieldOf(record, fields.title) === 'string' && fieldOf(record, fields.title) !== title);
    if (!other || typeof title !== 'string') continue;
    const edited = records[at]!;
    const practice: RawRecord = {
      ...edited,
      data: { ...(dataOf(edited) as Record<string, unknown>), [fields.title]: fieldOf(other, fields.title) },
      readData: undefined,
      checked: undefined,
      keepChecked: undefined,
    };
    const digests = new Map(raw.digests).set(edited.file, `practice ${raw.digests.get(edited.file) ?? ''}`);
    return { ...raw, records: { ...raw.records, [key]: records.map((record, i) => (i === at ? practice : record)) }, digests };
  }
  return raw;
}

/** A changed file as the builder hands it on (dev-output.ts). */
interface Changed {
  path: string;
  bytes: Uint8Array;
}

/**
 * What differs between the build before the practice edit (`before`: its files' digests) and the build after
 * it (`after`), from the files each of the two builds since changed or removed: none, unless the content
 * changed meanwhile. The server, which was given neither, is handed this.
 */
export function netChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  builds: readonly { changed: readonly Changed[]; removed: readonly string[] }[],
): { changed: Changed[]; removed: string[] } {
  const last = new Map<string, Uint8Array | null>();
  for (const build of builds) {
    for (const file of build.changed) last.set(file.path, file.bytes);
    for (const path of build.removed) last.set(path, null);
  }
  const changed: Changed[] = [];
  const removed: string[] = [];
  for (const [path, bytes] of last) {
    if (after.get(path) === before.get(path)) continue;
    if (bytes && after.has(path)) changed.push({ path, bytes });
    else if (!after.has(path)) removed.push(path);
  }
  return { changed, removed };
}
