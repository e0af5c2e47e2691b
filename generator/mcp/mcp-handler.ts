/**
 * The MCP endpoint (`/mcp`): Model Context Protocol over Streamable HTTP, stateless, JSON responses, the
 * same function on Netlify Edge (Deno), in the local Node server and in tests. Each tool call is answered
 * by the `/v1/` handler itself, from the same precomputed files and search index.
 *
 * Before the SDK sees anything, this gate does what makes the endpoint safe to leave open:
 * - the limit is asked (without counting) before the body is read, so a client with no requests left
 *   holds no connection; the body is read within one cap and one deadline on every platform;
 * - one JSON-RPC message per HTTP request: a batch is refused, so one request never buys more than one
 *   message's work; each message that asks for work (a request: initialize, ping, tools/list,
 *   tools/call) counts one against the rate limit shared with `/v1/`; a notification, which the stateless
 *   server has nothing to do with, is acknowledged and not counted; a body that is not a message counts;
 * - every answer comes within the deadline, or the request gets a JSON-RPC timeout error;
 * - every answer carries the API's headers (request id, nosniff, RateLimit, CORS), and a browser's
 *   preflight gets 204, uncounted.
 * Loaded only when `/mcp` is asked for: the SDK brings zod, which `/v1/` isolates never load.
 */
import type { Assets } from '../edge/assets.ts';
import { clientKey } from '../edge/client-address.ts';
import { createHandler, type Handler, type RequestContext } from '../edge/handler.ts';
import { createMemoryLimiter, type RateLimitDecision, type RateLimiter } from '../edge/limiter.ts';
import { baseHeaders } from '../edge/respond.ts';
import type { Search } from '../search/search.ts';
import { MANIFEST_PATH, OPERATIONS_PATH } from '../shared/data-paths.ts';
import type { Manifest } from '../shared/manifest.ts';
import type { Operation } from '../shared/operations.ts';
import { API_BASE_PATH, MCP_POLICY } from '../shared/policy.ts';
import { answerRequest, type McpSite, type ToolResult, toolCallProblem } from './mcp-server.ts';
import { readBody, startDeadline } from './read-body.ts';
import { type ApiCall, createTools } from './tools.ts';

export interface McpHandlerOptions {
  assets: Assets;
  /** The limiter `/v1/` counts with, so that both count against one budget. */
  limiter: RateLimiter;
  search?: Search;
  clock?: () => number;
  logError?: (error: unknown, request: Request) => void;
  /** Milliseconds a request has, from its first byte to its answer (MCP_POLICY.deadlineMs). */
  deadlineMs?: number;
  /** Runs a tool's API call; tests slow it down to prove the deadline. */
  callApi?: (call: ApiCall, context: RequestContext) => Promise<Response>;
}

/** JSON-RPC's own error codes, and the one the MCP SDK's client reads as a timeout. */
const RPC = { parse: -32700, invalidRequest: -32600, invalidParams: -32602, internal: -32603, server: -32000, timeout: -32001 };

type RpcId = string | number | null;

/** A JSON-RPC error with the API's headers; the status says what HTTP would say about it. */
function rpcError(status: number, code: number, message: string, headers: Headers, id: RpcId = null): Response {
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), { status, headers });
}

/** The SDK's answer with the API's headers added. */
function withHeaders(response: Response, headers: Headers): Response {
  response.headers.forEach((value, name) => {
    if (!headers.has(name)) headers.set(name, value);
  });
  headers.set('Cache-Control', 'no-store');
  return new Response(response.body, { status: response.status, headers });
}

function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('Origin') && request.headers.has('Access-Control-Request-Method');
}

function preflight(request: Request, headers: Headers): Response {
  headers.set('Access-Control-Allow-Methods', MCP_POLICY.allow);
  headers.set('Access-Control-Allow-Headers', request.headers.get('Access-Control-Request-Headers') ?? '*');
  headers.set('Access-Control-Max-Age', '86400');
  return new Response(null, { status: 204, headers });
}

