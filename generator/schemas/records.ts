/** Front matter of each Markdown collection. Strict: an unknown field is almost always a typo. */
import { z } from 'zod';
import { date, id, idList, imagePath, readingTimeText, recordFields, text, url } from './fields.ts';
import { RESOURCE_TYPES, TECHNOLOGY_CATEGORY_IDS, TECHNOLOGY_STATUSES } from './vocabulary.ts';

const tags = z.array(id).default([]).describe('Lowercase ids, like "product-feeds".');

export const serviceSchema = z.strictObject({
  ...recordFields,
  updated: date,
  title: text,
  summary: text,
  category: id,
  tags,
  industries: idList.default([]),
  technologies: idList.default([]),
  deliverables: z.array(text).default([]),
});

export const expertiseSchema = z.strictObject({
  ...recordFields,
  updated: date,
  title: text,
  summary: text,
  category: id,
  industries: idList.default([]),
  technologies: idList.default([]),
  tags,
});

export const technologySchema = z.strictObject({
  ...recordFields,
  updated: date,
  name: text,
  summary: text,
  category: z.enum(TECHNOLOGY_CATEGORY_IDS, { error: `must be one of ${TECHNOLOGY_CATEGORY_IDS.join(', ')}` }),
  website: url.optional(),
  spec_url: url.optional(),
  maintainer: text.optional(),
  status: z.enum(TECHNOLOGY_STATUSES, { error: `must be one of ${TECHNOLOGY_STATUSES.join(', ')}` }).optional(),
  open_protocol: z.boolean({ error: 'must be true or false' }).default(false),
  tags,
});

export const articleSchema = z.strictObject({
  ...recordFields,
  /** Defaults to `date` (see the loader). */
  updated: date.optional(),
  title: text,
  summary: text,
  date: date.describe('Publication day. A day after today schedules the article: it goes live by itself on that day.'),
  author: text,
  topics: idList.min(1, { error: 'needs at least one topic' }),
  category: id.optional(),
  image: imagePath.optional(),
  tags,
});

export const resourceSchema = z.strictObject({
  ...recordFields,
  title: text,
  type: z.enum(RESOURCE_TYPES, { error: `must be one of ${RESOURCE_TYPES.join(', ')}` }),
  category: id,
  excerpt: text,
  topics: idList.default([]),
  author: text,
  updated: date,
  image: imagePath,
  reading_time: readingTimeText.optional(),
});
