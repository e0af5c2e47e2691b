/**
 * The static side of the local server: the build's files with the headers its `_headers` gives them (as on
 * the deploy), and a clean 400 or 404 for a path no file can have.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { HEADERS_FILE, type HeaderRule, headersFor, parseHeaderRules } from '../shared/header-rules.ts';

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

/** A static file, with the headers the build's `_headers` gives its path; the rules file itself is not served. */
export async function serveStatic(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathAndQuery: string,
  dist: string,
  rules: readonly HeaderRule[],
) {
  const pathname = pathAndQuery.split('?')[0]!;
  if (!isServablePath(pathname)) return sendText(res, 400, 'Bad request: the path is not a valid file path.');
  for (const [name, value] of Object.entries(headersFor(rules, pathname))) res.setHeader(name, value);
  if (pathname === `/${HEADERS_FILE}`) return sendText(res, 404, 'Not found');
  req.url = pathAndQuery;
  await serveHandler(req, res, { public: dist, directoryListing: false, etag: true });
}
