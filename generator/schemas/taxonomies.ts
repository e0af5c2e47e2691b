/** The YAML lists that classify records: categories, industries, topics, technology categories, platforms. */
import { z } from 'zod';
import { id, order, text, url } from './fields.ts';
import { TECHNOLOGY_CATEGORY_IDS } from './vocabulary.ts';

/** Categories, industries and topics share one shape. */
export const termSchema = z.strictObject({
  id,
  name: text,
  description: text,
  order,
});

export const technologyCategorySchema = termSchema.extend({
  id: z.enum(TECHNOLOGY_CATEGORY_IDS),
});

export const platformSchema = z.strictObject({
  id,
  name: text,
  kind: id,
  website: url.optional(),
  order,
});

export type Term = z.output<typeof termSchema>;
