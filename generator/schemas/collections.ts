/**
 * The collections table: every collection of CONTENT-MODEL.md declared once, as data. Where it lives under
 * the content folder, the schema that validates it, which of its fields name records of other collections,
 * how it is ordered, where its pages are, and, for the collections the API serves, its routes, list filters,
 * relations and search fields. Loading, validation, the catalogue, every output, the route table the handler
 * serves and the OpenAPI document all read this table; the code names no collection of its own.
 *
 * The handler does not import this module (zod alone costs about 100 ms of CPU to load, twice the edge's
 * budget for a request): the build writes the route table it derives from here (shared/operations.ts).
 */
import type { z } from 'zod';
import { createOperations, type Operation } from '../shared/operations.ts';
import * as Api from './api.ts';
import { articleSchema, expertiseSchema, resourceSchema, serviceSchema, technologySchema } from './records.ts';
import { siteSchema } from './site.ts';
import { platformSchema, technologyCategorySchema, termSchema } from './taxonomies.ts';
import { TECHNOLOGY_CATEGORY_IDS } from './vocabulary.ts';

/** One YAML document (site.yaml). */
export interface DocumentCollection<S extends z.ZodType = z.ZodType> {
  kind: 'document';
  name: string;
  file: string;
  schema: S;
}

/** A YAML file holding a list of small records (terms), each with an `id`. */
export interface ListCollection<S extends z.ZodType = z.ZodType> {
  kind: 'list';
  name: string;
  /** One record, in problem messages: "unknown category". */
  noun: string;
  file: string;
  schema: S;
  /** How a term of this list is answered by a taxonomy route (its keys, in order; `count` is derived). */
  item: z.ZodObject;
  /** The ids the list must hold, when the content model fixes them. */
  exactly?: readonly string[];
}

/**
 * Where a reference field's ids must exist: the ids of these collections, a file under `images/`, or a
 * list in site.yaml.
 */
export type Reference = readonly string[] | 'images' | `site.${string}`;

/** Records in contract order: `order` then title; newest `date` first; newest `updated` first. */
export type RecordOrder = 'order' | 'date' | 'updated';

/** A list filter: the query parameter, the record fields it matches and the taxonomies its values come from. */
export interface FilterSpec {
  param: string;
  /** An item matches when one of these fields is the value or, for a list, holds it. */
  fields: readonly string[];
  /** Allowed values: these taxonomies' ids, in order, each once. */
  taxonomies: readonly string[];
  /** The name the allowed values go under in the manifest; filters with the same values share it. */
  source: string;
  description: string;
}

/** A field of a get route's `related` object, computed from the catalogue. */
export type Relation =
  /** The term one field names, `{ id, name }` (null when the field is empty). */
  | { kind: 'term'; field: string; taxonomies: readonly string[] }
  /** The terms a list field names. */
  | { kind: 'terms'; field: string; taxonomies: readonly string[] }
  /** Records of `collection` whose `field` has this record's value of the same field. */
  | { kind: 'same'; collection: string; field: string; max?: number }
  /** Records of `collection` whose list `field` holds this record's id. */
  | { kind: 'referencing'; collection: string; field: string }
  /** Other records of this collection that share a value of the list `field`, in collection order. */
  | { kind: 'sharing'; field: string; max: number };

/** The names of an operation in the OpenAPI document. */
export interface OperationNames {
  operationId: string;
  summary: string;
}

/** A route beside a collection's list and get. */
export type ExtraRoute = OperationNames & { path: string } & (
    /** A taxonomy's terms with the number of published records that use each. */
    | { kind: 'terms'; taxonomy: string; counts: readonly { collection: string; field: string }[] }
    /** The collection's items whose fields have these values. */
    | { kind: 'subset'; where: Readonly<Record<string, string | boolean>> }
    /** The first `count` items (1 to `max`, default `default`). */
    | { kind: 'latest'; max: number; default: number }
  );

/** What the API serves of a collection. */
export interface ApiSpec {
  /** Routes live under `/v1/<path>/`: `list`, `get` and the extra routes. */
  path: string;
  /** What a list of these records is called in prose ("search over services, expertise and articles"). */
  label: string;
  /** The OpenAPI tag of its operations. */
  tag: string;
  /** A list item and a get route's record; their keys, in order, are the answer's keys. */
  item: z.ZodObject;
  record: z.ZodObject;
  list: OperationNames;
  get: OperationNames;
  filters: readonly FilterSpec[];
  relations?: Readonly<Record<string, Relation>>;
  routes?: readonly ExtraRoute[];
  /** Searchable: `tags` fields are indexed as they are, `terms` fields by the names of the terms they hold. */
  search?: { tags: readonly string[]; terms: readonly string[] };
}

