/**
 * The OpenAPI 3.1 document of `/v1/`, generated at build time: paths and parameters from the route table
 * (shared/operations.ts), schemas from the zod schemas, enumerations and examples from the built content.
 * Nothing is written per operation by hand, so a new operation is documented as soon as it is routed.
 */
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, type Operation, type Param } from '../../../shared/operations.ts';
import { API_BASE_PATH, RATE_LIMIT } from '../../../shared/policy.ts';
import type { Manifest } from '../../../shared/manifest.ts';
import { INTEGER_PATTERN, REQUEST_ID_PATTERN } from '../../../shared/params.ts';
import { apiCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { buildSchemaComponents, isPaginated, schemaRef, successSchemaName } from './openapi-schemas.ts';
import { buildErrorResponses, buildHeaderComponents, buildResponseComponents, successHeaders } from './openapi-responses.ts';

export const OPENAPI_VERSION = '3.1.0';

export interface OpenApiInputs {
  /** The manifest the handler reads: allowed filter values come from it. */
  manifest: Manifest;
  /** The route table the handler serves. */
  operations: readonly Operation[];
  /** One example body per operation path (see `createExampleCollector`). */
  examples: ReadonlyMap<string, unknown>;
  /** The time examples show (the catalogue's `contentTime`), so the document does not change with the build's clock. */
  exampleTime: string;
}

/** The tags of the operations that belong to no collection. */
const GENERAL_TAGS: Record<string, string> = {
  API: 'The index of operations, the health check and this document.',
  Search: 'Natural-language search with relevance scores.',
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license?: Record<string, string> };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: never[];
  paths: Record<string, { get: Record<string, unknown> }>;
  components: Record<string, Record<string, unknown>>;
}

/**
 * One of `values` in any case, spaces around it allowed: what the handler accepts (docs/api.md "Parameters").
 * A JSON Schema `enum` would be case-sensitive and refuse `?category=SEO`, which the server answers, so the
 * values are spelled out as a pattern and listed as examples.
 */
function anyCaseOf(values: readonly string[]): Record<string, unknown> {
  const letters = (value: string) =>
    [...value]
      .map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
  return { type: 'string', pattern: `^\\s*(?:${values.map(letters).join('|')})?\\s*$`, examples: [...values] };
}

/** The schema of one query parameter: docs/api.md "Parameters", with filter values taken from the content. */
function describeSchema(param: Param, filters: Manifest['filters']): Record<string, unknown> {
  switch (param.kind) {
    case 'integer':
      return { type: 'integer', minimum: param.min, maximum: param.max, default: param.default, pattern: INTEGER_PATTERN.source };
    case 'filter':
      return anyCaseOf(filters[param.source] ?? []);
    case 'enum':
      return { ...anyCaseOf(param.values), default: param.default };
    case 'id':
      return { type: 'string', pattern: REQUEST_ID_PATTERN.source };
    case 'query':
      return { type: 'string', minLength: 1, maxLength: param.maxLength };
  }
}

const NOTES: Record<Param['kind'], string> = {
  integer: 'Plain decimal digits; out of range is 400, never clamped.',
  filter: 'Matched case-insensitively after trimming; an unknown value is 400 listing the allowed ones.',
  enum: 'Matched case-insensitively after trimming.',
  id: 'Unknown but well-formed is 404; malformed is 400.',
  query: 'Trimmed; absent or blank is 400 MISSING_PARAMETER.',
};

function buildParameter(param: Param, filters: Manifest['filters']): Record<string, unknown> {
  return {
    name: param.name,
    in: 'query',
    required: param.kind === 'id' || param.kind === 'query',
    description: `${param.description} ${NOTES[param.kind]}`,
    schema: describeSchema(param, filters),
  };
}

function buildOperation(operation: Operation, inputs: OpenApiInputs, timestamp: string): Record<string, unknown> {
  const example = inputs.examples.get(operation.path);
  const paging = isPaginated(operation)
    ? ' Paginated with `limit` and `offset`; `meta.pagination` gives the total. An offset past the end gives an empty `data` with the true total.'
    : '';
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `${operation.description}${paging}`,
    tags: [operation.tag],
    parameters: operation.params.map((param) => buildParameter(param, inputs.manifest.filters)),
    responses: {
      '200': {
        description: operation.kind === 'openapi' ? 'This OpenAPI document.' : `Success envelope: ${operation.summary.toLowerCase()}.`,
        headers: successHeaders(),
        content: {
          'application/json': { schema: { $ref: schemaRef(successSchemaName(operation)) }, ...(example === undefined ? {} : { example }) },
        },
      },
      '304': { $ref: '#/components/responses/NotModified' },
      ...buildErrorResponses(operation, inputs.manifest, timestamp),
    },
  };
}

/** The document's paths: `/v1/services/list` is `/services/list` under the server `{site_url}/v1`. */
export function toDocumentPath(operation: Operation): string {
  return `/${operation.path}`;
}

/** The whole document; build-site writes it to OPENAPI_PATH and to the reference's static copy. */
export function buildOpenApi(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>, inputs: OpenApiInputs): OpenApiDocument {
  const { site, siteUrl } = catalogue;
  const { operations, exampleTime } = inputs;
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) paths[toDocumentPath(operation)] = { get: buildOperation(operation, inputs, exampleTime) };
  const tagDescriptions = new Map([
    ...Object.entries(GENERAL_TAGS),
    ...apiCollections(catalogue.collections).map(([, { api }]) => [api.tag, api.about] as const),
  ]);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${site.name} API`,
      version: site.api_version,
      description: [
        `A read-only, public JSON API over the ${site.name} catalogue: services, expertise areas, industries, AI and agentic-commerce technologies and published articles (intelligence), with natural-language search.`,
        'No authentication. `GET` and `HEAD` only. Every success is `{ success: true, data, meta }`; every error is `{ success: false, error }` with no `meta`. Clients check `success` before reading `data`.',
        `Lists paginate with \`limit\` (1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and \`offset\`. Responses may be cached for an hour; \`ETag\` and \`If-None-Match\` give 304 while the data is unchanged.`,
        `Rate limit: ${RATE_LIMIT.requests} requests per rolling ${RATE_LIMIT.windowSeconds === 60 ? 'minute' : `${RATE_LIMIT.windowSeconds} seconds`} per IP address, reported in \`RateLimit\` and \`RateLimit-Policy\`; back off exponentially after a 429.`,
        `The resource feed is separate and static: ${siteUrl}/${SITE_ADDRESSES.resourceFeed}.`,
      ].join('\n\n'),
      ...(site.contact ? { contact: site.contact } : {}),
      ...(site.license ? { license: site.license } : {}),
    },
    servers: [{ url: `${siteUrl}${API_BASE_PATH}`, description: 'The versioned API root.' }],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({
      name,
      description: tagDescriptions.get(name) ?? name,
    })),
    // Public and read-only: no operation needs a credential (docs/api.md).
    security: [],
    paths,
    components: {
      schemas: buildSchemaComponents(operations, catalogue.collections),
      responses: buildResponseComponents(exampleTime),
      headers: buildHeaderComponents(),
    },
  };
}

/** Pretty JSON; the key order is the order the document is built in, so the same content gives the same bytes. */
export function serializeOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
