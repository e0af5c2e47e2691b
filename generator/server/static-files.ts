/**
 * The static side of the local server: the build's files with the headers its `_headers` gives them (as on
 * the deploy), and a clean 400 or 404 for a path no file can have. The path is decoded and normalised once,
 * before the header rules are chosen and before the file is: the rules and the file always agree, however
 * the path was spelt (`/%69mages/x.svg` is `/images/x.svg`, with its sandbox).
 */
import type http from 'node:http';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { HEADERS_FILE, type HeaderRule, headersFor } from '../shared/header-rules.ts';
import { type BuildFiles, isBuildFolder, overlayMethods, readBuildFileSync } from './build-files.ts';
import type { LiveReload } from './dev/live-reload.ts';

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The request path decoded once, `.` and `..` resolved within the root and empty segments dropped, with a
 * trailing slash kept: `/%69mages//a/../x.svg` -> `/images/x.svg`. Null when it does not decode or holds a NUL.
 */
export function normalisePath(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments: string[] = [];
  const parts = decoded.split('/');
  for (const part of parts) {
    if (part === '..') segments.pop();
    else if (part !== '' && part !== '.') segments.push(part);
  }
  const last = parts.at(-1);
  const folder = segments.length > 0 && (last === '' || last === '.' || last === '..');
  return `/${segments.join('/')}${folder ? '/' : ''}`;
}

/** A decoded path spelt again for a URL (what serve-handler and a Location header read). */
const encodePath = (pathname: string) => pathname.split('/').map(encodeURIComponent).join('/');

/** Files of the build that are its own records, not the site: the header rules, and anything hidden. */
const isRecord = (pathname: string) => pathname === `/${HEADERS_FILE}` || pathname.split('/').some((segment) => segment.startsWith('.'));

/** A folder asked for without its slash: the address its pages are at, so their relative links and header rules hold. */
const isFolder = (files: BuildFiles, pathname: string) => !pathname.endsWith('/') && isBuildFolder(files, pathname.slice(1));

/** A page of the build (`/x/` or `/x.html`), with the live-reload script added; false when there is none. */
function sendDevPage(res: http.ServerResponse, files: BuildFiles, pathname: string, liveReload: LiveReload): boolean {
  if (!pathname.endsWith('/') && !pathname.endsWith('.html')) return false;
  const dir = path.resolve(files.dir);
  const file = path.join(dir, pathname, pathname.endsWith('/') ? 'index.html' : '');
  if (!file.startsWith(`${dir}${path.sep}`)) return false;
  const page = readBuildFileSync(files, path.relative(dir, file).split(path.sep).join('/'));
  if (page === null) return false;
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') res.setHeader('Content-Security-Policy', liveReload.allow(csp));
  const body = liveReload.inject(Buffer.from(page).toString('utf8'));
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
  build: { files: BuildFiles; rules: readonly HeaderRule[]; liveReload?: LiveReload | undefined },
) {
  const [raw = '/', query] = pathAndQuery.split(/\?(.*)/s);
  const pathname = normalisePath(raw);
  if (pathname === null) return sendText(res, 400, 'Bad request: the path is not a valid file path.');
  if (build.liveReload?.serve(pathname, res)) return;
  for (const [name, value] of Object.entries(headersFor(build.rules, pathname))) res.setHeader(name, value);
  if (isRecord(pathname)) return sendText(res, 404, 'Not found');
  if (isFolder(build.files, pathname)) {
    res.writeHead(301, { location: `${encodePath(`${pathname}/`)}${query === undefined ? '' : `?${query}`}`, 'content-length': 0 });
    return res.end();
  }
  if (build.liveReload && sendDevPage(res, build.files, pathname, build.liveReload)) return;
  req.url = `${encodePath(pathname)}${query === undefined ? '' : `?${query}`}`;
  const methods = overlayMethods(build.files) as Parameters<typeof serveHandler>[3];
  await serveHandler(req, res, { public: build.files.dir, directoryListing: false, etag: true }, methods);
}
