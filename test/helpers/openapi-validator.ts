/**
 * Checks a response against the OpenAPI document: the schema the document gives for that path and
 * status, compiled with Ajv's JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Integration suites run
 * every response they receive through it, so the document and the handler cannot drift apart.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: Node's default import is `module.exports`, which carries the plugin as `default`.
const addFormats = addFormatsModule.default;

type Json = Record<string, unknown>;

export interface OpenApiLike {
  paths: Record<string, Record<string, Json> | undefined>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, Json> };
}

/** Returns the errors of one response, as readable lines; an empty list means it matches the document. */
export type ResponseValidate = (path: string, status: number, body: unknown) => string[];

const COMPONENTS_ID = 'urn:openapi:components';
const SCHEMA_PREFIX = '#/components/schemas/';

/** OpenAPI refs point into the document; here they point into the one schema that holds the components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_PREFIX)
        ? `${COMPONENTS_ID}#/$defs/${inner.slice(SCHEMA_PREFIX.length)}`
        : rewriteRefs(inner),
    ]),
  );
}

/** Ajv in strict mode, knowing OpenAPI's own annotation keyword `example`. */
export function createAjv(document: OpenApiLike) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword('example');
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(document.components?.schemas ?? {}) as Json });
  return ajv;
}

/** `/v1/services/list/?limit=2` and `/services/list` name the same documented path; one trailing slash is ignored, as by the API. */
export function toDocumentPath(path: string): string {
  const bare = path.split(/[?#]/)[0]!.replace(/^\/v1(?=\/|$)/, '');
  const trimmed = bare.replace(/\/$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function resolveResponse(document: OpenApiLike, response: Json | undefined): Json | undefined {
  const ref = response?.$ref;
  if (typeof ref !== 'string') return response;
  return document.components?.responses?.[ref.slice(ref.lastIndexOf('/') + 1)];
}

const formatErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
  );

/** What a path the API does not have may answer: 404, or what the handler checks before routing. */
const UNKNOWN_PATH_RESPONSES: Record<number, string> = { 405: 'MethodNotAllowed', 429: 'RateLimitExceeded', 500: 'InternalError' };

/** The 404 of a path the document does not have: the error envelope of status 404, as every 404 is. */
const UNKNOWN_PATH_NOT_FOUND: Json = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error404' } } } };

/**
 * `validate('/services/list', 200, body)`. An undocumented path or status is an error too. A path the
 * API does not have can only answer 404 (or 405, 429, 500, which come before routing).
 */
export function createResponseValidator(document: OpenApiLike): ResponseValidate {
  const ajv = createAjv(document);
  const compiled = new Map<string, ValidateFunction>();
  return (path, status, body) => {
    const documentPath = toDocumentPath(path);
    const operation = document.paths[documentPath]?.get;
    const response = operation
      ? resolveResponse(document, (operation.responses as Record<string, Json> | undefined)?.[String(status)])
      : status === 404
        ? UNKNOWN_PATH_NOT_FOUND
        : document.components?.responses?.[UNKNOWN_PATH_RESPONSES[status] ?? ''];
    if (!response) return [`${documentPath}: status ${status} is not documented`];
    const schema = (response.content as Record<string, Json> | undefined)?.['application/json']?.schema;
    if (schema === undefined) {
      return body === undefined || body === null || body === ''
        ? []
        : [`${documentPath} ${status}: documented without a body, but one was sent`];
    }
    const key = `${documentPath} ${status}`;
    const validate = compiled.get(key) ?? ajv.compile(rewriteRefs(schema) as Json);
    compiled.set(key, validate);
    return validate(body) ? [] : formatErrors(validate).map((line) => `${key}: ${line}`);
  };
}
