/**
 * Compression for every response of the local server, whatever sends it (the handler, static files,
 * dev pages): a text body the client accepts compressed goes out as Brotli or gzip, with
 * `Vary: Accept-Encoding` and an ETag of its own. Installed once per request, before anything is written.
 */
import type http from 'node:http';
import zlib from 'node:zlib';
import { type Encoding, isCompressible, negotiateEncoding, stripEtagSuffix, suffixEtag, varyOnEncoding } from './accept-encoding.ts';

/** Smaller bodies gain nothing: they fit in one packet either way, and a compressed frame has overhead. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Fast settings: these compress per response (the largest static files are compressed by the build). */
function createCompressor(encoding: Encoding, size: number | undefined): zlib.BrotliCompress | zlib.Gzip {
  if (encoding === 'gzip') return zlib.createGzip({ level: 6 });
  const params: Record<number, number> = { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 };
  if (size) params[zlib.constants.BROTLI_PARAM_SIZE_HINT] = size;
  return zlib.createBrotliCompress({ params });
}

type WriteHead = http.ServerResponse['writeHead'];

/** Moves `writeHead`'s header argument onto the response, so every header is read from one place. */
function applyHeaderArgument(res: http.ServerResponse, args: unknown[]): unknown[] {
  const last = args[args.length - 1];
  if (last && typeof last === 'object' && !Array.isArray(last)) {
    for (const [name, value] of Object.entries(last)) if (value !== undefined) res.setHeader(name, value as string);
    return args.slice(0, -1);
  }
  return args;
}

function shouldCompress(req: http.IncomingMessage, res: http.ServerResponse, status: number): boolean {
  if (status < 200 || status === 204 || status === 206 || status === 304) return false;
  if (req.headers.range !== undefined || res.getHeader('content-encoding') !== undefined) return false;
  if (/\bno-transform\b/i.test(String(res.getHeader('cache-control') ?? ''))) return false;
  const length = res.getHeader('content-length');
  return length === undefined || Number(length) >= MIN_COMPRESSED_BYTES;
}

/**
 * Compresses what `res` sends, when `req` accepts it and the body is compressible text. Call before the
 * response is written; the request's `If-None-Match` is adjusted here so the server's validators match.
 */
export function compressResponses(req: http.IncomingMessage, res: http.ServerResponse): void {
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  // A client revalidating a compressed body sends its tag back, suffix and all; the server knows its plain tag.
  const sentTag = req.headers['if-none-match'];
  const plainTag = encoding && sentTag ? stripEtagSuffix(sentTag, encoding) : null;
  if (plainTag !== null) req.headers['if-none-match'] = plainTag;

  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  let compressor: zlib.BrotliCompress | zlib.Gzip | undefined;

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const args = applyHeaderArgument(res, rest);
    const compressible = isCompressible(res.getHeader('content-type'));
    if (compressible || (status === 304 && encoding)) res.setHeader('Vary', varyOnEncoding(res.getHeader('vary')));
    const etag = res.getHeader('etag');
    if (status === 304 && encoding) {
      // The client's copy is the compressed one: the 304 confirms its tag, not the plain one. (A static
      // file's 304 carries no tag of its own; the one the client sent is it.)
      if (typeof etag === 'string' && (plainTag !== null || sentTag?.trim() === '*')) res.setHeader('ETag', suffixEtag(etag, encoding));
      else if (etag === undefined && plainTag !== null) res.setHeader('ETag', sentTag as string);
    }
    if (encoding && compressible && shouldCompress(req, res, status)) {
      const length = res.getHeader('content-length');
      res.removeHeader('content-length');
      res.setHeader('Content-Encoding', encoding);
      if (typeof etag === 'string') res.setHeader('ETag', suffixEtag(etag, encoding));
      if (req.method !== 'HEAD') compressor = startCompressor(res, encoding, length, write, end);
    }
    return writeHead(status, ...args);
  }) as WriteHead;

  // A body given whole to end() has a known length, which decides whether it is worth compressing.
  const headersFirst = (chunk: unknown) => {
    if (res.headersSent) return;
    const whole = chunk !== undefined && chunk !== null && typeof chunk !== 'function';
    if (res.getHeader('content-length') === undefined) {
      res.setHeader('content-length', whole ? Buffer.byteLength(chunk as string | Uint8Array) : 0);
    }
    res.writeHead(res.statusCode);
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    return compressor ? compressor.write(chunk as Buffer, ...(rest as [])) : write(chunk, ...rest);
  }) as http.ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    headersFirst(chunk);
    if (!compressor) return end(chunk, ...rest);
    const callback = [chunk, ...rest].find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) res.once('finish', callback);
    if (chunk !== undefined && typeof chunk !== 'function')
      compressor.end(chunk as Buffer, (rest.find((arg) => typeof arg === 'string') ?? 'utf8') as BufferEncoding);
    else compressor.end();
    return res;
  }) as http.ServerResponse['end'];
}

/** The compressor between the sender and the socket, with backpressure both ways. */
function startCompressor(
  res: http.ServerResponse,
  encoding: Encoding,
  length: unknown,
  write: (...args: unknown[]) => boolean,
  end: (...args: unknown[]) => http.ServerResponse,
): zlib.BrotliCompress | zlib.Gzip {
  const compressor = createCompressor(encoding, length === undefined ? undefined : Number(length));
  compressor.on('data', (data: Buffer) => {
    if (!write(data)) compressor.pause();
  });
  compressor.on('end', () => end());
  compressor.on('error', (error) => res.destroy(error));
  // The socket drained: let compressed data flow again. The compressor drained: let the sender write again.
  res.on('drain', () => compressor.resume());
  compressor.on('drain', () => res.emit('drain'));
  res.once('close', () => compressor.destroy());
  return compressor;
}