/** What one parsed body is: a request (counted), a notification or response (not), or not a message at all. */
function classify(
  message: unknown,
): { kind: 'request'; id: string | number; method: string } | { kind: 'notification' } | { problem: string } {
  if (Array.isArray(message))
    return { problem: 'Batches are not accepted: send one JSON-RPC message per request (MCP removed batching in 2025-06-18).' };
  if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0')
    return { problem: 'The body must be one JSON-RPC 2.0 message: {"jsonrpc": "2.0", ...}.' };
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (method === undefined && id !== undefined) return { kind: 'notification' }; // a response: this server asks nothing
  if (typeof method !== 'string') return { problem: 'The message needs a "method" (text).' };
  if (id === undefined) return { kind: 'notification' };
  if (typeof id !== 'string' && typeof id !== 'number') return { problem: 'A request\'s "id" must be text or a number.' };
  return { kind: 'request', id, method };
}

type Read =
  | { kind: 'request'; id: string | number; method: string; message: unknown }
  | { kind: 'notification' }
  | { problem: [status: number, code: number, message: string] };

/** The body, read within the cap and the deadline, as one classified message or what is wrong with it. */
async function readMessage(request: Request, expired: Promise<'timeout'>, deadlineMs: number): Promise<Read> {
  const body = await readBody(request, MCP_POLICY.maxBodyBytes, expired);
  if ('problem' in body) {
    if (body.problem === 'too-large') return { problem: [413, RPC.invalidRequest, `The body is over ${MCP_POLICY.maxBodyBytes} bytes.`] };
    if (body.problem === 'timeout')
      return { problem: [408, RPC.invalidRequest, `The body did not arrive within ${deadlineMs / 1000} seconds.`] };
    return { problem: [400, RPC.parse, 'The body is not UTF-8 text.'] };
  }
  let message: unknown;
  try {
    message = JSON.parse(body.text);
  } catch {
    return { problem: [400, RPC.parse, 'Parse error: the body is not JSON.'] };
  }
  const kind = classify(message);
  if ('problem' in kind) return { problem: [400, RPC.invalidRequest, kind.problem] };
  return kind.kind === 'request' ? { ...kind, message } : kind;
}

