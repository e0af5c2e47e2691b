/** Builds every response of the API: the headers docs/api.md asks for, success envelopes and errors. */
import type { ApiError, ErrorBody } from '../shared/errors.ts';
import { CACHE_CONTROL } from '../shared/policy.ts';
import type { RateLimitDecision } from './limiter.ts';

const EXPOSED = 'X-Request-Id, ETag, RateLimit, RateLimit-Policy, Retry-After';

/** Headers every `/v1/` response carries. */
export function baseHeaders(requestId: string, rate: RateLimitDecision | undefined, windowSeconds: number): Headers {
  const headers = new Headers({
    'X-Request-Id': requestId,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED,
    'X-Content-Type-Options': 'nosniff',
  });
  if (rate) {
    headers.set('RateLimit-Policy', `"default";q=${rate.limit};w=${windowSeconds}`);
    headers.set('RateLimit', `"default";r=${rate.remaining};t=${rate.retryAfter}`);
  }
  return headers;
}

export function jsonResponse(body: string | null, status: number, headers: Headers): Response {
  if (body !== null) headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(body, { status, headers });
}

/** The error envelope (no `meta`); errors are never cached. */
export function errorResponse(error: ApiError, timestamp: string, headers: Headers): Response {
  const body: { success: false; error: ErrorBody } = {
    success: false,
    error: { code: error.code, message: error.message, timestamp, ...(error.parameter ? { parameter: error.parameter } : {}) },
  };
  for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
  headers.set('Cache-Control', CACHE_CONTROL.error);
  return jsonResponse(JSON.stringify(body), error.status, headers);
}

/** A body for HEAD is dropped here, once, so every route serves HEAD as GET, with the length GET would send. */
export async function withoutBody(response: Response): Promise<Response> {
  const length = (await response.arrayBuffer()).byteLength;
  if (response.status !== 304) response.headers.set('Content-Length', String(length));
  return new Response(null, { status: response.status, headers: response.headers });
}
