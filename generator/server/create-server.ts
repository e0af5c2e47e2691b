/**
 * The local server: `/v1/` through the edge handler, everything else as static files from the build,
 * with the content types serve-handler knows. It serves each build as one unit (served-builds.ts): a
 * request reads one build from start to end, and a build written while the server runs (or offered by
 * `npm run dev`'s builder) is picked up by the next request, with no restart.
 */
import http from 'node:http';
import { createHandler, type Handler, type HandlerOptions } from '../edge/handler.ts';
import { createMemoryLimiter, type RateLimiter } from '../edge/limiter.ts';
import { HEADERS_FILE, type HeaderRule, parseHeaderRules } from '../shared/header-rules.ts';
import { API_BASE_PATH, MCP_PATH } from '../shared/policy.ts';
import { type BuildFiles, readBuildFileSync } from './build-files.ts';
import type { ServerAccess } from './dev/dev-access.ts';
import { createFileAssets } from './file-assets.ts';
import { compressResponses } from './compression.ts';
import { answerConnect, serveApi, serveMcp, targetPath } from './node-adapter.ts';
import { servePrecompressed } from './precompressed-files.ts';
import type { LiveReload } from './dev/live-reload.ts';
import { type BuildFeed, createFeedSource, createFolderSource } from './served-builds.ts';
import { STOPPING } from './run-server.ts';
import { serveStatic } from './static-files.ts';

export interface ServerOptions {
  /** The build folder to serve (`npm run serve`); or `builds`. */
  dist?: string;
  /** `npm run dev` only: the builds its builder offers, each a folder plus an overlay of changed files. */
  builds?: BuildFeed;
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
  /** `npm run dev` only: who is answered, and what other origins may read (dev-access.ts). */
  access?: ServerAccess;
}

/** What the server makes of one build: its handler (with its own file cache and search index) and its header rules. */
interface BuildServer {
  handler: Handler;
  /** The MCP endpoint's handler, made on the first request to it (it loads the MCP SDK). */
  mcp: () => Promise<Handler>;
  rules: HeaderRule[];
}

/** The build's header rules; a build without the file gets none. */
function readHeaderRules(files: BuildFiles): HeaderRule[] {
  const bytes = readBuildFileSync(files, HEADERS_FILE);
  return bytes ? parseHeaderRules(Buffer.from(bytes).toString('utf8')) : [];
}

function refuse(res: http.ServerResponse): void {
  const text = 'Forbidden: this development server answers requests to localhost only.';
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** `npm run dev` before its first good build. */
function notYet(res: http.ServerResponse): void {
  const text = 'The first build is not ready yet (or has problems; see the terminal). Try again in a moment.';
  res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'retry-after': '1' });
  res.end(text);
}

const isApiPath = (url: string) => url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith(`${API_BASE_PATH}?`);

/** What the server makes of one build: its handler (with its own file cache and search index), the MCP endpoint's, the header rules. */
function prepareBuild(files: BuildFiles, options: ServerOptions, limiter: RateLimiter): BuildServer {
  const access = options.access;
  const assets = createFileAssets(files);
  let mcp: Promise<Handler> | undefined;
  const handler = createHandler({ assets, ...options.handler, limiter });
  const rules = readHeaderRules(files);
  return {
    handler: access ? access.handler(handler) : handler,
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
    rules: access ? access.rules(rules) : rules,
  };
}

export function createServer(options: ServerOptions): http.Server {
  // One count for every build: a new build does not give clients a new budget.
  const access = options.access;
  const shared = options.handler?.limiter ?? createMemoryLimiter();
  const limiter = access ? access.limiter(shared) : shared;
  const prepare = (files: BuildFiles) => prepareBuild(files, options, limiter);
  const builds = options.builds ? createFeedSource(options.builds, prepare) : createFolderSource(options.dist ?? 'dist', prepare);
  const hops = options.trustedProxies ?? 0;
  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    if (access && !access.allows(req)) return refuse(res);
    const target = targetPath(req.url);
    res.on('finish', () => {
      const ms = (performance.now() - started).toFixed(1);
      options.log?.(
        `${req.method} ${JSON.stringify(req.url ?? '').slice(1, -1)} ${res.statusCode} ${ms}ms ${res.getHeader('x-request-id') ?? '-'}`,
      );
    });
    compressResponses(req, res);
    const build = builds.acquire();
    if (!build) return notYet(res);
    // Released when the response is over, not when the handler returns: a static file is still being streamed
    // from the build's snapshot after serveStatic resolves, and a snapshot is removed once nothing holds it.
    res.once('close', () => builds.release(build));
    try {
      if (isApiPath(target)) await serveApi(build.value.handler, req, res, hops);
      else if (target.split('?')[0] === MCP_PATH) await serveMcp(await build.value.mcp(), req, res, hops);
      else if (
        !servePrecompressed(req, res, target.split('?')[0]!, {
          dir: build.files.dir,
          rules: build.value.rules,
          overlay: build.files.overlay,
        })
      )
        await serveStatic(req, res, target, { files: build.files, rules: build.value.rules, liveReload: options.liveReload });
    } catch (error) {
      // The handler turns its own errors into responses; this is the static side failing on our side.
      console.error('server error', error instanceof Error ? error.message : error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal server error');
    }
  });
  server.on('connect', (req, socket) => {
    if (access && !access.allows(req)) return socket.destroy();
    const build = builds.acquire();
    if (!build) return socket.destroy();
    answerConnect(build.value.handler, req, socket, hops)
      .catch(() => socket.destroy())
      .finally(() => builds.release(build));
  });
  server.once(STOPPING, () => builds.close());
  server.once('close', () => builds.close());
  return server;
}
