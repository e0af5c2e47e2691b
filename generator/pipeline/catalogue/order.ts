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

/** The field a newest-first order reads: the collection's date role, or the day a record last changed. */
const newestField = (collection: MarkdownCollection) => (collection.order === 'date' ? collection.fields.date : 'updated');

/** A collection's contract order: total, since the id breaks every tie. */
export const recordOrder = (collection: MarkdownCollection): ((a: AnyEntry, b: AnyEntry) => number) =>
  collection.order === 'order'
    ? (byOrderThen<AnyEntry & { order: number }>((record) => String(record[collection.fields.title])) as (
        a: AnyEntry,
        b: AnyEntry,
      ) => number)
    : byNewest(newestField(collection));

/** A collection's records in its contract order (a new array). */
export const sortRecords = <T extends AnyEntry>(records: readonly T[], collection: MarkdownCollection): T[] =>
  [...records].sort(recordOrder(collection));

/** The fields of a record its collection's order reads (its id besides): two records' order is a function of these alone. */
export const orderFields = (collection: MarkdownCollection): string[] =>
  collection.order === 'order' ? ['order', collection.fields.title] : [newestField(collection)];
