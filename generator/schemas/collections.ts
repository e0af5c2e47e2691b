/**
 * The collections table: every collection of docs/content.md declared once, as data. Where it lives under
 * the content folder, the schema that validates it, which of its fields name records of other collections,
 * how it is ordered, where its pages are, and, for the collections the API serves, its routes, list filters,
 * relations and search fields. Loading, validation, the catalogue, every output, the route table the handler
 * serves and the OpenAPI document all read this table; the code names no collection of its own.
 *
 * Each Markdown collection is declared in a file of its own under collections/; the YAML files (the site,
 * synonyms and the taxonomies' lists) are one line each, here. The key order is the table's order: of
 * validation, of routes, of health's `resources`. The types of a table are in collection-types.ts.
 *
 * The handler does not import this module (zod alone costs about 100 ms of CPU to load, twice the edge's
 * budget for a request): the build writes the route table it derives from here (shared/operations.ts).
 */
import { createOperations, type Operation } from '../shared/operations.ts';
import { apiCollections, type CollectionTable } from './collection-types.ts';
import * as Api from './api.ts';
import { expertise } from './collections/expertise.ts';
import { intelligence } from './collections/intelligence.ts';
import { resources } from './collections/resources.ts';
import { services } from './collections/services.ts';
import { technology } from './collections/technology.ts';
import { siteSchema } from './site.ts';
import { synonymsSchema } from './synonyms.ts';
import { platformSchema, technologyCategorySchema, termSchema } from './taxonomies.ts';
import { TECHNOLOGY_CATEGORY_IDS } from './vocabulary.ts';

export const collections = {
  site: { kind: 'document', name: 'site', file: 'site.yaml', schema: siteSchema },
  synonyms: { kind: 'document', name: 'synonyms', file: 'synonyms.yaml', schema: synonymsSchema, optional: true },
  categories: { kind: 'list', name: 'categories', noun: 'category', file: 'categories.yaml', schema: termSchema, item: Api.termItem },
  industries: { kind: 'list', name: 'industries', noun: 'industry', file: 'industries.yaml', schema: termSchema, item: Api.termItem },
  platforms: { kind: 'list', name: 'platforms', noun: 'platform', file: 'platforms.yaml', schema: platformSchema, item: Api.platformItem },
  technologyCategories: {
    kind: 'list',
    name: 'technology categories',
    noun: 'technology category',
    file: 'technology/categories.yaml',
    schema: technologyCategorySchema,
    item: Api.termItem,
    exactly: TECHNOLOGY_CATEGORY_IDS,
  },
  topics: { kind: 'list', name: 'topics', noun: 'topic', file: 'intelligence/topics.yaml', schema: termSchema, item: Api.termItem },
  services,
  expertise,
  technology,
  intelligence,
  resources,
} as const satisfies CollectionTable;

/** The site's route table (shared/operations.ts), derived from its collections. */
export const operations: readonly Operation[] = createOperations(apiCollections(collections).map(([, collection]) => collection));

export type * from './collection-types.ts';
export { apiCollections, feedSource, markdownCollections } from './collection-types.ts';
