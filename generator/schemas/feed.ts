/**
 * The resource feed (spec "Resource feed document"): one entry per published resource, inside a
 * JSON-RPC 2.0 style response. Entry fields reuse the front-matter rules of `resourceSchema`, so an
 * entry can never promise less than the content was validated against.
 */
import { z } from 'zod';
import { id, url } from './fields.ts';
import { resourceSchema } from './records.ts';
import { folderAddress, SITE_ADDRESSES } from '../shared/site-addresses.ts';

const from = resourceSchema.shape;
const HUB = folderAddress(SITE_ADDRESSES.hub);

/** Plain strings, not enums: the allowed ids come from content, and the feed output (pipeline/outputs/feed/feed-files.ts) pins them in the published schema. */
export const feedEntrySchema = z
  .strictObject({
    id: id.meta({ description: 'Slug of the entry, unique in the feed.', examples: ['agentic-checkout-readiness-checklist'] }),
    type: from.type.meta({ description: 'Kind of resource, one of result.resources_hub.taxonomy.types.' }),
    title: from.title.meta({ description: 'Title of the resource.' }),
    category: from.category.meta({ description: 'Practice category id, one of result.resources_hub.taxonomy.categories.' }),
    url: url.meta({ description: `Absolute address of the entry page, {site_url}${HUB}<id>/.` }),
    excerpt: from.excerpt.meta({ description: 'Short plain-text summary.' }),
    // The front matter defaults topics to []; an entry always states them, so the default is dropped.
    topics: from.topics.unwrap().meta({ description: 'Topic tags, lowercase ids.' }),
    reading_time: from.reading_time.unwrap().meta({ description: 'Estimated reading time, "<n> min read".', examples: ['6 min read'] }),
    author: from.author.meta({ description: 'Name of the author.' }),
    // The front-matter `date` accepts YAML dates and transforms them; the feed only ever holds the string form.
    updated: z.iso.date().meta({ description: 'Date of the last substantive update, YYYY-MM-DD.', examples: ['2026-05-12'] }),
    image: from.image.meta({ description: 'Site-relative path of the hero image.', examples: ['/images/resources/guide.svg'] }),
  })
  .meta({ title: 'Resource feed entry', description: 'One entry of result.resources in the resource feed.' });

const hubSchema = z.strictObject({
  name: z.string().meta({ description: 'Name of the resources hub.' }),
  description: z.string().meta({ description: 'What the hub offers.' }),
  url: url.meta({ description: `Address of the resources page, {site_url}${HUB}.` }),
  update_frequency: z.string().meta({ description: 'How often entries are added, in words.' }),
  taxonomy: z.strictObject({
    types: z.array(z.string()).meta({ description: 'Allowed entry types.' }),
    categories: z.array(id).meta({ description: 'Allowed entry categories, in display order.' }),
  }),
  entry_schema: url.meta({ description: 'Address of the JSON Schema of one entry.' }),
  feeds: z.strictObject({ json: url.meta({ description: 'Address of this feed.' }) }),
});

/** The whole feed document. */
export const feedSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: z.int().meta({ description: 'Request identifier echoed.' }),
  result: z.strictObject({
    version: z
      .string()
      .regex(/^\d+\.\d+$/)
      .meta({ description: 'Feed version, <major>.<minor>.' }),
    last_updated: z.iso.date().meta({ description: "The newest entry's updated date, YYYY-MM-DD." }),
    resources_hub: hubSchema,
    methods: z.strictObject({
      list: z.string().meta({ description: 'How to list the entries.' }),
      filter: z.string().meta({ description: 'How to filter the entries.' }),
    }),
    resources: z.array(feedEntrySchema).meta({ description: 'The entries, newest updated first, then by id.' }),
  }),
});

export type FeedEntry = z.output<typeof feedEntrySchema>;

/**
 * What the resource feed and the hub read of each record of the collection the table flags as the feed's,
 * by name: the front matter its entries copy. The table's type holds that collection's schema to it.
 */
export type ResourceFeedFields = Pick<
  z.output<typeof resourceSchema>,
  'title' | 'type' | 'category' | 'excerpt' | 'topics' | 'reading_time' | 'author' | 'updated' | 'image'
>;
export type Feed = z.output<typeof feedSchema>;
