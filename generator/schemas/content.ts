/** What a content folder holds once loaded and validated, typed from the site's collections table. */
import type { z } from 'zod';
import {
  type AnyEntry,
  type AnyTerm,
  type CollectionTable,
  type EntryMeta,
  type Feed,
  type FeedFields,
  feedSource,
  type ListCollection,
  type MarkdownCollection,
} from './collection-types.ts';
import type { collections } from './collections.ts';

export type Collections = typeof collections;
export type CollectionKey = keyof Collections;
export type MarkdownKey = { [K in CollectionKey]: Collections[K] extends MarkdownCollection ? K : never }[CollectionKey];
export type ListKey = { [K in CollectionKey]: Collections[K] extends ListCollection ? K : never }[CollectionKey];

/** A validated Markdown record. `updated` is always set (articles default it to `date`). */
export type Entry<K extends MarkdownKey> = Omit<z.output<Collections[K]['schema']>, 'id' | 'updated'> & EntryMeta & { updated: string };

/** Everything the content folder holds, validated and typed from the schemas above. */
export type Content = {
  site: z.output<Collections['site']['schema']>;
  /** Absent when the folder has no synonyms.yaml. */
  synonyms?: z.output<Collections['synonyms']['schema']>;
} & { [K in ListKey]: z.output<Collections[K]['schema']>[] } & { [K in MarkdownKey]: Entry<K>[] };

/** A record of the resource feed's collection (a resource, in the site's table), as the feed and the hub read it. */
export type Resource = FeedFields<'resources'> & AnyEntry;

/**
 * Validated content as code that serves any collections table reads it (publication, the catalogue, a test's
 * table): by collection key. The site's `Content` is one; validation makes the records and terms these
 * accessors name, so they are the one place such code narrows a collection's value.
 */
export type ContentByKey = Readonly<Record<string, unknown>>;

/** The records of the Markdown collection `key` (none when the content has no such collection). */
export const entriesOf = (content: ContentByKey, key: string): AnyEntry[] => (content[key] as AnyEntry[] | undefined) ?? [];

/** The terms of the list collection `key`. */
export const termsOf = (content: ContentByKey, key: string): AnyTerm[] => (content[key] as AnyTerm[] | undefined) ?? [];

/**
 * The records of the collection the table flags as `feed`'s source (feedSource), typed by what that flag
 * requires of its schema: validation parsed every one of them with it.
 */
export function feedEntriesOf<F extends Feed>(content: ContentByKey, table: CollectionTable, feed: F): (FeedFields<F> & AnyEntry)[] {
  return entriesOf(content, feedSource(table, feed)) as (FeedFields<F> & AnyEntry)[];
}
