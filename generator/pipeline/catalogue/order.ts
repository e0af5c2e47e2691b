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

/**
 * A collection's records in its contract order (a new array). `hint`: each record's position by file in an
 * earlier build's order. The records are put there and kept when that is in order (one comparison a record,
 * where a sort makes some fifteen at 20,000 records); sorted otherwise. The order is total (the id breaks
 * every tie), so in order is the one order, whatever the hint.
 */
export function sortRecords<T extends AnyEntry>(
  records: readonly T[],
  collection: MarkdownCollection,
  hint?: ReadonlyMap<string, number>,
): T[] {
  const compare = (
    collection.order === 'order'
      ? byOrderThen<AnyEntry & { order: number }>((record) => String(record[collection.fields.title]))
      : byNewest(newestField(collection))
  ) as (a: T, b: T) => number;
  const placed = hint?.size === records.length ? placedBy(records, hint) : undefined;
  if (placed?.every((record, at) => at === 0 || compare(placed[at - 1]!, record) < 0)) return placed;
  return [...records].sort(compare);
}

/** The records at their positions in `hint`; undefined when a record has none, or two have the same. */
function placedBy<T extends AnyEntry>(records: readonly T[], hint: ReadonlyMap<string, number>): T[] | undefined {
  const placed = new Array<T>(records.length);
  for (const record of records) {
    const at = hint.get(record.file);
    if (at === undefined || placed[at] !== undefined) return undefined;
    placed[at] = record;
  }
  return placed;
}

/** The fields of a record its collection's order reads (its id besides): two records' order is a function of these alone. */
export const orderFields = (collection: MarkdownCollection): string[] =>
  collection.order === 'order' ? ['order', collection.fields.title] : [newestField(collection)];
