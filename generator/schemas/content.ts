/** What a content folder holds once loaded and validated, typed from the site's collections table. */
import type { z } from 'zod';
import type { EntryMeta, ListCollection, MarkdownCollection } from './collection-types.ts';
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

export type Resource = Entry<'resources'>;
