/**
 * The edge handler: everything a static file cannot do. A factory over Web APIs only, so the same code
 * runs on Netlify Edge (Deno), in the local Node server and in tests.
 */
import { ApiError } from '../shared/errors.ts';
import { serializeEnvelope, extractData, pagination, type MetaFields } from '../shared/envelope.ts';
import { filterParams, operationsByPath, type CollectionName, type Operation } from '../shared/operations.ts';
import { latestPath, MANIFEST_PATH, OPENAPI_PATH, recordPath, SEARCH_INDEX_PATH, staticPath, filterKey } from '../shared/data-paths.ts';
import type { Manifest } from '../shared/manifest.ts';
import { parseParams, type ParsedParams } from '../shared/params.ts';
import type { Assets } from './assets.ts';
import { createEtag, matchesEtag } from './etag.ts';
import { createMemoryLimiter, type RateLimitDecision, type RateLimiter } from './limiter.ts';
import { readWindow } from './read-window.ts';
import { createSearch, type Search, type SearchQuery } from '../search/search.ts';
import { ALLOW, baseHeaders, errorResponse, jsonResponse, withoutBody } from './respond.ts';

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
  /** The client address the rate limit counts by. */
  ip: string;
}

export type Handler = (request: Request, context: RequestContext) => Promise<Response>;

/** What a route produced: the data JSON (or a raw document) and the pagination to report. */
type RouteResult = { data: string; pagination?: MetaFields['pagination'] } | { document: string };

const API_PREFIX = '/v1';

const RECORD_NAMES: Record<CollectionName, string> = {
  services: 'service',
  expertise: 'expertise area',
  technology: 'technology',
  intelligence: 'article',
};

/** `/v1/services/list/` -> `services/list`; null outside the API. One trailing slash is ignored. */
function routePath(pathname: string): string | null {
  if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) return null;
  const rest = pathname.slice(API_PREFIX.length + 1);
  return rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

function isPreflight(request: Request): boolean {
  const method = request.headers.get('Access-Control-Request-Method');
  return request.method === 'OPTIONS' && request.headers.has('Origin') && (method === 'GET' || method === 'HEAD');
}

