/**
 * The local server: `/v1/` through the edge handler, everything else as static files from the build,
 * with the content types serve-handler knows.
 */
import http from 'node:http';
import { createHandler, type Handler, type HandlerOptions } from '../edge/handler.ts';
import { API_BASE_PATH } from '../shared/policy.ts';
import { createFileAssets } from './file-assets.ts';
import { answerConnect, serveApi, targetPath } from './node-adapter.ts';
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
}

const isApiPath = (url: string) => url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith(`${API_BASE_PATH}?`);

export function createServer(options: ServerOptions): http.Server {
  const handler: Handler = createHandler({ assets: createFileAssets(options.dist), ...options.handler });
  const rules = readHeaderRules(options.dist);
  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    const target = targetPath(req.url);
    res.on('finish', () => {
      const ms = (performance.now() - started).toFixed(1);
      options.log?.(
        `${req.method} ${JSON.stringify(req.url ?? '').slice(1, -1)} ${res.statusCode} ${ms}ms ${res.getHeader('x-request-id') ?? '-'}`,
      );
    });
    try {
      if (isApiPath(target)) await serveApi(handler, req, res, options.trustedProxies ?? 0);
      else await serveStatic(req, res, target, options.dist, rules);
    } catch (error) {
      // The handler turns its own errors into responses; this is the static side failing on our side.
      console.error('server error', error instanceof Error ? error.message : error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal server error');
    }
  });
  server.on('connect', (req, socket) => {
    answerConnect(handler, req, socket, options.trustedProxies ?? 0).catch(() => socket.destroy());
  });
  return server;
}
