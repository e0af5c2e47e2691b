/**
 * The collections table: every collection of docs/content.md declared once, as data. Where it lives under
 * the content folder, the schema that validates it, which of its fields name records of other collections,
 * how it is ordered, where its pages are, and, for the collections the API serves, its routes, list filters,
 * relations and search fields. Loading, validation, the catalogue, every output, the route table the handler
 * serves and the OpenAPI document all read this table; the code names no collection of its own.
 *
 * The types of a table are in collection-types.ts. The handler does not import this module (zod alone costs about 100 ms of CPU to load, twice the edge's
 * budget for a request): the build writes the route table it derives from here (shared/operations.ts).
 */
import { createOperations, type Operation } from '../shared/operations.ts';
import { SITE_ADDRESSES } from '../shared/site-addresses.ts';
import { apiCollections, type CollectionTable, type ExtraRoute, type OperationNames } from './collection-types.ts';
import * as Api from './api.ts';
import { articleSchema, expertiseSchema, resourceSchema, serviceSchema, technologySchema } from './records.ts';
import { articleRelations, expertiseRelations, serviceRelations, TECHNOLOGIES, technologyRelations } from './relations.ts';
import { siteSchema } from './site.ts';
import { synonymsSchema } from './synonyms.ts';
import { platformSchema, technologyCategorySchema, termSchema } from './taxonomies.ts';
import { TECHNOLOGY_CATEGORY_IDS } from './vocabulary.ts';

const CATEGORY_FILTER = { param: 'category', fields: ['category'], taxonomies: ['categories'], source: 'categories' } as const;

/** A route of a taxonomy's terms, each counted over the published records of these collection fields. */
const termsRoute = (
  names: OperationNames & { path: string },
  taxonomy: string,
  ...counts: [collection: string, field: string][]
): ExtraRoute => ({
  ...names,
  kind: 'terms',
  taxonomy,
  counts: counts.map(([collection, field]) => ({ collection, field })),
});