/** One Markdown file per record; the file name is the slug. */
export interface MarkdownCollection<S extends z.ZodType = z.ZodType> {
  kind: 'markdown';
  name: string;
  /** One record: "No service has the id", "unknown technology". */
  noun: string;
  pattern: string;
  schema: S;
  /** The field that names a record: `title`, or `name` for technologies. */
  titleField: string;
  order: RecordOrder;
  /** A record's page, `{site_url}/<path>/<slug or id>/`: its `url`. */
  page: { path: string; key: 'slug' | 'id' };
  /** Fields that hold ids of other collections, checked in this order. */
  references?: Readonly<Record<string, Reference>>;
  api?: ApiSpec;
}

export type Collection = DocumentCollection | ListCollection | MarkdownCollection;

/** A collections table: the site's own (below), or a test's with one more. */
export type CollectionTable = Readonly<Record<string, Collection>>;

const sameCategory = (collection: string, max?: number): Relation => ({ kind: 'same', collection, field: 'category', ...(max ? { max } : {}) });
const CATEGORY_FILTER = { param: 'category', fields: ['category'], taxonomies: ['categories'], source: 'categories' } as const;
const TECHNOLOGIES = ['technology', 'platforms'] as const;

/** Relations of services and expertise areas, which differ only in which other practice collection they list. */
const practiceRelations = (other: 'services' | 'expertise') => ({
  category: { kind: 'term', field: 'category', taxonomies: ['categories'] },
  industries: { kind: 'terms', field: 'industries', taxonomies: ['industries'] },
  technologies: { kind: 'terms', field: 'technologies', taxonomies: TECHNOLOGIES },
  [other]: sameCategory(other),
  articles: sameCategory('intelligence', 5),
}) satisfies Record<string, Relation>;

const practiceReferences = { category: ['categories'], industries: ['industries'], technologies: TECHNOLOGIES } as const;
const practiceSearch = { tags: ['tags'], terms: ['category', 'industries'] } as const;

