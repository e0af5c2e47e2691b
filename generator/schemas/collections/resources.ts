/** Resources (content/resources/*.md): guides, templates, checklists and reports, the source of the resource feed and the hub; the API does not serve them. */
import { SITE_ADDRESSES } from '../../shared/site-addresses.ts';
import type { MarkdownCollection } from '../collection-types.ts';
import { resourceSchema } from '../records.ts';

export const resources = {
  kind: 'markdown',
  name: 'resources',
  noun: 'resource',
  pattern: 'resources/*.md',
  schema: resourceSchema,
  fields: { title: 'title', summary: 'excerpt' },
  feed: 'resources',
  order: 'updated',
  // The resources' pages are the hub's: the hub lists them, each at its id below it.
  page: { path: SITE_ADDRESSES.hub, key: 'id' },
  references: { category: ['categories'], type: 'site.resource_types', image: 'images' },
} as const satisfies MarkdownCollection;
