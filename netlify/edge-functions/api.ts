/**
 * Netlify Edge adapter: `/v1/*` through the shared handler, and `/mcp` through the MCP endpoint (loaded on
 * its first request, so `/v1/` isolates never load the MCP SDK). Assets are the deployed static files,
 * fetched from the site's own origin under `/_api/`, which this function does not match, so it never calls
 * itself. Both count against one rate limit.
 */
import { createFetchAssets } from '../../generator/edge/assets.ts';
import { createHandler, type Handler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { MCP_PATH } from '../../generator/shared/policy.ts';

/** One of each per isolate: they keep the manifest, the search index's parts and the rate-limit window. */
const limiter = createMemoryLimiter();
let handler: Handler | undefined;
let mcp: Promise<Handler> | undefined;

export default async function api(request: Request, context: { ip: string }): Promise<Response> {
  const assets = createFetchAssets(new URL(request.url).origin);
  if (new URL(request.url).pathname === MCP_PATH) {
    mcp ??= import('../../generator/mcp/mcp-handler.ts').then(({ createMcpHandler }) => createMcpHandler({ assets, limiter }));
    return (await mcp)(request, { ip: context.ip });
  }
  handler ??= createHandler({ assets, limiter });
  return handler(request, { ip: context.ip });
}

export const config = {
  // Literals: Netlify reads this object without running the module's imports. A test compares them with MCP_PATH.
  path: ['/v1', '/v1/*', '/mcp'],
  // Opt-in global backstop (README, "Rate limit"): Netlify counts across all edge locations but answers
  // with its own 429 body, not the API's envelope.
  // rateLimit: { windowLimit: 100, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
