/** The newest day of a collection's records: the content's time (catalogue.ts `contentTime`) is the newest of any collection's. */
import type { AnyEntry, MarkdownCollection } from '../../schemas/collections.ts';

/** The newest `updated` or publication date of a record (`YYYY-MM-DD`); '' for none. */
export const dayOf = (record: AnyEntry, collection: MarkdownCollection): string =>
  newerDay(record.updated, collection.fields.date && record[collection.fields.date]);

/** The newer of a record's `updated` and publication date, as read from it (a day is a string; anything else is none). */
export function newerDay(updated: unknown, date: unknown): string {
  // Two comparisons, not a loop over a new array: this runs for every record of a fresh build.
  const newest = typeof updated === 'string' ? updated : '';
  return typeof date === 'string' && date > newest ? date : newest;
}

/** The newest day of any of `records` (dayOf); '' for none. */
export const newestOf = (records: readonly AnyEntry[], collection: MarkdownCollection): string =>
  records.reduce((newest, record) => {
    const day = dayOf(record, collection);
    return day > newest ? day : newest;
  }, '');
