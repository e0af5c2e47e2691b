/**
 * The local server: `/v1/` through the edge handler, everything else as static files from the build,
 * with the content types serve-handler knows.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { createHandler, type Handler, type HandlerOptions } from '../edge/handler.ts';
import { createFileAssets } from './file-assets.ts';
import { HEADERS_FILE, headersFor, parseHeaderRules, type HeaderRule } from '../shared/header-rules.ts';
import { API_BASE_PATH } from '../shared/policy.ts';

export interface ServerOptions {
  dist: string;
  /** Take the client address from the first X-Forwarded-For entry (only behind a proxy you trust). */
  trustProxy?: boolean;
  /** One line per request; silent when omitted. */
  log?: (line: string) => void;
  /** Overrides for the handler (a limiter, a clock, search), as tests need. */
  handler?: Partial<HandlerOptions>;
}

function clientAddress(request: http.IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? request.headers['x-forwarded-for'] : undefined;
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || request.socket.remoteAddress || 'unknown';
}

function toWebRequest(request: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // The API reads no request body; the URL's host is irrelevant to routing.
  return new Request(new URL(request.url ?? '/', 'http://localhost'), { method: request.method, headers });
}

async function sendWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  const body = response.body ? await response.text() : undefined;
  if (body !== undefined) res.setHeader('content-length', Buffer.byteLength(body));
  res.writeHead(response.status);
  res.end(body);
}

const isApiPath = (url: string) => url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith(`${API_BASE_PATH}?`);

/** The build's header rules; a build without the file gets none. */
function readHeaderRules(dist: string): HeaderRule[] {
  try {
    return parseHeaderRules(readFileSync(path.join(dist, HEADERS_FILE), 'utf8'));
  } catch {
    return [];
  }
}

/** A static file, with the headers the build's `_headers` gives its path; the rules file itself is not served. */
async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, dist: string, rules: readonly HeaderRule[]) {
  const pathname = (req.url ?? '/').split('?')[0]!;
  for (const [name, value] of Object.entries(headersFor(rules, pathname))) res.setHeader(name, value);
  if (pathname === `/${HEADERS_FILE}`) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found');
    return;
  }
  await serveHandler(req, res, { public: dist, directoryListing: false, etag: true });
}

export function createServer(options: ServerOptions): http.Server {
  const handler: Handler = createHandler({ assets: createFileAssets(options.dist), ...options.handler });
  const rules = readHeaderRules(options.dist);
  return http.createServer(async (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    res.on('finish', () => {
      const ms = (performance.now() - started).toFixed(1);
      options.log?.(`${req.method} ${url} ${res.statusCode} ${ms}ms ${res.getHeader('x-request-id') ?? '-'}`);
    });
    try {
      if (isApiPath(url)) {
        const response = await handler(toWebRequest(req), { ip: clientAddress(req, options.trustProxy ?? false) });
        await sendWebResponse(response, res);
      } else {
        await serveStatic(req, res, options.dist, rules);
      }
    } catch (error) {
      // The handler turns its own errors into responses; this is the static side failing.
      console.error('server error', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal server error');
    }
  });
}
