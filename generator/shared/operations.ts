/**
 * The route table of docs/api.md: which operations exist, their parameters in documented order, and what
 * kind of answer each gives. The build derives it from the collections table (`createOperations`) and
 * writes it to OPERATIONS_PATH; the handler serves what that file says, and the OpenAPI document
 * describes the same table. Runtime-neutral and free of zod: the handler imports it.
 */

/** Largest `offset` the contract accepts (Number.MAX_SAFE_INTEGER). */
export const MAX_OFFSET = 9007199254740991;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** docs/api.md "Parameters": `q` is 1 to 200 characters after trimming. */
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
  /** What the operation answers, in a sentence or two (the OpenAPI document and the reference show it). */
  description: string;
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

/** What a collection's extra route holds: a taxonomy's terms, a subset of its records, or the latest ones. */
type ExtraRoute =
  | { kind: 'terms'; counts?: readonly { collection: string; field: string }[] }
  | { kind: 'subset'; where?: Readonly<Record<string, unknown>> }
  | { kind: 'latest'; max: number; default: number };

/** What a collection says about its routes: the plain-data part of its entry in the collections table. */
export interface CollectionRoutes {
  noun: string;
  /** How its records are ordered (see RecordOrder in the collections table's types). */
  order?: 'order' | 'date' | 'updated';
  /** The field an order by date reads: the collection's date role. */
  fields?: { date?: string };
  api: {
    path: string;
    label: string;
    tag: string;
    list: { operationId: string; summary: string };
    get: { operationId: string; summary: string };
    filters: readonly { param: string; source: string; description: string }[];
    routes?: readonly ({ path: string; operationId: string; summary: string } & ExtraRoute)[];
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
    description:
      "Ranks records by relevance to a question or a few words: English stemming, stop words ignored, the site's synonyms, " +
      'one typo in longer words, the last word as a prefix; titles weigh most, then tags, summaries and bodies. ' +
      'Each result has a `score` above 0; `type` narrows the search to one collection. No match is a success with an empty `data`.',
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

/** A sentence for one of a collection's extra routes, from what the table says it holds. */
function routeDescription(label: string, route: ExtraRoute): string {
  if (route.kind === 'latest')
    return `The newest ${label}, newest first: \`count\` of them (${route.default} unless given, at most ${route.max}).`;
  if (route.kind === 'subset') {
    const where = Object.entries(route.where ?? {}).map(([field, value]) => `\`${field}\` is ${JSON.stringify(value)}`);
    return `The ${label} whose ${joinWords(where)}, in list order. Not paginated.`;
  }
  const counted = [...new Set((route.counts ?? []).map(({ collection }) => collection))];
  return `Every entry, in the editors' order, with \`count\`: the published records (${joinWords(counted)}) that use it. Not paginated.`;
}

/** How a list is ordered, in its description. */
function orderWords({ order = 'order', fields }: CollectionRoutes): string {
  if (order === 'order') return 'by their `order` field, then title';
  return `newest \`${order === 'date' ? (fields?.date ?? order) : order}\` first, then by id`;
}

/** A collection's list and get routes, then its extra routes in the order the table gives them. */
function createCollectionOperations(collection: CollectionRoutes): Operation[] {
  const { noun, api } = collection;
  const common = { collection: api.path, tag: api.tag };
  const filters = api.filters.map(
    (filter): Param => ({ name: filter.param, kind: 'filter', source: filter.source, description: filter.description }),
  );
  const filtered = filters.length ? ` Filter by ${joinWords(filters.map(({ name }) => `\`${name}\``))}.` : '';
  return [
    {
      path: `${api.path}/list`,
      ...api.list,
      description: `The published ${api.label}, ${orderWords(collection)}.${filtered}`,
      kind: 'list',
      ...common,
      params: [...filters, limit, offset],
    },
    {
      path: `${api.path}/get`,
      ...api.get,
      description: `One ${noun} by its id or slug (any letter case): the list item's fields, its content as \`content_html\` and its related records. An id that names no ${noun} is 404.`,
      kind: 'get',
      ...common,
      noun,
      params: [id],
    },
    ...(api.routes ?? []).map(({ path, operationId, summary, ...route }): Operation => {
      const names = { path: `${api.path}/${path}`, operationId, summary, description: routeDescription(api.label, route), ...common };
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
    {
      path: '',
      operationId: 'getIndex',
      summary: 'Index of operations',
      description: 'Every operation of this API with its path and parameters, and where the OpenAPI document is.',
      kind: 'index',
      params: [],
      tag: 'API',
    },
    createSearchOperation(collections.filter(({ api }) => api.search)),
    ...collections.flatMap(createCollectionOperations),
    {
      path: 'health',
      operationId: 'getHealth',
      summary: 'Health check',
      description: '`healthy`, the API version and the resource groups served, with the build time and the record counts.',
      kind: 'static',
      tag: 'API',
      params: [],
    },
    {
      path: 'openapi.json',
      operationId: 'getOpenApi',
      summary: 'OpenAPI 3.1 description of this API',
      description: 'This document, generated from the same schemas as the data. A plain OpenAPI document, not an envelope.',
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
