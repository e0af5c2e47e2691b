/**
 * The orders of docs/api.md "Records". Comparisons are by code unit, never locale, so every machine sorts
 * the same way.
 */
import type { AnyEntry, MarkdownCollection } from '../../schemas/collections.ts';
import { compareText } from '../../shared/compare-text.ts';

/** Services, expertise, categories, topics, industries: `order`, then title or name, then id. */
export const byOrderThen =
  <T extends { order: number; id: string }>(label: (item: T) => string) =>
  (a: T, b: T) =>
    a.order - b.order || compareText(label(a), label(b)) || compareText(a.id, b.id);

/** Newest first by a date field (`YYYY-MM-DD` sorts as text), then id. */
const byNewest = (field: string) => (a: AnyEntry, b: AnyEntry) =>
  compareText(String(b[field]), String(a[field])) || compareText(a.id, b.id);

/**
 * Whether a record of `dayA` and `idA` sorts strictly before one of `dayB` and `idB` newest first (byNewest
 * below zero), with as few comparisons of text: a check of every pair of neighbours (stored-order.ts) makes
 * 100,000 at once.
 */
export const newestBefore = (dayA: string, idA: string, dayB: string, idB: string): boolean => dayB < dayA || (dayA === dayB && idA < idB);

/** The field a newest-first order reads: the collection's date role, or the day a record last changed. */
export const newestField = (collection: MarkdownCollection) => (collection.order === 'date' ? collection.fields.date : 'updated');

/** A collection's contract order: total, since the id breaks every tie. */
export const recordOrder = (collection: MarkdownCollection): ((a: AnyEntry, b: AnyEntry) => number) =>
  collection.order === 'order'
    ? (byOrderThen<AnyEntry & { order: number }>((record) => String(record[collection.fields.title])) as (
        a: AnyEntry,
        b: AnyEntry,
      ) => number)
    : byNewest(newestField(collection));

/**
 * A collection's records in its contract order (a new array). A newest-first order is taken day by day: each
 * record's day and id read once (a record's fields are slow to read: it has a getter, so its properties are a
 * dictionary), the records put in their day's list, the days sorted, then each day's list by id, sorted only
 * when it is not in order already (the load gives the records in file order, and an id is its file's name
 * unless set). The same array as a stable sort by recordOrder, which read two records' days and ids at each of
 * its 1.7 million comparisons at 100,000 articles.
 */
export function sortRecords<T extends AnyEntry>(records: readonly T[], collection: MarkdownCollection): T[] {
  return Array.from(sortedPositions(records, collection), (at) => records[at]!);
}

/** The positions of `records` in the collection's contract order (sortRecords): what a build stores of it (stored-order.ts). */
export function sortedPositions(records: readonly AnyEntry[], collection: MarkdownCollection): Int32Array {
  const positions = Int32Array.from(records, (_, at) => at);
  if (collection.order === 'order') {
    const compare = recordOrder(collection);
    return positions.sort((a, b) => compare(records[a]!, records[b]!) || a - b);
  }
  const field = newestField(collection);
  const byDay = new Map<string, { ids: string[]; positions: number[] }>();
  for (let at = 0; at < records.length; at++) {
    const record = records[at]!;
    const day = String(record[field]);
    let list = byDay.get(day);
    if (!list) {
      list = { ids: [], positions: [] };
      byDay.set(day, list);
    }
    list.ids.push(record.id);
    list.positions.push(at);
  }
  let next = 0;
  for (const day of [...byDay.keys()].sort((a, b) => compareText(b, a))) {
    const { ids, positions: list } = byDay.get(day)!;
    let inOrder = true;
    for (let at = 1; at < ids.length && inOrder; at++) inOrder = compareText(ids[at - 1]!, ids[at]!) <= 0;
    if (inOrder) for (const at of list) positions[next++] = at;
    else for (const at of ids.map((_, index) => index).sort((a, b) => compareText(ids[a]!, ids[b]!))) positions[next++] = list[at]!;
  }
  return positions;
}

/** The fields of a record its collection's order reads (its id besides): two records' order is a function of these alone. */
export const orderFields = (collection: MarkdownCollection): string[] =>
  collection.order === 'order' ? ['order', collection.fields.title] : [newestField(collection)];
