/** The error codes of the spec's Errors section, with their HTTP status: one catalogue for handler and OpenAPI. */

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
