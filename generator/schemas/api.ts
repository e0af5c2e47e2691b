/**
 * What the API answers: the records, taxonomies and envelopes. The route builder is typed by these
 * schemas and the OpenAPI document is generated from them, so the two cannot drift.
 */
import { z } from 'zod';
import { WORDS_PER_MINUTE } from '../shared/reading-time.ts';
import type { Relation } from './collection-types.ts';
import { articleSchema, expertiseSchema, serviceSchema, technologySchema } from './records.ts';
import { articleRelations, expertiseRelations, serviceRelations, technologyRelations } from './relations.ts';
import { TECHNOLOGY_CATEGORY_IDS, TECHNOLOGY_STATUSES } from './vocabulary.ts';

const id = z
  .string()
  .meta({ description: 'Stable identifier, lowercase letters, digits and hyphens.', example: 'agentic-storefront-build' });
const slug = z.string().meta({ description: 'URL slug (the source file name).' });
const url = z.string().meta({ description: 'Absolute address of the record on the site.' });
const day = z.string().meta({ description: 'Date, YYYY-MM-DD.', example: '2026-05-12' });
const ids = z.array(z.string());
const html = z.string().meta({ description: 'The body rendered to HTML; raw HTML in the source is escaped, so it is safe to embed.' });
const readingTimeText = z
  .string()
  .meta({ description: `Estimated reading time, "<n> min read" (${WORDS_PER_MINUTE} words a minute).`, example: '4 min read' });

/** A related taxonomy term. */
export const termRef = z.object({ id, name: z.string() });
/** A related record: enough to show a link. */
export const recordRef = z.object({ id, title: z.string(), url });

/**
 * A record's `related` schema, derived from its collection's relations (schemas/relations.ts), in their
 * order: a term, or null when the record's own field may be empty (`source`, its front matter, accepts none);
 * terms; records.
 */
export function relatedSchema(relations: Readonly<Record<string, Relation>>, source: z.ZodObject) {
  const field = (relation: Relation): z.ZodType => {
    if (relation.kind === 'term') return source.shape[relation.field]!.safeParse(undefined).success ? termRef.nullable() : termRef;
    return z.array(relation.kind === 'terms' ? termRef : recordRef);
  };
  return z.object(
    Object.fromEntries(
      Object.entries(relations).map(([name, relation]) => {
        const schema = field(relation);
        return [name, relation.description ? schema.meta({ description: relation.description }) : schema];
      }),
    ),
  );
}

/** Services and expertise areas list the same summary fields. */
const practiceItemFields = {
  id,
  slug,
  title: z.string(),
  summary: z.string(),
  category: z.string().meta({ description: 'Category id (see services/categories).' }),
  industries: ids.meta({ description: 'Industry ids (see expertise/industries).' }),
  tags: ids,
  url,
  updated: day,
};

export const serviceItem = z.object(practiceItemFields);

export const serviceRecord = serviceItem.extend({
  technologies: ids.meta({ description: 'Ids of technologies and platforms used.' }),
  deliverables: z.array(z.string()),
  reading_time: readingTimeText,
  content_html: html,
  related: relatedSchema(serviceRelations, serviceSchema),
});

export const expertiseItem = z.object(practiceItemFields);

export const expertiseRecord = expertiseItem.extend({
  technologies: ids,
  reading_time: readingTimeText,
  content_html: html,
  related: relatedSchema(expertiseRelations, expertiseSchema),
});

export const technologyItem = z.object({
  id,
  slug,
  name: z.string(),
  summary: z.string(),
  category: z.enum(TECHNOLOGY_CATEGORY_IDS),
  status: z.enum(TECHNOLOGY_STATUSES).nullable(),
  open_protocol: z.boolean(),
  maintainer: z.string().nullable(),
  website: z.string().nullable(),
  spec_url: z.string().nullable(),
  tags: ids,
  url,
  updated: day,
});

export const technologyRecord = technologyItem.extend({
  reading_time: readingTimeText,
  content_html: html,
  related: relatedSchema(technologyRelations, technologySchema),
});

export const articleItem = z.object({
  id,
  slug,
  title: z.string(),
  summary: z.string(),
  date: day.meta({ description: 'Publication date, YYYY-MM-DD.' }),
  updated: day,
  author: z.string(),
  topics: ids.meta({ description: 'Topic ids (see intelligence/topics).' }),
  category: z.string().nullable(),
  tags: ids,
  image: z.string().nullable().meta({ description: 'Absolute address of the hero image.' }),
  reading_time: readingTimeText,
  url,
});

export const articleRecord = articleItem.extend({
  content_html: html,
  related: relatedSchema(articleRelations, articleSchema),
});

/** Categories, industries, topics and technology categories. */
export const termItem = z.object({
  id,
  name: z.string(),
  description: z.string(),
  count: z.number().int().meta({ description: 'Published records of this route that use the term.' }),
});

export const platformItem = z.object({
  id,
  name: z.string(),
  kind: z.string().meta({ description: 'What sort of platform, e.g. commerce-platform, analytics.' }),
  website: z.string().nullable(),
  count: z.number().int().meta({ description: 'Published services and expertise areas that use it.' }),
});

export const healthData = z.object({
  status: z.literal('healthy'),
  version: z.string(),
  resources: z.array(z.string()),
  built_at: z.string().meta({ description: 'When the data was built, ISO 8601 UTC.' }),
  records: z.record(z.string(), z.number().int()).meta({ description: 'Published records per resource group.' }),
});

export const searchResult = z.object({
  /** One of the searchable collections (the OpenAPI document lists them, from the collections table). */
  type: z.string(),
  id,
  slug,
  title: z.string(),
  summary: z.string(),
  url,
  score: z.number().meta({ description: 'Relevance, greater than 0, rounded to 4 decimals.' }),
});

export const indexData = z.object({
  name: z.string(),
  version: z.string(),
  documentation: z.string(),
  openapi: z.string(),
  resource_feed: z.string(),
  operations: z.array(
    z.object({ path: z.string(), url: z.string(), method: z.literal('GET'), summary: z.string(), parameters: z.array(z.string()) }),
  ),
});

export type ServiceItem = z.output<typeof serviceItem>;
export type HealthData = z.output<typeof healthData>;
export type SearchResult = z.output<typeof searchResult>;
export type IndexData = z.output<typeof indexData>;
export type RecordRef = z.output<typeof recordRef>;
export type TermRef = z.output<typeof termRef>;
