/**
 * The edge handler: everything a static file cannot do. A factory over Web APIs only, so the same code
 * runs on Netlify Edge (Deno), in the local Node server and in tests. It serves the route table the build
 * wrote (OPERATIONS_PATH), so what it routes always matches the data beside it.
 */
import { MANIFEST_PATH, OPERATIONS_PATH } from '../shared/data-paths.ts';
import { serializeEnvelope, type MetaFields } from '../shared/envelope.ts';
import { ApiError, apiErrors } from '../shared/errors.ts';
import type { Manifest } from '../shared/manifest.ts';
import type { Operation } from '../shared/operations.ts';
import { parseParams } from '../shared/params.ts';
import { ALLOWED_METHODS, API_BASE_PATH, CACHE_CONTROL } from '../shared/policy.ts';
import { createSearch, type Search } from '../search/search.ts';
import type { Assets } from './assets.ts';
import { clientKey } from './client-address.ts';
import { createEtag, matchesEtag } from './etag.ts';
import { createMemoryLimiter, type RateLimitDecision, type RateLimiter } from './limiter.ts';
import { baseHeaders, errorResponse, jsonResponse, withoutBody } from './respond.ts';
import { runOperation, type RouteResult } from './run-operation.ts';

export interface HandlerOptions {
  assets: Assets;
  limiter?: RateLimiter;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock?: () => number;
  /** Unique per request. */
  createRequestId?: () => string;
  /** Defaults to the prebuilt index read through `assets`, loaded on the first search. */
  search?: Search;
  /** Where unexpected errors go; they never reach the client. */
  logError?: (error: unknown, request: Request) => void;
}

export interface RequestContext {
  /** The client's address, as the platform or the proxy in front saw it; the limit counts by its `clientKey`. */
  ip: string;
  /** The request's method when a Web `Request` cannot carry it (TRACE, CONNECT); the request then has a stand-in. */
  method?: string;
}

export type Handler = (request: Request, context: RequestContext) => Promise<Response>;

/** What the handler reads of a build once: the manifest and the route table. */
interface BuildData {
  manifest: Manifest;
  operations: ReadonlyMap<string, Operation>;
}

/** One request as the handler sees it, with what it has measured and decided so far. */
interface Exchange {
  request: Request;
  method: string;
  started: number;
  requestId: string;
  timestamp: string;
}

/** `/v1/services/list/` -> `services/list`; null outside the API. One trailing slash is ignored. */
function routePath(pathname: string): string | null {
  if (pathname !== API_BASE_PATH && !pathname.startsWith(`${API_BASE_PATH}/`)) return null;
  const rest = pathname.slice(API_BASE_PATH.length + 1);
  return rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

function isPreflight(request: Request): boolean {
  const method = request.headers.get('Access-Control-Request-Method');
  return request.method === 'OPTIONS' && request.headers.has('Origin') && (method === 'GET' || method === 'HEAD');
}

function preflightResponse(request: Request, headers: Headers): Response {
  headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
  headers.set('Access-Control-Allow-Headers', request.headers.get('Access-Control-Request-Headers') ?? '*');
  headers.set('Access-Control-Max-Age', '86400');
  return new Response(null, { status: 204, headers });
}

/** Reads the manifest and the route table once per isolate or process; a failed read is retried by the next request. */
function createBuildLoader(assets: Assets): () => Promise<BuildData> {
  const readJson = async <T>(path: string): Promise<T> => {
    const text = await assets.read(path);
    if (text === null) throw new Error(`missing ${path}`);
    return JSON.parse(text) as T;
  };
  let loading: Promise<BuildData> | undefined;
  return () => {
    loading ??= Promise.all([readJson<Manifest>(MANIFEST_PATH), readJson<Operation[]>(OPERATIONS_PATH)]).then(([manifest, operations]) => ({
      manifest,
      operations: new Map(operations.map((operation) => [operation.path, operation])),
    }));
    loading.catch(() => (loading = undefined));
    return loading;
  };
}

/** A success response around a route's result: the per-request meta, the ETag of the data, a 304 when it matches. */
function successResponse(request: Request, result: RouteResult, meta: Omit<MetaFields, 'pagination'>, headers: Headers): Response {
  const body = 'document' in result ? result.document : result.data;
  const etag = createEtag(body);
  headers.set('Cache-Control', CACHE_CONTROL.success);
  headers.set('ETag', etag);
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  if ('document' in result) return jsonResponse(result.document, 200, headers);
  return jsonResponse(
    serializeEnvelope(result.data, { ...meta, ...(result.pagination ? { pagination: result.pagination } : {}) }),
    200,
    headers,
  );
}

export function createHandler(options: HandlerOptions): Handler {
  const { assets } = options;
  const limiter = options.limiter ?? createMemoryLimiter();
  const clock = options.clock ?? Date.now;
  const createRequestId = options.createRequestId ?? (() => crypto.randomUUID());
  const logError = options.logError ?? ((error: unknown) => console.error('unexpected error', error));
  const search = options.search ?? createSearch(assets);
  const loadBuild = createBuildLoader(assets);

  async function respond({
    request,
    method,
    started,
    requestId,
    rate,
    timestamp,
  }: Exchange & { rate: RateLimitDecision }): Promise<Response> {
    if (method !== 'GET' && method !== 'HEAD') throw apiErrors.methodNotAllowed(method);
    const url = new URL(request.url);
    const path = routePath(url.pathname);
    const { manifest, operations } = await loadBuild();
    const operation = path === null ? undefined : operations.get(path);
    if (!operation) throw apiErrors.endpointNotFound(url.pathname);
    const result = await runOperation(operation, parseParams(operation, url.searchParams, manifest), { assets, search, manifest });
    const processing = Math.max(0, Math.round(performance.now() - started));
    const meta = { timestamp, request_id: requestId, processing_time_ms: processing, language: manifest.language };
    return successResponse(request, result, meta, baseHeaders(requestId, rate, limiter.windowSeconds));
  }

  return async function handle(request, context) {
    const started = performance.now();
    const method = context.method ?? request.method;
    const requestId = createRequestId();
    const now = clock();
    const timestamp = new Date(now).toISOString();
    let rate: RateLimitDecision | undefined;
    let response: Response;
    try {
      if (method === 'OPTIONS' && isPreflight(request))
        return preflightResponse(request, baseHeaders(requestId, undefined, limiter.windowSeconds));
      rate = await limiter.hit(clientKey(context.ip), now);
      if (!rate.allowed) throw apiErrors.rateLimited(rate.limit, limiter.windowSeconds, rate.retryAfter);
      response = await respond({ request, method, started, requestId, rate, timestamp });
    } catch (caught) {
      let error = caught;
      if (!(error instanceof ApiError)) {
        logError(error, request);
        error = apiErrors.internal();
      }
      response = errorResponse(error as ApiError, timestamp, baseHeaders(requestId, rate, limiter.windowSeconds));
    }
    return method === 'HEAD' ? withoutBody(response) : response;
  };
}
