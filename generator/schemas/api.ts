/**
 * What the API answers: the records, taxonomies and envelopes. The route builder is typed by these
 * schemas and the OpenAPI document is generated from them, so the two cannot drift.
 */
import { z } from 'zod';
import { WORDS_PER_MINUTE } from '../shared/reading-time.ts';
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

/** What a service or expertise area is related to: its terms, the other practice collection in its category, articles. */
const practiceRelated = (other: 'services' | 'expertise', otherDescription: string) =>
  z.object({
    category: termRef,
    industries: z.array(termRef),
    technologies: z.array(termRef),
    [other]: z.array(recordRef).meta({ description: otherDescription }),
    articles: z.array(recordRef).meta({ description: 'The newest articles in the same category (at most 5).' }),
  });

export const serviceRecord = serviceItem.extend({
  technologies: ids.meta({ description: 'Ids of technologies and platforms used.' }),
  deliverables: z.array(z.string()),
  reading_time: readingTimeText,
  content_html: html,
  related: practiceRelated('expertise', 'Expertise areas in the same category.'),
});

export const expertiseItem = z.object(practiceItemFields);

export const expertiseRecord = expertiseItem.extend({
  technologies: ids,
  reading_time: readingTimeText,
  content_html: html,
  related: practiceRelated('services', 'Services in the same category.'),
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
  related: z.object({
    category: termRef,
    services: z.array(recordRef).meta({ description: 'Services that use this technology.' }),
    expertise: z.array(recordRef).meta({ description: 'Expertise areas that use this technology.' }),
  }),
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
  related: z.object({
    topics: z.array(termRef),
    category: termRef.nullable(),
    articles: z.array(recordRef).meta({ description: 'Up to 3 newer-first articles sharing a topic.' }),
  }),
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