export function createHandler(options: HandlerOptions): Handler {
  const { assets } = options;
  const limiter = options.limiter ?? createMemoryLimiter();
  const clock = options.clock ?? Date.now;
  const createRequestId = options.createRequestId ?? (() => crypto.randomUUID());
  const logError = options.logError ?? ((error: unknown) => console.error('unexpected error', error));
  const search = options.search ?? createSearch(() => assets.read(SEARCH_INDEX_PATH));

  // Loaded once per isolate or process; a failed load is retried by the next request.
  let manifest: Promise<Manifest> | undefined;
  const loadManifest = () => {
    manifest ??= assets.read(MANIFEST_PATH).then((text) => {
      if (text === null) throw new Error(`missing ${MANIFEST_PATH}`);
      return JSON.parse(text) as Manifest;
    });
    manifest.catch(() => (manifest = undefined));
    return manifest;
  };

  /** The data of a precomputed envelope; a missing file is the client's 404 only where `notFound` says so. */
  const readData = async (path: string, notFound?: () => ApiError): Promise<string> => {
    const text = await assets.read(path);
    if (text === null) throw notFound?.() ?? new Error(`missing data file ${path}`);
    return extractData(text);
  };

  async function runOperation(operation: Operation, params: ParsedParams, data: Manifest): Promise<RouteResult> {
    switch (operation.kind) {
      case 'list': {
        const filters = filterParams(operation)
          .filter((param) => params[param.name] !== undefined)
          .map((param) => [param.name, params[param.name] as string] as const);
        const total = data.totals[operation.path]?.[filterKey(filters)] ?? 0;
        const limit = params.limit as number;
        const offset = params.offset as number;
        const window = await readWindow(assets, operation.path, filters, total, limit, offset);
        return { data: window.data, pagination: pagination(total, limit, offset, window.count) };
      }
      case 'get': {
        const id = params.id as string;
        const what = RECORD_NAMES[operation.collection!];
        return { data: await readData(recordPath(operation.path, id), () => new ApiError('NOT_FOUND', `No ${what} has the id or slug "${id}".`)) };
      }
      case 'latest':
        return { data: await readData(latestPath(params.count as number)) };
      case 'search': {
        const query: SearchQuery = { q: params.q as string, type: params.type as SearchQuery['type'], limit: params.limit as number, offset: params.offset as number };
        const found = await search.search(query);
        return { data: JSON.stringify(found.items), pagination: pagination(found.total, query.limit, query.offset, found.items.length) };
      }
      case 'openapi': {
        const document = await assets.read(OPENAPI_PATH);
        if (document === null) throw new Error(`missing ${OPENAPI_PATH}`);
        return { document };
      }
      case 'index':
      case 'static':
        return { data: await readData(staticPath(operation.path)) };
    }
  }

  async function respond(request: Request, started: number, requestId: string, rate: RateLimitDecision, timestamp: string): Promise<Response> {
    const headers = () => baseHeaders(requestId, rate, limiter.windowSeconds);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ApiError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed; this API is read-only (GET, HEAD).`, { headers: { Allow: ALLOW } });
    }
    const url = new URL(request.url);
    const path = routePath(url.pathname);
    const operation = path === null ? undefined : operationsByPath.get(path);
    if (!operation) throw new ApiError('NOT_FOUND', `No endpoint at ${url.pathname}; see ${API_PREFIX}/ for the list of operations.`);
    const data = await loadManifest();
    const result = await runOperation(operation, parseParams(operation, url.searchParams, data), data);

    const body = 'document' in result ? result.document : result.data;
    const etag = createEtag(body);
    const responseHeaders = headers();
    responseHeaders.set('Cache-Control', 'public, max-age=3600');
    responseHeaders.set('ETag', etag);
    if (matchesEtag(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers: responseHeaders });
    if ('document' in result) return jsonResponse(result.document, 200, responseHeaders);
    const meta: MetaFields = {
      timestamp,
      request_id: requestId,
      processing_time_ms: Math.max(0, Math.round(performance.now() - started)),
      language: data.language,
      ...(result.pagination ? { pagination: result.pagination } : {}),
    };
    return jsonResponse(serializeEnvelope(result.data, meta), 200, responseHeaders);
  }

  return async function handle(request, context) {
    const started = performance.now();
    const requestId = createRequestId();
    const now = clock();
    const timestamp = new Date(now).toISOString();
    let rate: RateLimitDecision | undefined;
    try {
      if (isPreflight(request)) {
        const headers = baseHeaders(requestId, undefined, limiter.windowSeconds);
        headers.set('Access-Control-Allow-Methods', ALLOW);
        headers.set('Access-Control-Allow-Headers', request.headers.get('Access-Control-Request-Headers') ?? '*');
        headers.set('Access-Control-Max-Age', '86400');
        return new Response(null, { status: 204, headers });
      }
      rate = await limiter.hit(context.ip, now);
      if (!rate.allowed) {
        throw new ApiError('RATE_LIMIT_EXCEEDED', `Too many requests: the limit is ${rate.limit} per ${limiter.windowSeconds} seconds per address. Retry in ${rate.retryAfter} s.`, {
          headers: { 'Retry-After': String(rate.retryAfter) },
        });
      }
      const response = await respond(request, started, requestId, rate, timestamp);
      return request.method === 'HEAD' ? withoutBody(response) : response;
    } catch (caught) {
      let error = caught;
      if (!(error instanceof ApiError)) {
        logError(error, request);
        error = new ApiError('INTERNAL_ERROR', 'The server could not answer this request. Please retry later.');
      }
      const response = errorResponse(error as ApiError, timestamp, baseHeaders(requestId, rate, limiter.windowSeconds));
      return request.method === 'HEAD' ? withoutBody(response) : response;
    }
  };
}
