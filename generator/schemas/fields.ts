/** Field schemas shared by every collection, so a rule (what an id is, what a date is) is written once. */
import { z } from 'zod';
import { READING_TIME_PATTERN } from '../shared/reading-time.ts';

const CONTENT_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A lowercase id or slug: letters, digits and single hyphens. */
export const id = z
  .string({ error: 'must be a string' })
  .regex(CONTENT_ID_PATTERN, { error: 'must be lowercase letters, digits and single hyphens, like "paid-media"' })
  .max(128, { error: 'must be at most 128 characters' });

/** A list of ids; duplicates are almost always a copy-paste slip, so they are refused. */
export const idList = z.array(id).refine((list) => new Set(list).size === list.length, {
  error: 'lists an id twice',
});

export const text = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });

export const order = z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).default(1000);

export const url = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) address' });

/** True when `value` (YYYY-MM-DD) names a real calendar day (2025-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/**
 * A calendar date as `YYYY-MM-DD`. YAML parses an unquoted date into a `Date` while a quoted one stays
 * a string; editors write both, so both are accepted and normalised to the string form.
 */
export const date = z
  .union([z.string(), z.date()], { error: 'must be a date written YYYY-MM-DD' })
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .refine((value) => DATE_PATTERN.test(value) && isCalendarDay(value), {
    error: 'must be a date written YYYY-MM-DD',
  });

/** A reading time as the front matter may state one, in place of the estimate from the body: `<n> min read`. */
export const readingTimeText = z.string().regex(READING_TIME_PATTERN, { error: 'must read "<n> min read", like "6 min read"' });

/** A site-relative image path under /images/; the validator checks that the file exists. */
export const imagePath = z
  .string({ error: 'must be a string' })
  .regex(/^\/images\/(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.(?:svg|png|jpe?g|webp|avif|gif)$/, {
    error: 'must be a site-relative image path like "/images/resources/guide.svg"',
  });

/** Fields every Markdown record shares (docs/content.md "Fields every Markdown record has"). */
export const recordFields = {
  id: id.optional().describe('Defaults to the file name (the slug). Lowercase letters, digits and single hyphens.'),
  order: order.describe('Position in lists: lower comes first.'),
  draft: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe('A draft is never published; `npm run dev -- --drafts` previews it.'),
};
