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
