/**
 * The static resource feed (`SITE_ADDRESSES.resourceFeed`) and the JSON Schema of one entry
 * (`SITE_ADDRESSES.entrySchema`), both addressed on the site URL (docs/api.md "Addresses").
 */
import { z } from 'zod';
import { feedEntrySchema, type Feed } from '../../../schemas/feed.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { feedCategories, feedResources, toFeedEntry } from '../resource-entries.ts';
import { folderAddress, SITE_ADDRESSES } from '../../../shared/site-addresses.ts';

/** The feed is a static document, not a reply to a request, so it always echoes request 1. */
const FEED_REQUEST_ID = 1;

function createFeed(catalogue: Catalogue): Feed {
  const { site, siteUrl } = catalogue;
  const resources = feedResources(catalogue).map((resource) => toFeedEntry(resource, catalogue));
  return {
    jsonrpc: '2.0',
    id: FEED_REQUEST_ID,
    result: {
      version: site.feed_version,
      // With no entries yet, the build day is the honest answer to "when did this feed last change".
      last_updated: resources[0]?.updated ?? catalogue.builtAt.slice(0, 10),
      resources_hub: {
        name: site.hub.name,
        description: site.hub.description,
        url: `${siteUrl}${folderAddress(SITE_ADDRESSES.hub)}`,
        update_frequency: site.hub.update_frequency,
        taxonomy: { types: [...site.resource_types], categories: feedCategories(catalogue).map((category) => category.id) },
        entry_schema: `${siteUrl}/${SITE_ADDRESSES.entrySchema}`,
        feeds: { json: `${siteUrl}/${SITE_ADDRESSES.resourceFeed}` },
      },
      methods: { list: site.hub.list, filter: site.hub.filter },
      resources,
    },
  };
}

type JsonSchema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>>; required?: string[] };

/**
 * The entry schema from `feedEntrySchema`, with `type` and `category` narrowed to this site's taxonomy:
 * those lists live in content, so the zod schema cannot know them.
 */
export function createEntrySchema(catalogue: Catalogue): Record<string, unknown> {
  const generated = z.toJSONSchema(feedEntrySchema, { target: 'draft-2020-12' }) as JsonSchema;
  const { $schema, title, description, ...rest } = generated;
  const { pattern: _idPattern, maxLength: _idLength, ...category } = generated.properties.category ?? {};
  return {
    $schema,
    $id: `${catalogue.siteUrl}/${SITE_ADDRESSES.entrySchema}`,
    title,
    description,
    ...rest,
    properties: {
      ...generated.properties,
      type: { ...generated.properties.type, enum: [...catalogue.site.resource_types] },
      category: { ...category, enum: feedCategories(catalogue).map((term) => term.id) },
    },
    required: Object.keys(generated.properties),
    additionalProperties: false,
  };
}

export function buildFeedFiles(catalogue: Catalogue): OutputFile[] {
  return [
    { path: SITE_ADDRESSES.resourceFeed, body: JSON.stringify(createFeed(catalogue)) },
    { path: SITE_ADDRESSES.entrySchema, body: JSON.stringify(createEntrySchema(catalogue), null, 2) },
  ];
}
