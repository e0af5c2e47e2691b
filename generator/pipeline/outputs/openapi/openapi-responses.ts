/**
 * The responses every operation shares: docs/api.md's headers, 304, and the error responses with their
 * examples. Which error can come from which operation is decided per error code, so a new code in
 * shared/errors.ts does not compile until it is placed here.
 */
import { ApiError, apiErrors, type ErrorBody, type ErrorCode } from '../../../shared/errors.ts';
import { ALLOWED_METHODS, API_BASE_PATH, CACHE_CONTROL, RATE_LIMIT } from '../../../shared/policy.ts';
import type { Manifest } from '../../../shared/manifest.ts';
import type { Operation, Param } from '../../../shared/operations.ts';
import { parseParams } from '../../../shared/params.ts';
import { pascalCase } from '../labels.ts';
import { errorSchemaName, listErrorStatuses, schemaRef } from './openapi-schemas.ts';

type Json = Record<string, unknown>;

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** docs/api.md "Headers, caching and methods", each documented once and referenced where it is sent. */
export function buildHeaderComponents(): Record<string, Json> {
  const text = (description: string, example?: string) => ({
    description,
    required: true,
    schema: { type: 'string' },
    ...(example ? { example } : {}),
  });
  return {
    'X-Request-Id': text('Tracking identifier of the request; on success it equals `meta.request_id` (errors have no `meta`).'),
    ETag: text(
      'Derived from the data, not the per-request `meta`: send it back in `If-None-Match` to get 304 while the data is unchanged.',
    ),
    'Cache-Control': {
      description: `\`${CACHE_CONTROL.success}\` on success (clients should cache for an hour); \`${CACHE_CONTROL.error}\` on errors.`,
      required: true,
      schema: { type: 'string', enum: [CACHE_CONTROL.success, CACHE_CONTROL.error] },
    },
    RateLimit: text(
      'Requests left in the window (`r`) and seconds until a request is allowed again (`t`), per the IETF RateLimit header fields draft.',
      '"default";r=99;t=0',
    ),
    'RateLimit-Policy': text(
      `${RATE_LIMIT.requests} requests per rolling ${RATE_LIMIT.windowSeconds} seconds per client IP address, over all of \`${API_BASE_PATH}/\`.`,
      `"default";q=${RATE_LIMIT.requests};w=${RATE_LIMIT.windowSeconds}`,
    ),
    'Retry-After': { description: 'Seconds to wait before the next request.', required: true, schema: { type: 'integer', minimum: 0 } },
    Allow: { description: 'The methods this API serves.', required: true, schema: { type: 'string', const: ALLOWED_METHODS } },
  };
}

const RATE_HEADERS = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimit-Policy') };

/** Headers of a 200 (and of a 304, which repeats them without a body). */
export const successHeaders = (): Json => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  ETag: headerRef('ETag'),
  'Cache-Control': headerRef('Cache-Control'),
  ...RATE_HEADERS,
});

const EXTRA_ERROR_HEADERS: Partial<Record<number, Json>> = {
  405: { Allow: headerRef('Allow') },
  429: { 'Retry-After': headerRef('Retry-After') },
};

const errorHeaders = (status: number): Json => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  'Cache-Control': headerRef('Cache-Control'),
  ...RATE_HEADERS,
  ...EXTRA_ERROR_HEADERS[status],
});

const isRequired = (param: Param) => 'required' in param && param.required;

/** Which operations can answer each code (docs/api.md "Parameters" and "Headers, caching and methods"). */
const RAISED_BY: Record<ErrorCode, (operation: Operation) => boolean> = {
  MISSING_PARAMETER: (operation) => operation.params.some(isRequired),
  INVALID_PARAMETER: (operation) => operation.params.length > 0,
  NOT_FOUND: (operation) => operation.kind === 'get',
  METHOD_NOT_ALLOWED: () => true,
  RATE_LIMIT_EXCEEDED: () => true,
  INTERNAL_ERROR: () => true,
};

/**
 * The error each shared response shows, made by the builders the handler throws, so the example is the
 * message a client gets (the 404 of a get route names its own record noun, see `buildErrorResponses`).
 */
