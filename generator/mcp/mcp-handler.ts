/**
 * The MCP endpoint (`/mcp`): Model Context Protocol over Streamable HTTP, stateless, JSON responses, built
 * with the official TypeScript SDK's Web-standard transport, so the same function runs on Netlify Edge
 * (Deno), in the local Node server and in tests. Each tool call is answered by the `/v1/` handler itself,
 * from the same precomputed files and search index; the MCP request is counted by the same rate limit.
 * Loaded only when `/mcp` is asked for: the SDK brings zod, which `/v1/` isolates never load.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Assets } from '../edge/assets.ts';
import { clientKey } from '../edge/client-address.ts';
import { createHandler, type Handler, type RequestContext } from '../edge/handler.ts';
import { createMemoryLimiter, type RateLimiter } from '../edge/limiter.ts';
import type { Search } from '../search/search.ts';
import { MANIFEST_PATH, OPERATIONS_PATH } from '../shared/data-paths.ts';
import type { Manifest } from '../shared/manifest.ts';
import type { Operation } from '../shared/operations.ts';
import { API_BASE_PATH } from '../shared/policy.ts';
import { type ApiCall, createTools, ToolArgumentError, type ToolDefinition } from './tools.ts';

export interface McpHandlerOptions {
  assets: Assets;
  /** The limiter `/v1/` counts with, so that both count against one budget. */
  limiter: RateLimiter;
  search?: Search;
  clock?: () => number;
  logError?: (error: unknown, request: Request) => void;
}

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** A JSON-RPC error outside any request (rate limit, wrong method), as the transport itself answers them. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** Runs one call through the API handler and turns its envelope into a tool result. */
async function callApi(api: Handler, call: ApiCall, context: RequestContext): Promise<ToolResult> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.params)) if (value !== undefined) query.set(name, String(value));
  const url = `http://mcp.internal${API_BASE_PATH}/${call.path}${query.size ? `?${query}` : ''}`;
  const envelope = (await (await api(new Request(url), context)).json()) as {
    success: boolean;
    data?: unknown;
    meta?: { pagination?: unknown };
    error?: { code: string; message: string };
  };
  if (!envelope.success) return { isError: true, content: [{ type: 'text', text: `${envelope.error!.code}: ${envelope.error!.message}` }] };
  const structured = { data: envelope.data, ...(envelope.meta?.pagination ? { pagination: envelope.meta.pagination } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function createServer(
  tools: readonly ToolDefinition[],
  manifest: Manifest,
  run: (tool: ToolDefinition, args: Record<string, unknown>) => Promise<ToolResult>,
) {
  const server = new McpServer(
    { name: `${new URL(manifest.site_url).hostname} catalogue`, version: manifest.api_version },
    { instructions: 'Read-only catalogue of services, expertise areas, technologies and articles. Start with search.' },
  );
  for (const tool of tools) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.inputSchema }, (args) =>
      run(tool, args as Record<string, unknown>),
    );
  }
  return server;
}

export function createMcpHandler(options: McpHandlerOptions): Handler {
  const { assets, limiter, logError = (error: unknown) => console.error('unexpected error', error) } = options;
  const clock = options.clock ?? Date.now;
  // The MCP request is counted once, here; the calls it makes through the API are not counted again.
  const api = createHandler({
    assets,
    search: options.search,
    clock,
    logError,
    limiter: createMemoryLimiter({ limit: Number.MAX_SAFE_INTEGER }),
  });
  let loading: Promise<{ tools: ToolDefinition[]; manifest: Manifest }> | undefined;
  const load = () => {
    loading ??= Promise.all([assets.read(OPERATIONS_PATH), assets.read(MANIFEST_PATH)]).then(([operations, manifest]) => {
      if (operations === null || manifest === null) throw new Error(`missing ${OPERATIONS_PATH} or ${MANIFEST_PATH}`);
      const parsed = JSON.parse(manifest) as Manifest;
      return { tools: createTools(JSON.parse(operations) as Operation[], parsed), manifest: parsed };
    });
    loading.catch(() => (loading = undefined));
    return loading;
  };

  return async (request, context) => {
    const rate = await limiter.hit(clientKey(context.ip), clock());
    if (!rate.allowed) {
      return rpcError(429, -32000, `Rate limit exceeded: ${rate.limit} requests per ${limiter.windowSeconds} seconds`, {
        'Retry-After': String(rate.retryAfter),
      });
    }
    // Stateless: no server-to-client stream (GET) and no session to end (DELETE).
    if (request.method !== 'POST')
      return rpcError(405, -32000, 'Method not allowed: this endpoint is stateless, send POST', { Allow: 'POST' });
    try {
      const { tools, manifest } = await load();
      const server = createServer(tools, manifest, async (tool, args) => {
        try {
          return await callApi(api, tool.toCall(args), context);
        } catch (error) {
          if (error instanceof ToolArgumentError) return { isError: true, content: [{ type: 'text', text: error.message }] };
          throw error;
        }
      });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      return await transport.handleRequest(request);
    } catch (error) {
      logError(error, request);
      return rpcError(500, -32603, 'Internal error');
    }
  };
}