const practiceReferences = { category: ['categories'], industries: ['industries'], technologies: TECHNOLOGIES } as const;
const practiceSearch = { tags: ['tags'], terms: ['category', 'industries'] } as const;

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
  services: {
    kind: 'markdown',
    name: 'services',
    noun: 'service',
    pattern: 'services/*.md',
    schema: serviceSchema,
    fields: { title: 'title', summary: 'summary' },
    order: 'order',
    page: { path: 'services', key: 'slug', schema: 'Service' },
    references: practiceReferences,
    api: {
      path: 'services',
      label: 'services',
      tag: 'Services',
      about: 'What the agency offers, by practice category.',
      item: Api.serviceItem,
      record: Api.serviceRecord,
      list: { operationId: 'listServices', summary: 'List services' },
      get: { operationId: 'getService', summary: 'Get service details' },
      filters: [{ ...CATEGORY_FILTER, description: 'Service category id.' }],
      relations: serviceRelations,
      routes: [
        termsRoute({ path: 'categories', operationId: 'listServiceCategories', summary: 'List service categories' }, 'categories', [
          'services',
          'category',
        ]),
      ],
      search: practiceSearch,
    },
  },
  expertise: {
    kind: 'markdown',
    name: 'expertise',
    noun: 'expertise area',
    pattern: 'expertise/*.md',
    schema: expertiseSchema,
    fields: { title: 'title', summary: 'summary' },
    order: 'order',
    page: { path: 'expertise', key: 'slug', schema: 'DefinedTerm' },
    references: practiceReferences,
    api: {
      path: 'expertise',
      label: 'expertise',
      tag: 'Expertise',
      about: 'Expertise areas by category and industry, the industries served and the platforms worked with.',
      item: Api.expertiseItem,
      record: Api.expertiseRecord,
      list: { operationId: 'listExpertise', summary: 'List expertise areas' },
      get: { operationId: 'getExpertise', summary: 'Get an expertise area' },
      filters: [
        { ...CATEGORY_FILTER, description: 'Category id.' },
        { param: 'industry', fields: ['industries'], taxonomies: ['industries'], source: 'industries', description: 'Industry id.' },
      ],
      relations: expertiseRelations,
      routes: [
        termsRoute(
          { path: 'technologies', operationId: 'listPlatforms', summary: 'Technologies and platforms worked with' },
          'platforms',
          ['services', 'technologies'],
          ['expertise', 'technologies'],
        ),
        termsRoute({ path: 'industries', operationId: 'listIndustries', summary: 'List industries' }, 'industries', [
          'expertise',
          'industries',
        ]),
      ],
      search: practiceSearch,
    },
  },
  technology: {
    kind: 'markdown',
    name: 'technology',
    noun: 'technology',
    pattern: 'technology/*.md',
    schema: technologySchema,
    fields: { title: 'name', summary: 'summary' },
    order: 'order',
    page: { path: 'technology', key: 'slug', schema: 'SoftwareApplication' },
    api: {
      path: 'technology',
      label: 'technologies',
      tag: 'Technology',
      about: 'AI and agentic-commerce technologies and open protocols (added in 1.3).',
      item: Api.technologyItem,
      record: Api.technologyRecord,
      list: { operationId: 'listTechnologies', summary: 'List AI and agentic-commerce technologies' },
      get: { operationId: 'getTechnology', summary: 'Get a technology' },
      filters: [
        {
          param: 'category',
          fields: ['category'],
          taxonomies: ['technologyCategories'],
          source: 'technologyCategories',
          description: 'Technology category id.',
        },
      ],
      relations: technologyRelations,
      routes: [
        termsRoute(
          { path: 'categories', operationId: 'listTechnologyCategories', summary: 'List technology categories' },
          'technologyCategories',
          ['technology', 'category'],
        ),
        {
          path: 'protocols',
          operationId: 'listProtocols',
          summary: 'List open protocols for agentic commerce',
          kind: 'subset',
          where: { category: 'protocols', open_protocol: true },
        },
      ],
    },
  },
  intelligence: {
    kind: 'markdown',
    name: 'intelligence',
    noun: 'article',
    pattern: 'intelligence/*.md',
    schema: articleSchema,
    fields: { title: 'title', summary: 'summary', date: 'date' },
    feed: 'articles',
    order: 'date',
    page: { path: 'intelligence', key: 'slug', schema: 'Article' },
    references: { topics: ['topics'], category: ['categories'], image: 'images' },
    api: {
      path: 'intelligence',
      label: 'articles',
      tag: 'Intelligence',
      about: 'Published articles, newest first, by topic or category.',
      item: Api.articleItem,
      record: Api.articleRecord,
      list: { operationId: 'listArticles', summary: 'List articles' },
      get: { operationId: 'getArticle', summary: 'Get an article' },
      filters: [
        {
          param: 'topic',
          fields: ['topics', 'category'],
          taxonomies: ['topics', 'categories'],
          source: 'articleTopics',
          description: 'Topic id, or a category id.',
        },
      ],
      relations: articleRelations,
      routes: [
        { path: 'latest', operationId: 'listLatestArticles', summary: 'Latest articles', kind: 'latest', max: 20, default: 5 },
        termsRoute({ path: 'topics', operationId: 'listTopics', summary: 'List article topics' }, 'topics', ['intelligence', 'topics']),
      ],
      search: { tags: ['tags', 'topics'], terms: ['category'] },
    },
  },
  resources: {
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
  },
} as const satisfies CollectionTable;

/** The site's route table (shared/operations.ts), derived from its collections. */
export const operations: readonly Operation[] = createOperations(apiCollections(collections).map(([, collection]) => collection));

export type * from './collection-types.ts';
export { apiCollections, feedSource, markdownCollections } from './collection-types.ts';