const EXAMPLES: Record<'METHOD_NOT_ALLOWED' | 'RATE_LIMIT_EXCEEDED' | 'INTERNAL_ERROR', () => ApiError> = {
  METHOD_NOT_ALLOWED: () => apiErrors.methodNotAllowed('POST'),
  RATE_LIMIT_EXCEEDED: () => apiErrors.rateLimited(RATE_LIMIT.requests, RATE_LIMIT.windowSeconds, 42),
  INTERNAL_ERROR: () => apiErrors.internal(),
};

const envelope = (error: ErrorBody) => ({ success: false, error });

function errorResponse(error: ApiError, status: number, description: string, timestamp: string): Json {
  return {
    description,
    headers: errorHeaders(status),
    content: { 'application/json': { schema: { $ref: schemaRef(errorSchemaName(status)) }, example: toExample(error, timestamp).value } },
  };
}

/** Statuses with one code each and one message for every operation are shared components (`MethodNotAllowed`, ...). */
export function buildResponseComponents(timestamp: string): Record<string, Json> {
  const responses: Record<string, Json> = {
    NotModified: { description: 'The data is unchanged since the `ETag` sent in `If-None-Match`; no body.', headers: successHeaders() },
  };
  for (const { status, codes } of listErrorStatuses()) {
    const [code] = codes;
    if (codes.length !== 1 || code === undefined || !(code in EXAMPLES)) continue;
    const error = EXAMPLES[code as keyof typeof EXAMPLES]();
    responses[pascalCase(code)] = errorResponse(error, status, `${code}: ${error.message}`, timestamp);
  }
  return responses;
}

/** A value each kind of parameter rejects, so the example shows the handler's own message. */
function createBadValue(param: Param): string {
  switch (param.kind) {
    case 'integer':
      return String(param.max + 1);
    case 'filter':
    case 'enum':
      return 'unknown';
    case 'id':
      return 'not an id';
    case 'query':
      return 'x'.repeat(param.maxLength + 1);
  }
}

/** The error the shared parameter rules raise for this query: the same code path the handler runs. */
function captureError(operation: Operation, query: Record<string, string>, manifest: Manifest): ApiError {
  try {
    parseParams(operation, new URLSearchParams(query), manifest);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`OpenAPI: ${operation.path}?${new URLSearchParams(query)} was expected to be rejected`);
}

function toExample(error: ApiError, timestamp: string) {
  return {
    value: envelope({ code: error.code, message: error.message, timestamp, ...(error.parameter ? { parameter: error.parameter } : {}) }),
  };
}

/** 400 of one operation, with examples the parameter rules produce for its own parameters. */
function buildBadRequest(operation: Operation, codes: ErrorCode[], manifest: Manifest, timestamp: string): Json {
  const examples: Json = {};
  const [first] = operation.params;
  // Required parameters get a valid value unless they are the one under test, so the error is about it.
  const valid = Object.fromEntries(operation.params.filter(isRequired).map((param) => [param.name, 'x']));
  if (codes.includes('MISSING_PARAMETER')) examples.missing = toExample(captureError(operation, {}, manifest), timestamp);
  if (codes.includes('INVALID_PARAMETER') && first) {
    examples.invalid = toExample(captureError(operation, { ...valid, [first.name]: createBadValue(first) }, manifest), timestamp);
  }
  return {
    description: `${codes.join(' or ')}: \`error.parameter\` names the parameter. When several are wrong, the first in documented order is reported.`,
    headers: errorHeaders(400),
    content: { 'application/json': { schema: { $ref: schemaRef(errorSchemaName(400)) }, examples } },
  };
}

/** Every error response an operation can give, by status. */
export function buildErrorResponses(operation: Operation, manifest: Manifest, timestamp: string): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const { status, codes } of listErrorStatuses()) {
    const raised = codes.filter((code) => RAISED_BY[code](operation));
    const [code] = raised;
    if (code === undefined) continue;
    if (status === 400) responses[String(status)] = buildBadRequest(operation, raised, manifest, timestamp);
    else if (code === 'NOT_FOUND') {
      const error = apiErrors.recordNotFound(operation.noun ?? 'record', 'no-such-id');
      responses[String(status)] = errorResponse(error, status, `${code}: no ${operation.noun ?? 'record'} has this id or slug.`, timestamp);
    } else responses[String(status)] = { $ref: `#/components/responses/${pascalCase(code)}` };
  }
  return responses;
}
