/**
 * The route table of CONTRACT.md: which operations exist, their parameters in documented order, and what
 * kind of answer each gives. The build derives it from the collections table (`createOperations`) and
 * writes it to OPERATIONS_PATH; the handler serves what that file says, and the OpenAPI document
 * describes the same table. Runtime-neutral and free of zod: the handler imports it.
 */

/** Largest `offset` the contract accepts (Number.MAX_SAFE_INTEGER). */
export const MAX_OFFSET = 9007199254740991;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** CONTRACT "Parameters": `q` is 1 to 200 characters after trimming. */
export const MAX_QUERY_LENGTH = 200;

export type Param =
  | { name: string; kind: 'integer'; min: number; max: number; default: number; description: string }
  | { name: string; kind: 'filter'; source: string; description: string }
  | { name: string; kind: 'enum'; values: readonly string[]; default: string; description: string }
  | { name: string; kind: 'id'; required: true; description: string }
  | { name: string; kind: 'query'; required: true; maxLength: number; description: string };

export type OperationKind = 'index' | 'list' | 'get' | 'static' | 'latest' | 'search' | 'openapi';

export interface Operation {
  /** Path under `/v1/`, without slashes at either end ('' for the index). */
  path: string;
  operationId: string;
  summary: string;
  kind: OperationKind;
  /** Query parameters in their documented order: the first wrong one is the one reported. */
  params: readonly Param[];
  /** The collection's API path, on the routes of one collection. */
  collection?: string;
  /** One record of that collection, for a get route's 404 ("No service has the id ..."). */
  noun?: string;
  /** Group tag for the OpenAPI document. */
  tag: string;
}

/** What a collection says about its routes: the plain-data part of its entry in the collections table. */
export interface CollectionRoutes {
  noun: string;
  api: {
    path: string;
    label: string;
    tag: string;
    list: { operationId: string; summary: string };
    get: { operationId: string; summary: string };
    filters: readonly { param: string; source: string; description: string }[];
    routes?: readonly ({ path: string; operationId: string; summary: string } & (
      | { kind: 'terms' | 'subset' }
      | { kind: 'latest'; max: number; default: number }
    ))[];
    search?: unknown;
  };
}

const limit: Param = { name: 'limit', kind: 'integer', min: 1, max: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size.' };
const offset: Param = { name: 'offset', kind: 'integer', min: 0, max: MAX_OFFSET, default: 0, description: 'Number of items to skip.' };
const id: Param = { name: 'id', kind: 'id', required: true, description: 'The record id or slug (case-insensitive).' };

/** `a`, `a and b`, `a, b and c`. */
export const joinWords = (words: readonly string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

function createSearchOperation(searchable: readonly CollectionRoutes[]): Operation {
  return {
    path: 'search',
    operationId: 'search',
    summary: `Natural-language search over ${joinWords(searchable.map(({ api }) => api.label))}`,
    kind: 'search',
    tag: 'Search',
    params: [
      {
        name: 'q',
        kind: 'query',
        required: true,
        maxLength: MAX_QUERY_LENGTH,
        description: `Natural-language query, 1 to ${MAX_QUERY_LENGTH} characters after trimming.`,
      },
      {
        name: 'type',
        kind: 'enum',
        values: ['all', ...searchable.map(({ api }) => api.path)],
        default: 'all',
        description: 'Narrow the search to one collection.',
      },
      limit,
      offset,
    ],
  };
}

/** A collection's list and get routes, then its extra routes in the order the table gives them. */
function createCollectionOperations({ noun, api }: CollectionRoutes): Operation[] {
  const common = { collection: api.path, tag: api.tag };
  const filters = api.filters.map(
    (filter): Param => ({ name: filter.param, kind: 'filter', source: filter.source, description: filter.description }),
  );
  return [
    { path: `${api.path}/list`, ...api.list, kind: 'list', ...common, params: [...filters, limit, offset] },
    { path: `${api.path}/get`, ...api.get, kind: 'get', ...common, noun, params: [id] },
    ...(api.routes ?? []).map(({ path, operationId, summary, ...route }): Operation => {
      const names = { path: `${api.path}/${path}`, operationId, summary, ...common };
      if (route.kind !== 'latest') return { ...names, kind: 'static', params: [] };
      const count: Param = {
        name: 'count',
        kind: 'integer',
        min: 1,
        max: route.max,
        default: route.default,
        description: `Number of ${api.label}.`,
      };
      return { ...names, kind: 'latest', params: [count] };
    }),
  ];
}

/** The whole route table: the index, search, each collection's routes in table order, health, the document. */
export function createOperations(collections: readonly CollectionRoutes[]): Operation[] {
  return [
    { path: '', operationId: 'getIndex', summary: 'Index of operations', kind: 'index', params: [], tag: 'API' },
    createSearchOperation(collections.filter(({ api }) => api.search)),
    ...collections.flatMap(createCollectionOperations),
    { path: 'health', operationId: 'getHealth', summary: 'Health check', kind: 'static', tag: 'API', params: [] },
    {
      path: 'openapi.json',
      operationId: 'getOpenApi',
      summary: 'OpenAPI 3.1 description of this API',
      kind: 'openapi',
      tag: 'API',
      params: [],
    },
  ];
}

/** The filters of a list operation, in documented order. */
export function filterParams(operation: Operation): Extract<Param, { kind: 'filter' }>[] {
  return operation.params.filter((param): param is Extract<Param, { kind: 'filter' }> => param.kind === 'filter');
}

/** Operations whose `data` is an object rather than an array. */
export function isObjectData(operation: Operation): boolean {
  return operation.kind === 'get' || operation.kind === 'index' || operation.path === 'health';
}
