/** A Markdown collection of each kind of order (docs/api.md "Records"), for the tests of ordering. */
import { collections, type MarkdownCollection } from '../../generator/schemas/collections.ts';

/** Newest first by a publication date. */
export const byDate = {
  ...collections.intelligence,
  order: 'date',
  fields: { ...collections.intelligence.fields, date: 'date' },
} as MarkdownCollection;
/** Newest first by the day a record last changed. */
export const byUpdated = { ...collections.intelligence, order: 'updated' } as MarkdownCollection;
/** By `order`, then title. */
export const byOrder = collections.services;
