/**
 * The route table of CONTRACT.md, shared by the generator (which files to write), the edge handler (which
 * parameters to check, in which order) and the OpenAPI document. Runtime-neutral: no Node, no build-only code.
 */

export const API_VERSION = '1.3.0';

/** The filterable lists and where their allowed values come from in the manifest. */
export type FilterSource = 'categories' | 'industries' | 'technologyCategories' | 'articleTopics';

export type Param =
  | { name: 'limit' | 'offset' | 'count'; kind: 'integer'; min: number; max: number; default: number; description: string }
  | { name: string; kind: 'filter'; source: FilterSource; description: string }
  | { name: 'type'; kind: 'enum'; values: readonly string[]; default: string; description: string }
  | { name: 'id'; kind: 'id'; required: true; description: string }
  | { name: 'q'; kind: 'query'; required: true; maxLength: number; description: string };

export type OperationKind = 'index' | 'list' | 'get' | 'static' | 'latest' | 'search' | 'openapi';

export type CollectionName = 'services' | 'expertise' | 'technology' | 'intelligence';

export interface Operation {
  /** Path under `/v1/`, without slashes at either end ('' for the index). */
  path: string;
  operationId: string;
  summary: string;
  kind: OperationKind;
  /** Query parameters in their documented order: the first wrong one is the one reported. */
  params: readonly Param[];
  /** The collection a list or get route serves. */
  collection?: CollectionName;
  /** Group tag for the OpenAPI document. */
  tag: string;
}

/** Largest `offset` the contract accepts (Number.MAX_SAFE_INTEGER). */
export const MAX_OFFSET = 9007199254740991;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const limit: Param = { name: 'limit', kind: 'integer', min: 1, max: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size.' };
const offset: Param = { name: 'offset', kind: 'integer', min: 0, max: MAX_OFFSET, default: 0, description: 'Number of items to skip.' };
const id: Param = { name: 'id', kind: 'id', required: true, description: 'The record id or slug (case-insensitive).' };

export const SEARCH_TYPES = ['all', 'services', 'expertise', 'intelligence'] as const;

export const operations: readonly Operation[] = [
  { path: '', operationId: 'getIndex', summary: 'Index of operations', kind: 'index', params: [], tag: 'API' },
  {
    path: 'search',
    operationId: 'search',
    summary: 'Natural-language search over services, expertise and articles',
    kind: 'search',
    tag: 'Search',
    params: [
      { name: 'q', kind: 'query', required: true, maxLength: 200, description: 'Natural-language query, 1 to 200 characters after trimming.' },
      { name: 'type', kind: 'enum', values: SEARCH_TYPES, default: 'all', description: 'Narrow the search to one collection.' },
      limit,
      offset,
    ],
  },
  {
    path: 'services/list',
    operationId: 'listServices',
    summary: 'List services',
    kind: 'list',
    collection: 'services',
    tag: 'Services',
    params: [{ name: 'category', kind: 'filter', source: 'categories', description: 'Service category id.' }, limit, offset],
  },
  { path: 'services/get', operationId: 'getService', summary: 'Get service details', kind: 'get', collection: 'services', tag: 'Services', params: [id] },
  { path: 'services/categories', operationId: 'listServiceCategories', summary: 'List service categories', kind: 'static', tag: 'Services', params: [] },
  {
    path: 'expertise/list',
    operationId: 'listExpertise',
    summary: 'List expertise areas',
    kind: 'list',
    collection: 'expertise',
    tag: 'Expertise',
    params: [
      { name: 'category', kind: 'filter', source: 'categories', description: 'Category id.' },
      { name: 'industry', kind: 'filter', source: 'industries', description: 'Industry id.' },
      limit,
      offset,
    ],
  },
  { path: 'expertise/get', operationId: 'getExpertise', summary: 'Get an expertise area', kind: 'get', collection: 'expertise', tag: 'Expertise', params: [id] },
  { path: 'expertise/technologies', operationId: 'listPlatforms', summary: 'Technologies and platforms worked with', kind: 'static', tag: 'Expertise', params: [] },
  { path: 'expertise/industries', operationId: 'listIndustries', summary: 'List industries', kind: 'static', tag: 'Expertise', params: [] },
  {
    path: 'technology/list',
    operationId: 'listTechnologies',
    summary: 'List AI and agentic-commerce technologies',
    kind: 'list',
    collection: 'technology',
    tag: 'Technology',
    params: [{ name: 'category', kind: 'filter', source: 'technologyCategories', description: 'Technology category id.' }, limit, offset],
  },
  { path: 'technology/get', operationId: 'getTechnology', summary: 'Get a technology', kind: 'get', collection: 'technology', tag: 'Technology', params: [id] },
  { path: 'technology/categories', operationId: 'listTechnologyCategories', summary: 'List technology categories', kind: 'static', tag: 'Technology', params: [] },
  { path: 'technology/protocols', operationId: 'listProtocols', summary: 'List open protocols for agentic commerce', kind: 'static', tag: 'Technology', params: [] },
  {
    path: 'intelligence/list',
    operationId: 'listArticles',
    summary: 'List articles',
    kind: 'list',
    collection: 'intelligence',
    tag: 'Intelligence',
    params: [{ name: 'topic', kind: 'filter', source: 'articleTopics', description: 'Topic id, or a category id.' }, limit, offset],
  },
  { path: 'intelligence/get', operationId: 'getArticle', summary: 'Get an article', kind: 'get', collection: 'intelligence', tag: 'Intelligence', params: [id] },
  {
    path: 'intelligence/latest',
    operationId: 'listLatestArticles',
    summary: 'Latest articles',
    kind: 'latest',
    collection: 'intelligence',
    tag: 'Intelligence',
    params: [{ name: 'count', kind: 'integer', min: 1, max: 20, default: 5, description: 'Number of articles.' }],
  },
  { path: 'intelligence/topics', operationId: 'listTopics', summary: 'List article topics', kind: 'static', tag: 'Intelligence', params: [] },
  { path: 'health', operationId: 'getHealth', summary: 'Health check', kind: 'static', tag: 'API', params: [] },
  { path: 'openapi.json', operationId: 'getOpenApi', summary: 'OpenAPI 3.1 description of this API', kind: 'openapi', tag: 'API', params: [] },
];

/** Operations by path, for the handler's O(1) route match. */
export const operationsByPath: ReadonlyMap<string, Operation> = new Map(operations.map((operation) => [operation.path, operation]));

/** The filters of a list operation, in documented order. */
export function filterParams(operation: Operation): Extract<Param, { kind: 'filter' }>[] {
  return operation.params.filter((param): param is Extract<Param, { kind: 'filter' }> => param.kind === 'filter');
}

/** Operations whose `data` is an object rather than an array. */
export function isObjectData(operation: Operation): boolean {
  return operation.kind === 'get' || operation.kind === 'index' || operation.path === 'health';
}
