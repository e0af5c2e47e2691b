/**
 * The MCP protocol side of one request: the official SDK's low-level server (initialize, ping, the tool
 * list and tool calls) behind its Web-standard transport, stateless with JSON responses. The low-level
 * server rather than McpServer: the tool list is fixed for a build, so the server says `listChanged: false`,
 * and the schemas and argument checks are this folder's own (plain JSON Schema, plain-word errors).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Manifest } from '../shared/manifest.ts';
import { argumentsProblem, checkArguments, ToolArgumentError, type ToolDefinition } from './tools.ts';

export type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export interface McpSite {
  tools: readonly ToolDefinition[];
  manifest: Manifest;
  /** Runs one call with checked arguments. */
  run(tool: ToolDefinition, args: Record<string, unknown>): Promise<ToolResult>;
}

function createServer(site: McpSite): Server {
  const server = new Server(
    { name: `${new URL(site.manifest.site_url).hostname} catalogue`, version: site.manifest.api_version },
    {
      // A stateless endpoint never sends a notification, and the tools change only with a new deploy.
      capabilities: { tools: { listChanged: false } },
      instructions: 'Read-only catalogue of services, expertise areas, technologies and articles. Start with search.',
    },
  );
  const listed = site.tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = site.tools.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; tools: ${site.tools.map((t) => t.name).join(', ')}.`,
      );
    try {
      return await site.run(tool, checkArguments(tool, request.params.arguments));
    } catch (error) {
      // Wrong arguments are the tool's answer, so that the agent can read it and try again (MCP's advice).
      if (error instanceof ToolArgumentError) return { isError: true, content: [{ type: 'text', text: error.message }] };
      throw error;
    }
  });
  return server;
}

/**
 * Why a `tools/call` message cannot reach the SDK, whose own check would answer with its validator's dump:
 * in plain words, or null when it is well formed.
 */
export function toolCallProblem(message: { params?: unknown }): string | null {
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return 'tools/call needs params: {"name", "arguments"}.';
  if (typeof params.name !== 'string') return 'tools/call needs the tool\'s "name" as text.';
  const problem = argumentsProblem(params.arguments);
  if (problem) return problem;
  const checked = CallToolRequestSchema.safeParse(message);
  if (checked.success) return null;
  const issue = checked.error.issues[0]!;
  return `tools/call: "${issue.path.join('.')}" is not valid (${issue.message}).`;
}

/** Answers one JSON-RPC request (already read, parsed and counted) as the SDK's transport does. */
export async function answerRequest(site: McpSite, request: Request, message: unknown): Promise<{ response: Response; close(): void }> {
  const server = createServer(site);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const close = () => {
    server.close().catch(() => {});
  };
  return { response: await transport.handleRequest(request, { parsedBody: message }), close };
}
