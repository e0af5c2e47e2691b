/** The error codes of the spec's Errors section, with their HTTP status: one catalogue for handler and OpenAPI. */
import { ALLOWED_METHODS, API_BASE_PATH } from './policy.ts';

export const ERROR_STATUS = {
  NOT_FOUND: 404,
  MISSING_PARAMETER: 400,
  INVALID_PARAMETER: 400,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The error envelope's `error` object. `parameter` only on MISSING_PARAMETER and INVALID_PARAMETER. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  timestamp: string;
  parameter?: string;
}

/** The one error type of the API: anything else that reaches the top is an INTERNAL_ERROR. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly parameter: string | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { parameter?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.parameter = options.parameter;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Every error the API sends, by what happened: the handler and the parameter rules throw these, and the
 * OpenAPI document's examples are made by the same builders, so an example is what a client really gets.
 */
export const apiErrors = {
  endpointNotFound: (pathname: string) =>
    new ApiError('NOT_FOUND', `No endpoint at ${pathname}; see ${API_BASE_PATH}/ for the list of operations.`),
  recordNotFound: (noun: string, id: string) => new ApiError('NOT_FOUND', `No ${noun} has the id or slug "${id}".`),
  methodNotAllowed: (method: string) =>
    new ApiError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed; this API is read-only (${ALLOWED_METHODS}).`, {
      headers: { Allow: ALLOWED_METHODS },
    }),
  rateLimited: (limit: number, windowSeconds: number, retryAfter: number) =>
    new ApiError(
      'RATE_LIMIT_EXCEEDED',
      `Too many requests: the limit is ${limit} per ${windowSeconds} seconds per address. Retry in ${retryAfter} s.`,
      {
        headers: { 'Retry-After': String(retryAfter) },
      },
    ),
  internal: () => new ApiError('INTERNAL_ERROR', 'The server could not answer this request. Please retry later.'),
  repeatedParameter: (name: string, count: number) =>
    new ApiError('INVALID_PARAMETER', `Parameter "${name}" is given ${count} times; give it once.`, { parameter: name }),
  notPlainDigits: (name: string, range: string) =>
    new ApiError('INVALID_PARAMETER', `Parameter "${name}" must be ${range}, written in plain digits.`, { parameter: name }),
  outOfRange: (name: string, range: string, raw: string) =>
    new ApiError(
      'INVALID_PARAMETER',
      `Parameter "${name}" must be ${range}; ${raw.length > 24 ? 'the value given' : raw} is out of range.`,
      { parameter: name },
    ),
  notOneOf: (name: string, allowed: readonly string[]) =>
    new ApiError('INVALID_PARAMETER', `Parameter "${name}" must be one of: ${allowed.join(', ')}.`, { parameter: name }),
  missingId: (name: string) =>
    new ApiError('MISSING_PARAMETER', `Parameter "${name}" is required: a record id or slug.`, { parameter: name }),
  malformedId: (name: string) =>
    new ApiError('INVALID_PARAMETER', `Parameter "${name}" must be 1 to 128 ASCII letters, digits, ".", "_" or "-".`, { parameter: name }),
  missingQuery: (name: string) =>
    new ApiError('MISSING_PARAMETER', `Parameter "${name}" is required: a natural-language query.`, { parameter: name }),
  queryTooLong: (name: string, maxLength: number) =>
    new ApiError('INVALID_PARAMETER', `Parameter "${name}" must be at most ${maxLength} characters.`, { parameter: name }),
};
