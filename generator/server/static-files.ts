/**
 * The static side of the local server: the build's files with the headers its `_headers` gives them (as on
 * the deploy), and a clean 400 or 404 for a path no file can have.
 */
import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { HEADERS_FILE, type HeaderRule, headersFor, parseHeaderRules } from '../shared/header-rules.ts';
import type { LiveReload } from './live-reload.ts';

/** The build's header rules; a build without the file gets none. */
export function readHeaderRules(dist: string): HeaderRule[] {
  try {
    return parseHeaderRules(readFileSync(path.join(dist, HEADERS_FILE), 'utf8'));
  } catch {
    return [];
  }
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A path that decodes to a NUL or does not decode at all names no file. */
function isServablePath(pathname: string): boolean {
  try {
    return !decodeURIComponent(pathname).includes('\0');
  } catch {
    return false;
  }
}

/** A page of the build (`/x/` or `/x.html`), with the live-reload script added; false when there is none. */
function sendDevPage(res: http.ServerResponse, dir: string, pathname: string, liveReload: LiveReload): boolean {
  if (!pathname.endsWith('/') && !pathname.endsWith('.html')) return false;
  const file = path.join(dir, decodeURIComponent(pathname), pathname.endsWith('/') ? 'index.html' : '');
  if (!file.startsWith(`${dir}${path.sep}`) || !existsSync(file)) return false;
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') res.setHeader('Content-Security-Policy', liveReload.allow(csp));
  const body = liveReload.inject(readFileSync(file, 'utf8'));
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
  return true;
}

/**
 * A static file, with the headers the build's `_headers` gives its path; the rules file itself is not served.
 * With `liveReload` (npm run dev), pages carry the reload script and its event stream is answered.
 */
export async function serveStatic(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathAndQuery: string,
  build: { dir: string; rules: readonly HeaderRule[]; liveReload?: LiveReload | undefined },
) {
  const pathname = pathAndQuery.split('?')[0]!;
  if (!isServablePath(pathname)) return sendText(res, 400, 'Bad request: the path is not a valid file path.');
  if (build.liveReload?.serve(pathname, res)) return;
  for (const [name, value] of Object.entries(headersFor(build.rules, pathname))) res.setHeader(name, value);
  if (pathname === `/${HEADERS_FILE}`) return sendText(res, 404, 'Not found');
  if (build.liveReload && sendDevPage(res, path.resolve(build.dir), pathname, build.liveReload)) return;
  req.url = pathAndQuery;
  await serveHandler(req, res, { public: build.dir, directoryListing: false, etag: true });
}
