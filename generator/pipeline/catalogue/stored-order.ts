/**
 * A collection's order stored beside the output for the next `npm run build`, a fresh process (npm run dev
 * patches its previous order in memory: kept-order.ts). It is kept with the other values of facts
 * (`<out>.kept.bin`, tracked-outputs.ts): the files of the published records as the load gave them, and their
 * positions in the collection's order. The next build takes that order, drops the records that are gone, puts
 * the records of the files changed since (the content's witnesses: build-fingerprint.ts `changed`) and the new
 * ones in place by bisection, then checks every pair of neighbours with the collection's comparison in one pass.
 * A stored order is never trusted: a file anyone can edit, changed files not known, a record gone live since
 * without an edit; any pair out of order, or a record placed twice, and the collection is sorted whole. The
 * order is total, so a list in strict order is the sort's own. Sorting 100,000 articles again cost an edit
 * some 100 ms of the build's thread.
 */
import type { AnyEntry, MarkdownCollection } from '../../schemas/collections.ts';
import { insertionPoint } from '../../shared/sorted-search.ts';
import { newerDay, newestOf } from './newest-day.ts';
import { compareNewest, newestField, recordOrder } from './order.ts';

/** A collection's order as a build stores it. */
export interface StoredOrder {
  /** The files of the published records, in the order the load gave them. */
  files: readonly string[];
  /** Positions in `files`, in the collection's order. */
  order: Int32Array;
}

/** Whether a value read back is a stored order's shape (its positions are checked as they are used). */
export const isStoredOrder = (value: unknown): value is StoredOrder => {
  const stored = value as StoredOrder | undefined;
  return (
    stored?.order instanceof Int32Array &&
    Array.isArray(stored.files) &&
    stored.order.length === stored.files.length &&
    stored.files.every((file) => typeof file === 'string')
  );
};

/** Past this many records placed anew, sorting the whole collection costs no more than a move of memory for each. */
const MAX_PLACED = 256;

/** What a build stores of a collection: `given` is the published records as loaded, `sorted` the same in its order. */
export function storedOrderOf(given: readonly AnyEntry[], sorted: readonly AnyEntry[]): StoredOrder {
  const positions = new Map(given.map((record, at) => [record, at]));
  return { files: given.map((record) => record.file), order: Int32Array.from(sorted, (record) => positions.get(record)!) };
}

/**
 * `given` in the collection's order, from the order `stored` by the previous build, with its newest day
 * (newest-day.ts) and the order to store for the next build (`stored` itself when nothing moved, so the file
 * beside the output need not be written again); undefined when that order does not hold (the caller sorts).
 * `changed`: the content files changed since that build, when known; unknown, every record stays where it was
 * and the check decides.
 */
export function orderFromStored(
  given: readonly AnyEntry[],
  collection: MarkdownCollection,
  stored: StoredOrder,
  changed: ReadonlySet<string> | undefined,
): { sorted: AnyEntry[]; newest: string; next: StoredOrder } | undefined {
  const places = placesIn(given, stored.files, changed);
  if (!places) return undefined;
  const taken = new Uint8Array(given.length);
  const sorted: AnyEntry[] = [];
  // Each record's position in `given`, beside it: the order the next build is given.
  const positions: number[] = [];
  for (const position of stored.order) {
    const at = places.at[position];
    if (at === undefined || (at >= 0 && taken[at])) return undefined;
    if (at < 0 || places.fresh[at]) continue;
    taken[at] = 1;
    sorted.push(given[at]!);
    positions.push(at);
  }
  const placed: number[] = [];
  for (let at = 0; at < given.length; at++) if (!taken[at]) placed.push(at);
  if (placed.length > MAX_PLACED) return undefined;
  const compare = recordOrder(collection);
  for (const at of placed) {
    const place = insertionPoint(sorted, given[at]!, compare);
    sorted.splice(place, 0, given[at]!);
    positions.splice(place, 0, at);
  }
  const newest = checkedNewest(sorted, collection);
  if (newest === undefined) return undefined;
  const moved = !places.same || positions.some((at, place) => at !== stored.order[place]);
  const next = moved
    ? { files: places.same ? stored.files : given.map((record) => record.file), order: Int32Array.from(positions) }
    : stored;
  return { sorted, newest, next };
}

/**
 * Where each stored file's record is in `given` (-1: no longer published), and which of `given` were read from
 * changed files; undefined when files differ and one is published twice (then a file names no one record).
 */
function placesIn(given: readonly AnyEntry[], files: readonly string[], changed: ReadonlySet<string> | undefined) {
  const fresh = new Uint8Array(given.length);
  let same = given.length === files.length;
  for (let at = 0; at < given.length; at++) {
    const { file } = given[at]!;
    if (changed?.has(file)) fresh[at] = 1;
    same &&= file === files[at];
  }
  if (same) return { at: Int32Array.from(files, (_, at) => at), fresh, same };
  const byFile = new Map<string, number>();
  for (let at = 0; at < given.length; at++) {
    const { file } = given[at]!;
    if (byFile.has(file)) return undefined;
    byFile.set(file, at);
  }
  return { at: Int32Array.from(files, (file) => byFile.get(file) ?? -1), fresh, same };
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
    const day = String(field === 'updated' ? updated : date);
    if (at > 0 && !(compareNewest(lastDay, lastId, day, id) < 0)) return undefined;
    const changed = newerDay(updated, date);
    if (changed > newest) newest = changed;
    lastDay = day;
    lastId = id;
  }
  return newest;
}
