/**
 * The local server: `/v1/` through the edge handler, everything else as static files from the build,
 * with the content types serve-handler knows. It serves each build as one unit (served-builds.ts): a
 * request reads one build from start to end, and a build written while the server runs is picked up by
 * the next request, with no restart.
 */
import http from 'node:http';
import { createHandler, type Handler, type HandlerOptions } from '../edge/handler.ts';
import { createMemoryLimiter } from '../edge/limiter.ts';
import type { HeaderRule } from '../shared/header-rules.ts';
import { API_BASE_PATH, MCP_PATH } from '../shared/policy.ts';
import { createFileAssets } from './file-assets.ts';
import { compressResponses } from './compression.ts';
import { answerConnect, serveApi, serveMcp, targetPath } from './node-adapter.ts';
import { servePrecompressed } from './precompressed-files.ts';
import type { LiveReload } from './live-reload.ts';
import { createBuildSource, type SnapshotFeed } from './served-builds.ts';
import { readHeaderRules, serveStatic } from './static-files.ts';

export interface ServerOptions {
  dist: string;
  /**
   * Proxies in front of this server that append to X-Forwarded-For (TRUST_PROXY); the client is the entry
   * that many places from the right. 0, the default, counts the socket's address.
   */
  trustedProxies?: number;
  /** One line per request; silent when omitted. */
  log?: (line: string) => void;
  /** Overrides for the handler (a limiter, a clock, search), as tests need. */
  handler?: Partial<HandlerOptions>;
  /** The MCP endpoint's deadline, shorter in tests (MCP_POLICY.deadlineMs by default). */
  mcpDeadlineMs?: number;
  /** `npm run dev` only: pages reload themselves when a new build is served. */
  liveReload?: LiveReload;
  /** `npm run dev` only: its build thread makes and removes the snapshots the server reads builds from. */
  snapshots?: SnapshotFeed;
}

/** What the server makes of one build: its handler (with its own file cache and search index) and its header rules. */
interface BuildServer {
  handler: Handler;
  /** The MCP endpoint's handler, made on the first request to it (it loads the MCP SDK). */
  mcp: () => Promise<Handler>;
  rules: HeaderRule[];
}

const isApiPath = (url: string) => url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith(`${API_BASE_PATH}?`);

export function createServer(options: ServerOptions): http.Server {
  // One count for every build: a new build does not give clients a new budget.
  const limiter = options.handler?.limiter ?? createMemoryLimiter();
  const builds = createBuildSource<BuildServer>(
    options.dist,
    (dir) => {
      const assets = createFileAssets(dir);
      let mcp: Promise<Handler> | undefined;
      return {
        handler: createHandler({ assets, ...options.handler, limiter }),
        mcp: () => {
          mcp ??= import('../mcp/mcp-handler.ts').then(({ createMcpHandler }) =>
            createMcpHandler({
              assets,
              limiter,
              clock: options.handler?.clock,
              logError: options.handler?.logError,
              deadlineMs: options.mcpDeadlineMs,
            }),
          );
          return mcp;
        },
        rules: readHeaderRules(dir),
      };
    },
    options.snapshots,
  );
  const hops = options.trustedProxies ?? 0;
  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    const target = targetPath(req.url);
    res.on('finish', () => {
      const ms = (performance.now() - started).toFixed(1);
      options.log?.(
        `${req.method} ${JSON.stringify(req.url ?? '').slice(1, -1)} ${res.statusCode} ${ms}ms ${res.getHeader('x-request-id') ?? '-'}`,
      );
    });
    compressResponses(req, res);
    const build = builds.acquire();
    // Released when the response is over, not when the handler returns: a static file is still being streamed
    // from the build's snapshot after serveStatic resolves, and a snapshot is removed once nothing holds it.
    res.once('close', () => builds.release(build));
    try {
      if (isApiPath(target)) await serveApi(build.value.handler, req, res, hops);
      else if (target.split('?')[0] === MCP_PATH) await serveMcp(await build.value.mcp(), req, res, hops);
      else if (!servePrecompressed(req, res, target.split('?')[0]!, { dir: build.dir, rules: build.value.rules }))
        await serveStatic(req, res, target, { dir: build.dir, rules: build.value.rules, liveReload: options.liveReload });
    } catch (error) {
      // The handler turns its own errors into responses; this is the static side failing on our side.
      console.error('server error', error instanceof Error ? error.message : error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal server error');
    }
  });
  server.on('connect', (req, socket) => {
    const build = builds.acquire();
    answerConnect(build.value.handler, req, socket, hops)
      .catch(() => socket.destroy())
      .finally(() => builds.release(build));
  });
  server.on('close', () => builds.close());
  return server;
}