export const collections = {
  site: { kind: 'document', name: 'site', file: 'site.yaml', schema: siteSchema },
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
    titleField: 'title',
    order: 'order',
    page: { path: 'services', key: 'slug' },
    references: practiceReferences,
    api: {
      path: 'services',
      label: 'services',
      tag: 'Services',
      item: Api.serviceItem,
      record: Api.serviceRecord,
      list: { operationId: 'listServices', summary: 'List services' },
      get: { operationId: 'getService', summary: 'Get service details' },
      filters: [{ ...CATEGORY_FILTER, description: 'Service category id.' }],
      relations: practiceRelations('expertise'),
      routes: [
        {
          path: 'categories',
          operationId: 'listServiceCategories',
          summary: 'List service categories',
          kind: 'terms',
          taxonomy: 'categories',
          counts: [{ collection: 'services', field: 'category' }],
        },
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
    titleField: 'title',
    order: 'order',
    page: { path: 'expertise', key: 'slug' },
    references: practiceReferences,
    api: {
      path: 'expertise',
      label: 'expertise',
      tag: 'Expertise',
      item: Api.expertiseItem,
      record: Api.expertiseRecord,
      list: { operationId: 'listExpertise', summary: 'List expertise areas' },
      get: { operationId: 'getExpertise', summary: 'Get an expertise area' },
      filters: [
        { ...CATEGORY_FILTER, description: 'Category id.' },
        { param: 'industry', fields: ['industries'], taxonomies: ['industries'], source: 'industries', description: 'Industry id.' },
      ],
      relations: practiceRelations('services'),
      routes: [
        {
          path: 'technologies',
          operationId: 'listPlatforms',
          summary: 'Technologies and platforms worked with',
          kind: 'terms',
          taxonomy: 'platforms',
          counts: [
            { collection: 'services', field: 'technologies' },
            { collection: 'expertise', field: 'technologies' },
          ],
        },
        {
          path: 'industries',
          operationId: 'listIndustries',
          summary: 'List industries',
          kind: 'terms',
          taxonomy: 'industries',
          counts: [{ collection: 'expertise', field: 'industries' }],
        },
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
    titleField: 'name',
    order: 'order',
    page: { path: 'technology', key: 'slug' },
    api: {
      path: 'technology',
      label: 'technologies',
      tag: 'Technology',
      item: Api.technologyItem,
      record: Api.technologyRecord,
      list: { operationId: 'listTechnologies', summary: 'List AI and agentic-commerce technologies' },
      get: { operationId: 'getTechnology', summary: 'Get a technology' },
      filters: [
        { param: 'category', fields: ['category'], taxonomies: ['technologyCategories'], source: 'technologyCategories', description: 'Technology category id.' },
      ],
      relations: {
        category: { kind: 'term', field: 'category', taxonomies: ['technologyCategories'] },
        services: { kind: 'referencing', collection: 'services', field: 'technologies' },
        expertise: { kind: 'referencing', collection: 'expertise', field: 'technologies' },
      },
      routes: [
        {
          path: 'categories',
          operationId: 'listTechnologyCategories',
          summary: 'List technology categories',
          kind: 'terms',
          taxonomy: 'technologyCategories',
          counts: [{ collection: 'technology', field: 'category' }],
        },
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
    titleField: 'title',
    order: 'date',
    page: { path: 'intelligence', key: 'slug' },
    references: { topics: ['topics'], category: ['categories'], image: 'images' },
    api: {
      path: 'intelligence',
      label: 'articles',
      tag: 'Intelligence',
      item: Api.articleItem,
      record: Api.articleRecord,
      list: { operationId: 'listArticles', summary: 'List articles' },
      get: { operationId: 'getArticle', summary: 'Get an article' },
      filters: [
        { param: 'topic', fields: ['topics', 'category'], taxonomies: ['topics', 'categories'], source: 'articleTopics', description: 'Topic id, or a category id.' },
      ],
      relations: {
        topics: { kind: 'terms', field: 'topics', taxonomies: ['topics'] },
        category: { kind: 'term', field: 'category', taxonomies: ['categories'] },
        articles: { kind: 'sharing', field: 'topics', max: 3 },
      },
      routes: [
        { path: 'latest', operationId: 'listLatestArticles', summary: 'Latest articles', kind: 'latest', max: 20, default: 5 },
        {
          path: 'topics',
          operationId: 'listTopics',
          summary: 'List article topics',
          kind: 'terms',
          taxonomy: 'topics',
          counts: [{ collection: 'intelligence', field: 'topics' }],
        },
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
    titleField: 'title',
    order: 'updated',
    page: { path: 'resources', key: 'id' },
    references: { category: ['categories'], type: 'site.resource_types', image: 'images' },
  },
} as const satisfies CollectionTable;

export type Collections = typeof collections;
export type CollectionKey = keyof Collections;
export type MarkdownKey = { [K in CollectionKey]: Collections[K] extends MarkdownCollection ? K : never }[CollectionKey];
export type ListKey = { [K in CollectionKey]: Collections[K] extends ListCollection ? K : never }[CollectionKey];

/** What the loader adds to a Markdown record's front matter. */
export interface EntryMeta {
  /** Defaults to the slug. */
  id: string;
  /** The file name without `.md`. */
  slug: string;
  /** Markdown after the front matter. */
  body: string;
  /** Path relative to the content folder, with `/`. */
  file: string;
}

/** A validated Markdown record. `updated` is always set (articles default it to `date`). */
export type Entry<K extends MarkdownKey> = Omit<z.output<Collections[K]['schema']>, 'id' | 'updated'> & EntryMeta & { updated: string };

/** A record of any Markdown collection, for code that reads fields by the table's names. */
export type AnyEntry = EntryMeta & { updated: string; order?: number; draft?: boolean } & Record<string, unknown>;

/** A term of any list collection. */
export type AnyTerm = { id: string; name: string; order: number } & Record<string, unknown>;

/** Everything the content folder holds, validated and typed from the schemas above. */
export type Content = {
  site: z.output<Collections['site']['schema']>;
} & { [K in ListKey]: z.output<Collections[K]['schema']>[] } & { [K in MarkdownKey]: Entry<K>[] };

export type Resource = Entry<'resources'>;

/** The Markdown collections of a table, with their keys, in table order. */
export function markdownCollections(table: CollectionTable): [string, MarkdownCollection][] {
  return Object.entries(table).filter((entry): entry is [string, MarkdownCollection] => entry[1].kind === 'markdown');
}

/** A Markdown collection the API serves. */
export type ApiCollection = MarkdownCollection & { api: ApiSpec };

/** The collections the API serves, with their keys, in table order (the order of routes and of health's `resources`). */
export function apiCollections(table: CollectionTable): [string, ApiCollection][] {
  return markdownCollections(table).filter((entry): entry is [string, ApiCollection] => entry[1].api !== undefined);
}

/** The site's route table (shared/operations.ts), derived from its collections. */
export const operations: readonly Operation[] = createOperations(apiCollections(collections).map(([, collection]) => collection));
