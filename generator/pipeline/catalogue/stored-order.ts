/**
 * A collection's order stored beside the output for the next `npm run build`, a fresh process (npm run dev
 * patches its previous order in memory: kept-order.ts). It is kept with the other values of facts
 * (`<out>.kept.bin`, tracked-outputs.ts): the positions of the published records, as the load gave them, in the
 * collection's order, and a hash of each one's file. The next build takes that order, drops the records no
 * longer published, puts the records of the files changed since (the content's witnesses:
 * build-fingerprint.ts `changed`) and the new ones in place by bisection, then checks every pair of neighbours
 * with the collection's comparison in one pass, which also takes the collection's newest date.
 *
 * A stored order is never trusted. What the build makes of it is a permutation of its records by construction,
 * and a permutation in strict order is the sort's own (the order is total); any pair out of order and the
 * collection is sorted whole. So the order is taken position by position while the build publishes as many
 * records as that one, without reading each record's file (a record gone live since without an edit, a file
 * replaced by another: the check finds it), and the files' hashes are read only when the count changed.
 */
import type { AnyEntry, MarkdownCollection } from '../../schemas/collections.ts';
import { pathHash } from '../../shared/path-part.ts';
import { firstAtOrAfterBy, insertionPoint } from '../../shared/sorted-search.ts';
import { newerDay, newestOf } from './newest-day.ts';
import { newestBefore, newestField, recordOrder } from './order.ts';

/** A collection's order as a build stores it. */
export interface StoredOrder {
  /** Positions of the published records as the load gave them, in the collection's order. */
  order: Int32Array;
  /** The hash of each published record's file (pathHash), as the load gave them. */
  files: Int32Array;
}

/** Whether a value read back is a stored order's shape (its positions are checked as they are used). */
export const isStoredOrder = (value: unknown): value is StoredOrder => {
  const stored = value as StoredOrder | undefined;
  return stored?.order instanceof Int32Array && stored.files instanceof Int32Array && stored.order.length === stored.files.length;
};

/** Past this many records placed anew, sorting the whole collection costs no more than a move of memory for each. */
const MAX_PLACED = 256;

/**
 * What a build stores of a collection: `positions` of `given` (the published records as loaded) in its order,
 * and the hashes of their files, when known (the stored ones, for the same files).
 */
export const storedOrderOf = (given: readonly AnyEntry[], positions: Int32Array, files?: Int32Array): StoredOrder => ({
  order: positions,
  files: files ?? Int32Array.from(given, (record) => pathHash(record.file)),
});

/**
 * `given` in the collection's order, from the order `stored` by the previous build, with its newest day
 * (newest-day.ts); undefined when that order does not hold (the caller sorts). `changed`: the content files
 * changed since that build, when known; unknown, every record stays where it was and the check decides.
 */
export function orderFromStored(
  given: readonly AnyEntry[],
  collection: MarkdownCollection,
  stored: StoredOrder,
  changed: ReadonlySet<string> | undefined,
): { sorted: AnyEntry[]; newest: string; next: () => StoredOrder } | undefined {
  const count = given.length;
  const taken = new Uint8Array(count);
  // The records of changed files are placed anew (the load gives the records in the order of their files). The
  // stored positions are this build's while as many records are published and each changed file of the
  // collection is where it was (one not published now was not then: a file of another collection, say).
  let aligned = count === stored.files.length;
  for (const file of changed ?? []) {
    const at = indexOfFile(given, file);
    if (at !== undefined) taken[at] = 1;
    aligned &&= at === undefined ? !stored.files.includes(pathHash(file)) : stored.files[at] === pathHash(file);
  }
  const placeOf = aligned ? undefined : placesByHash(given, stored.files);
  const sorted: AnyEntry[] = [];
  // Each record's position in `given`, beside it: what this build stores for the next.
  const positions: number[] = [];
  for (const position of stored.order) {
    const at = placeOf ? placeOf[position] : position >= 0 && position < count ? position : -2;
    if (at === -1 || taken[at!] === 1) continue;
    if (at === undefined || at < 0 || taken[at] === 2) return undefined;
    taken[at] = 2;
    sorted.push(given[at]!);
    positions.push(at);
  }
  const placed: number[] = [];
  for (let at = 0; at < count; at++) if (taken[at] !== 2) placed.push(at);
  if (placed.length > MAX_PLACED) return undefined;
  const compare = recordOrder(collection);
  for (const at of placed) {
    const place = insertionPoint(sorted, given[at]!, compare);
    sorted.splice(place, 0, given[at]!);
    positions.splice(place, 0, at);
  }
  const newest = checkedNewest(sorted, collection);
  if (newest === undefined) return undefined;
  return { sorted, newest, next: () => storedOrderOf(given, Int32Array.from(positions), aligned ? stored.files : undefined) };
}

/** The position in `given` of the record of `file`, found by bisection (the records are in the order of their files). */
function indexOfFile(given: readonly AnyEntry[], file: string): number | undefined {
  const at = firstAtOrAfterBy(given, (record) => record.file, file);
  return given[at]?.file === file ? at : undefined;
}

/** Where the record of each stored file is in `given`, by its hash (-1: none now, or a hash two files share). */
function placesByHash(given: readonly AnyEntry[], files: Int32Array): Int32Array {
  const byHash = new Map<number, number>();
  for (let at = 0; at < given.length; at++) {
    const hash = pathHash(given[at]!.file);
    byHash.set(hash, byHash.has(hash) ? -1 : at);
  }
  return files.map((hash) => byHash.get(hash) ?? -1);
}

/**
 * The newest day of `sorted` (newest-day.ts) when each record sorts strictly before the next by the collection's
 * comparison (recordOrder); else undefined.
 */
function checkedNewest(sorted: readonly AnyEntry[], collection: MarkdownCollection): string | undefined {
  if (collection.order === 'order') {
    const compare = recordOrder(collection);
    for (let at = 1; at < sorted.length; at++) if (!(compare(sorted[at - 1]!, sorted[at]!) < 0)) return undefined;
    return newestOf(sorted, collection);
  }
  // Newest first: each record's fields read once (a record's fields are slow to read: order.ts sortRecords).
  const field = newestField(collection);
  const dateField = collection.fields.date;
  let newest = '';
  let lastDay = '';
  let lastId = '';
  for (let at = 0; at < sorted.length; at++) {
    const record = sorted[at]!;
    const { id, updated } = record;
    const date = dateField && record[dateField];
    const value = field === 'updated' ? updated : date;
    const day = typeof value === 'string' ? value : String(value);
    if (at > 0 && !newestBefore(lastDay, lastId, day, id)) return undefined;
    const changed = newerDay(updated, date);
    if (changed > newest) newest = changed;
    lastDay = day;
    lastId = id;
  }
  return newest;
}
