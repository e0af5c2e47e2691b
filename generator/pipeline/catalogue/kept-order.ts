/**
 * A collection's order patched from the previous build's rather than made again (npm run dev keeps it in
 * memory between builds). A record is the same object from one build to the next while its file is unchanged
 * (load-content.ts, validate-content.ts), so the records an edit changed are found by comparing the published
 * lists position by position, pointer by pointer; each is put where its previous object was in the previous
 * order (found by bisection: the order is total), and moved only when it is no longer in order there. The
 * collection's newest date is patched the same way. Before, each build checked every record's place and date
 * (some 30 ms an edit at 20,000 articles).
 */
import type { AnyEntry, MarkdownCollection } from '../../schemas/collections.ts';
import { recordOrder, sortedPositions } from './order.ts';
import { insertionPoint } from '../../shared/sorted-search.ts';
import { dayOf, newestOf } from './newest-day.ts';
import { orderFromStored, type StoredOrder, storedOrderOf } from './stored-order.ts';

/** What a build keeps of a collection for the next: its published records as given, in its order, and their newest date. */
export interface KeptOrder {
  collection: MarkdownCollection;
  given: readonly AnyEntry[];
  sorted: readonly AnyEntry[];
  /** The newest `updated` or publication date of its records (`YYYY-MM-DD`); '' for none. */
  newest: string;
}

/** A collection in order, and the records whose objects differ from the previous build's (undefined when it was sorted whole). */
export interface Ordered {
  sorted: AnyEntry[];
  edited: AnyEntry[] | undefined;
  kept: KeptOrder;
  /** What a build stores of the order for the next (stored-order.ts); none for an order patched in memory. */
  store?: (() => StoredOrder) | undefined;
}

/** Past this many changed records, sorting the collection again costs no more than placing each. */
const MAX_EDITED = 256;

/**
 * The previous build's orders, by collection: kept in memory (npm run dev), or stored beside the output
 * (npm run build: stored-order.ts) with the content files changed since, when known.
 */
export interface PreviousOrders {
  kept(key: string): KeptOrder | undefined;
  /** Present when the build stores its orders for the next (beside the output). */
  stored?: { order(key: string): StoredOrder | undefined; changed: ReadonlySet<string> | undefined } | undefined;
}

/**
 * `given` in the order of `collection`, from the previous build's `before` when it kept the same collection's,
 * else from the order the previous build `stored` when that holds, else sorted.
 */
export function orderRecords(
  given: readonly AnyEntry[],
  collection: MarkdownCollection,
  before?: KeptOrder,
  stored?: { order: StoredOrder; changed: ReadonlySet<string> | undefined },
): Ordered {
  const patched = before?.collection === collection && before.given.length === given.length ? patchOrder(given, before) : undefined;
  if (patched) return patched;
  const found = stored && orderFromStored(given, collection, stored.order, stored.changed);
  if (found) {
    const { sorted, newest, next } = found;
    return { sorted, edited: undefined, kept: { collection, given, sorted, newest }, store: next };
  }
  const positions = sortedPositions(given, collection);
  const sorted = Array.from(positions, (at) => given[at]!);
  const kept = { collection, given, sorted, newest: newestOf(sorted, collection) };
  return { sorted, edited: undefined, kept, store: () => storedOrderOf(given, positions) };
}

/** The previous order with the changed records put in place; undefined when a file differs or too many changed. */
function patchOrder(given: readonly AnyEntry[], before: KeptOrder): Ordered | undefined {
  const { collection } = before;
  const compare = recordOrder(collection);
  const sorted = before.sorted.slice();
  const edited: AnyEntry[] = [];
  const places: number[] = [];
  let newest = before.newest;
  let stale = false;
  for (let at = 0; at < given.length; at++) {
    const now = given[at]!;
    const was = before.given[at]!;
    if (now === was) continue;
    if (now.file !== was.file || edited.length === MAX_EDITED) return undefined;
    const place = insertionPoint(before.sorted, was, compare);
    if (before.sorted[place] !== was) return undefined;
    sorted[place] = now;
    edited.push(now);
    places.push(place);
    // The newest date may have been this record's: then it is read again from every record.
    if (dayOf(was, collection) === newest) stale = true;
    const day = dayOf(now, collection);
    if (day > newest) newest = day;
  }
  // Every other pair of neighbours was in order before: the list is in order when the changed records are.
  const inOrder = (place: number) =>
    (place === 0 || compare(sorted[place - 1]!, sorted[place]!) < 0) &&
    (place === sorted.length - 1 || compare(sorted[place]!, sorted[place + 1]!) < 0);
  const order = places.every(inOrder) ? sorted : reinserted(sorted, places, compare);
  edited.sort(compare);
  return { sorted: order, edited, kept: { collection, given, sorted: order, newest: stale ? newestOf(order, collection) : newest } };
}

/** `sorted` with the records at `places` taken out and each put back where the order puts it. */
function reinserted(sorted: AnyEntry[], places: readonly number[], compare: (a: AnyEntry, b: AnyEntry) => number): AnyEntry[] {
  const moved = new Set(places);
  const rest = sorted.filter((_, place) => !moved.has(place));
  for (const place of places) {
    const record = sorted[place]!;
    rest.splice(insertionPoint(rest, record, compare), 0, record);
  }
  return rest;
}
