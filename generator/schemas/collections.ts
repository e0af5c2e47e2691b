/**
 * The collections of CONTENT-MODEL.md, declared as data: where each lives under the content folder and
 * which schema validates it. Loading, validation and the TypeScript types all read from here.
 */
import type { z } from 'zod';
import { siteSchema } from './site.ts';
import { platformSchema, technologyCategorySchema, termSchema } from './taxonomies.ts';
import { articleSchema, expertiseSchema, resourceSchema, serviceSchema, technologySchema } from './records.ts';

/** One YAML document (site.yaml). */
export interface DocumentCollection<S extends z.ZodType = z.ZodType> {
  kind: 'document';
  name: string;
  file: string;
  schema: S;
}

/** A YAML file holding a list of small records, each with an `id`. */
export interface ListCollection<S extends z.ZodType = z.ZodType> {
  kind: 'list';
  name: string;
  file: string;
  schema: S;
}

/** One Markdown file per record; the file name is the slug. */
export interface MarkdownCollection<S extends z.ZodType = z.ZodType> {
  kind: 'markdown';
  name: string;
  pattern: string;
  schema: S;
}

export type Collection = DocumentCollection | ListCollection | MarkdownCollection;

export const collections = {
  site: { kind: 'document', name: 'site', file: 'site.yaml', schema: siteSchema },
  categories: { kind: 'list', name: 'categories', file: 'categories.yaml', schema: termSchema },
  industries: { kind: 'list', name: 'industries', file: 'industries.yaml', schema: termSchema },
  platforms: { kind: 'list', name: 'platforms', file: 'platforms.yaml', schema: platformSchema },
  technologyCategories: {
    kind: 'list',
    name: 'technology categories',
    file: 'technology/categories.yaml',
    schema: technologyCategorySchema,
  },
  topics: { kind: 'list', name: 'topics', file: 'intelligence/topics.yaml', schema: termSchema },
  services: { kind: 'markdown', name: 'services', pattern: 'services/*.md', schema: serviceSchema },
  expertise: { kind: 'markdown', name: 'expertise', pattern: 'expertise/*.md', schema: expertiseSchema },
  technology: { kind: 'markdown', name: 'technology', pattern: 'technology/*.md', schema: technologySchema },
  intelligence: { kind: 'markdown', name: 'intelligence', pattern: 'intelligence/*.md', schema: articleSchema },
  resources: { kind: 'markdown', name: 'resources', pattern: 'resources/*.md', schema: resourceSchema },
} as const satisfies Record<string, Collection>;

export type Collections = typeof collections;
export type CollectionKey = keyof Collections;
export type MarkdownKey = { [K in CollectionKey]: Collections[K] extends MarkdownCollection ? K : never }[CollectionKey];
export type ListKey = { [K in CollectionKey]: Collections[K] extends ListCollection ? K : never }[CollectionKey];

/** What the loader adds to a Markdown record's front matter. */
export interface EntryMeta {
  /** Defaults to the slug. */
  id: string;
  /** The file name without `.md`. */
  slug: string;
  /** Markdown after the front matter. */
  body: string;
  /** Path relative to the content folder, with `/`. */
  file: string;
}

/** A validated Markdown record. `updated` is always set (articles default it to `date`). */
export type Entry<K extends MarkdownKey> = Omit<z.output<Collections[K]['schema']>, 'id' | 'updated'> &
  EntryMeta & { updated: string };

/** Everything the content folder holds, validated and typed from the schemas above. */
export type Content = {
  site: z.output<Collections['site']['schema']>;
} & { [K in ListKey]: z.output<Collections[K]['schema']>[] } & { [K in MarkdownKey]: Entry<K>[] };

export type Service = Entry<'services'>;
export type Expertise = Entry<'expertise'>;
export type Technology = Entry<'technology'>;
export type Article = Entry<'intelligence'>;
export type Resource = Entry<'resources'>;
