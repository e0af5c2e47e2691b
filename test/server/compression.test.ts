/**
 * The local server compresses what a client accepts compressed: the API, pages, scripts and the build's
 * stored copies of its largest files, with `Vary`, an ETag per representation, HEAD and 304 right. Read
 * over real HTTP with node:http, which (unlike fetch) shows the bytes as sent.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { negotiateEncoding } from '../../generator/server/accept-encoding.ts';
import { BUILD_ENV } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS } from '../helpers/addresses.ts';

const site = servedBuild({ contentDir: VALID_FIXTURE, env: BUILD_ENV });

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${site.server.url}${pathname}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(response: Raw): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.body).toString('utf8');
  return response.body.toString('utf8');
}

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP;Q=1, BR;q=0.9', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
    ['deflate', null],
  ])('%j -> %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressed responses', () => {
  const paths = ['/v1/services/list', '/', ADDRESS.hub, '/v1/openapi.json', ADDRESS.rss];

  it.each(paths)('%s: Brotli, gzip or none as asked, the same text each way, Vary on all three', async (pathname) => {
    const plain = await request(pathname);
    const br = await request(pathname, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await request(pathname, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const response of [plain, br, gzip]) {
      expect(response.status).toBe(200);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
    }
    expect(br.body.length).toBeLessThan(plain.body.length);
    const text = decode(plain).replace(/"(?:timestamp|request_id|processing_time_ms)":[^,}]+/g, '');
    expect(decode(br).replace(/"(?:timestamp|request_id|processing_time_ms)":[^,}]+/g, '')).toBe(text);
    expect(decode(gzip).replace(/"(?:timestamp|request_id|processing_time_ms)":[^,}]+/g, '')).toBe(text);
    // Each representation has its own validator.
    const tags = new Set([plain, br, gzip].map((response) => response.headers.etag));
    expect(tags.size).toBe(3);
    expect(br.headers.etag).toMatch(/-br"$/);
    expect(br.headers['content-length']).toBeUndefined();
  });

  it('a compressed ETag sent back gets 304 with that ETag and Vary, no body; a stale one gets the body', async () => {
    for (const pathname of ['/v1/services/list', '/']) {
      const first = await request(pathname, { 'accept-encoding': 'br' });
      const again = await request(pathname, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.vary).toMatch(/accept-encoding/i);
      // The gzip tag does not validate a Brotli body.
      const gzipTag = first.headers.etag!.replace(/-br"$/, '-gz"');
      expect((await request(pathname, { 'accept-encoding': 'br', 'if-none-match': gzipTag })).status).toBe(200);
      expect((await request(pathname, { 'accept-encoding': 'br', 'if-none-match': '"nothing-br"' })).status).toBe(200);
    }
  });

  it('HEAD has the headers GET has, and no body', async () => {
    for (const pathname of ['/v1/services/list', '/', `${ADDRESS.admin}decap-cms.js`]) {
      const get = await request(pathname, { 'accept-encoding': 'br' });
      const head = await request(pathname, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['content-encoding', 'content-type', 'vary', 'etag'])
        expect([pathname, name, head.headers[name]]).toEqual([pathname, name, get.headers[name]]);
    }
  });

  it('small bodies and range requests go out as they are', async () => {
    const small = await request('/v1/health', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/accept-encoding/i);
    const robots = await request(ADDRESS.robots, { 'accept-encoding': 'br' });
    expect(robots.headers['content-encoding']).toBeUndefined();
    const range = await request('/', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.length).toBe(10);
  });

  it('the largest static files are served from the copies the build compressed, with their own type', async () => {
    const plain = await request(`${ADDRESS.admin}decap-cms.js`);
    for (const [accept, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const compressed = await request(`${ADDRESS.admin}decap-cms.js`, { 'accept-encoding': accept! });
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers['content-type']).toMatch(/^text\/javascript/);
      expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
      expect(compressed.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
      expect(decode(compressed) === plain.body.toString('utf8')).toBe(true);
      const again = await request(`${ADDRESS.admin}decap-cms.js`, {
        'accept-encoding': accept!,
        'if-none-match': compressed.headers.etag!,
      });
      expect(again.status).toBe(304);
    }
    // The stored copies are not a page of their own kind: asked for by name, they are plain files.
    expect(plain.body.length).toBeGreaterThan(1_000_000);
  });
});
