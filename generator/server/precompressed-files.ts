/**
 * The build's compressed copies of its largest static files (`x.js.br` beside `x.js`), served in place of
 * the file to a client that accepts them, with the file's own type and the headers its path gets.
 */
import { createReadStream, statSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { type HeaderRule, headersFor } from '../shared/header-rules.ts';
import type { Overlay } from './build-files.ts';
import { PRECOMPRESSED_EXTENSIONS, PRECOMPRESSED_TYPES } from '../shared/precompressed.ts';
import { ETAG_SUFFIX, negotiateEncoding, stripEtagSuffix, varyOnEncoding } from './accept-encoding.ts';

/** Only names the build writes: plain segments, no dot-dot, nothing to decode. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

function storedCopy(dir: string, pathname: string, extension: string) {
  if (!PLAIN_PATH.test(pathname) || pathname.includes('/..')) return null;
  try {
    const stats = statSync(path.join(dir, `${pathname}${extension}`));
    return stats.isFile() ? { file: path.join(dir, `${pathname}${extension}`), stats } : null;
  } catch {
    return null;
  }
}

/**
 * Sends the stored compressed copy of `pathname` when there is one and the client accepts its encoding;
 * false otherwise (the caller serves the file as usual). A range request gets the plain file.
 */
export function servePrecompressed(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  build: { dir: string; rules: readonly HeaderRule[]; overlay?: Overlay | undefined },
): boolean {
  // A file npm run dev changed is served from its overlay (build-files.ts), which holds no stored copies.
  const key = pathname.slice(1);
  if (build.overlay && [key, `${key}.br`, `${key}.gz`].some((file) => build.overlay!.has(file))) return false;
  const type = PRECOMPRESSED_TYPES[path.extname(pathname)];
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  if (!type || !encoding || req.headers.range !== undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const copy = storedCopy(build.dir, pathname, PRECOMPRESSED_EXTENSIONS[encoding]);
  if (!copy) return false;
  const plainTag = `"${copy.stats.size.toString(16)}-${Math.floor(copy.stats.mtimeMs).toString(16)}"`;
  for (const [name, value] of Object.entries(headersFor(build.rules, pathname))) res.setHeader(name, value);
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Vary', varyOnEncoding(res.getHeader('vary')));
  res.setHeader('ETag', `${plainTag.slice(0, -1)}${ETAG_SUFFIX[encoding]}"`);
  const sent = req.headers['if-none-match'];
  // compressResponses may already have taken the suffix off; either form matches.
  if (sent !== undefined && [sent, stripEtagSuffix(sent, encoding)].some((tag) => tag?.split(',').some((t) => t.trim() === plainTag))) {
    res.writeHead(304);
    res.end();
    return true;
  }
  res.setHeader('Content-Length', copy.stats.size);
  res.writeHead(200);
  if (req.method === 'HEAD') res.end();
  else
    createReadStream(copy.file)
      .on('error', (error) => res.destroy(error))
      .pipe(res);
  return true;
}