/** Runs one call through the API handler and turns its envelope into a tool result. */
async function toolResult(response: Response): Promise<ToolResult> {
  const envelope = (await response.json()) as {
    success: boolean;
    data?: unknown;
    meta?: { pagination?: unknown };
    error?: { code: string; message: string };
  };
  if (!envelope.success) return { isError: true, content: [{ type: 'text', text: `${envelope.error!.code}: ${envelope.error!.message}` }] };
  const structured = { data: envelope.data, ...(envelope.meta?.pagination ? { pagination: envelope.meta.pagination } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** The tools and manifest of the build, read once; a failed read is retried by the next request. */
function createSiteLoader(assets: Assets) {
  let loading: Promise<{ tools: McpSite['tools']; manifest: Manifest }> | undefined;
  return () => {
    loading ??= Promise.all([assets.read(OPERATIONS_PATH), assets.read(MANIFEST_PATH)]).then(([operations, manifest]) => {
      if (operations === null || manifest === null) throw new Error(`missing ${OPERATIONS_PATH} or ${MANIFEST_PATH}`);
      const parsed = JSON.parse(manifest) as Manifest;
      return { tools: createTools(JSON.parse(operations) as Operation[], parsed), manifest: parsed };
    });
    loading.catch(() => (loading = undefined));
    return loading;
  };
}

type Answer = (
  request: Request,
  message: unknown,
  id: RpcId,
  context: RequestContext,
  headers: Headers,
  expired: Promise<'timeout'>,
) => Promise<Response>;

/** Answers one counted request through the SDK, each tool call through the API, within what is left of the deadline. */
function createAnswerer(options: McpHandlerOptions, deadlineMs: number): Answer {
  const { assets, logError } = options;
  // Each tool call was counted once, as its message, by the gate; the API call it makes is not counted again.
  const api = createHandler({
    assets,
    search: options.search,
    clock: options.clock,
    logError,
    limiter: createMemoryLimiter({ limit: Number.MAX_SAFE_INTEGER }),
  });
  const callApi =
    options.callApi ??
    ((call: ApiCall, context: RequestContext) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(call.params)) if (value !== undefined) query.set(name, String(value));
      return api(new Request(`http://mcp.internal${API_BASE_PATH}/${call.path}${query.size ? `?${query}` : ''}`), context);
    });
  const loadSite = createSiteLoader(assets);
  return async (request, message, id, context, headers, expired) => {
    const { tools, manifest } = await loadSite();
    const site: McpSite = { tools, manifest, run: async (tool, args) => toolResult(await callApi(tool.toCall(args), context)) };
    const answering = answerRequest(site, request, message);
    const outcome = await Promise.race([answering, expired]);
    if (outcome === 'timeout') {
      answering.then(
        ({ close }) => close(),
        () => {},
      );
      return rpcError(200, RPC.timeout, `No answer within ${deadlineMs / 1000} seconds; try again or ask for less.`, headers, id);
    }
    outcome.close();
    return withHeaders(outcome.response, headers);
  };
}

/** 429 with the API's headers and Retry-After. */
function limitedResponse(rate: RateLimitDecision, headers: Headers, windowSeconds: number, id: RpcId): Response {
  headers.set('Retry-After', String(rate.retryAfter));
  return rpcError(429, RPC.server, `Rate limit exceeded: ${rate.limit} requests per ${windowSeconds} seconds.`, headers, id);
}

/** Stateless: no server-to-client stream (GET), no session to end (DELETE). Answered at no cost, uncounted. */
function methodNotAllowed(headers: Headers): Response {
  headers.set('Allow', MCP_POLICY.allow);
  return rpcError(405, RPC.server, 'Method not allowed: this endpoint is stateless, send one JSON-RPC message by POST.', headers);
}

export function createMcpHandler(options: McpHandlerOptions): Handler {
  const { limiter } = options;
  const logError = options.logError ?? ((error: unknown) => console.error('unexpected error', error));
  const clock = options.clock ?? Date.now;
  const deadlineMs = options.deadlineMs ?? MCP_POLICY.deadlineMs;
  const answer = createAnswerer({ ...options, clock, logError }, deadlineMs);
  const headersFor = (rate: RateLimitDecision) => baseHeaders(crypto.randomUUID(), rate, limiter.windowSeconds);

  return async (request, context) => {
    const key = clientKey(context.ip);
    const before = await limiter.peek(key, clock());
    if (isPreflight(request)) return preflight(request, headersFor(before));
    if (request.method !== 'POST') return methodNotAllowed(headersFor(before));
    if (!before.allowed) return limitedResponse(before, headersFor(before), limiter.windowSeconds, null);
    const deadline = startDeadline(deadlineMs);
    try {
      const read = await readMessage(request, deadline.expired, deadlineMs);
      if ('kind' in read && read.kind === 'notification') return new Response(null, { status: 202, headers: headersFor(before) });
      // Everything else asked for work, if only to be told what is wrong: it counts.
      const id = 'kind' in read ? read.id : null;
      const rate = await limiter.hit(key, clock());
      const headers = headersFor(rate);
      if (!rate.allowed) return limitedResponse(rate, headers, limiter.windowSeconds, id);
      if ('problem' in read) return rpcError(read.problem[0], read.problem[1], read.problem[2], headers);
      const callProblem = read.method === 'tools/call' ? toolCallProblem(read.message as { params?: unknown }) : null;
      if (callProblem) return rpcError(200, RPC.invalidParams, callProblem, headers, id);
      return await answer(request, read.message, id, context, headers, deadline.expired);
    } catch (error) {
      logError(error, request);
      return rpcError(500, RPC.internal, 'Internal error', headersFor(before));
    } finally {
      deadline.cancel();
    }
  };
}
