/**
 * Thousands of random paths, methods and query strings: the handler never answers 5xx, always answers the
 * contract's envelope, and never reads a file outside the generated data.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { DATA_DIR } from '../../generator/shared/data-paths.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';

let files: Map<string, string | Uint8Array>;
beforeAll(async () => {
  files = readDistFiles(await buildInto(VALID_FIXTURE));
});
afterAll(removeBuildDirs);

const segment = fc.oneof(
  fc.constantFrom(
    'v1',
    'services',
    'list',
    'get',
    'search',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%00',
    '_api',
    'manifest.json',
    '',
    'índice',
    'openapi.json',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const knownPath = fc.constantFrom(...operations.map((operation) => `/v1/${operation.path}`));
const path = fc.oneof(
  knownPath,
  knownPath.map((p) => `${p}/`),
  fc.array(segment, { maxLength: 5 }).map((parts) => `/v1/${parts.join('/')}`),
);

const paramName = fc.constantFrom('q', 'id', 'type', 'limit', 'offset', 'count', 'category', 'industry', 'topic', '_', 'x');
const paramValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '1',
    '20',
    '100',
    '101',
    '-1',
    '1e3',
    '9007199254740991',
    '9007199254740992',
    'all',
    'services',
    'neural-core',
    'RAG-EVALUATION',
    '../../package.json',
    '..',
    '%00',
    'a'.repeat(250),
  ),
  fc.string({ maxLength: 40 }),
  fc.nat().map(String),
);
const query = fc
  .array(fc.tuple(paramName, paramValue), { maxLength: 5 })
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs)}` : ''));
/** Every method Node's server accepts; those a Web Request refuses reach the handler as its adapters pass them. */
const method = fc.oneof(fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), fc.constantFrom(...http.METHODS));
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);
const headers = fc.record({
  origin: fc.boolean(),
  preflight: fc.constantFrom(null, 'GET', 'POST'),
  etag: fc.constantFrom(null, '*', 'W/"x"'),
});

describe('edge handler under random requests', () => {
  it('answers every request with a contract envelope and never 5xx', async () => {
    const reads: string[] = [];
    const memory = createMemoryAssets(files);
    const handler = createHandler({
      assets: {
        read: (file) => {
          reads.push(file);
          return memory.read(file);
        },
        readBytes: (file) => {
          reads.push(file);
          return memory.readBytes(file);
        },
      },
      limiter: createMemoryLimiter({ limit: 1e9 }),
      logError: (error) => {
        throw error;
      },
    });
    await fc.assert(
      fc.asyncProperty(path, query, method, headers, async (p, q, m, h) => {
        const init: RequestInit = { method: FORBIDDEN.has(m) ? 'GET' : m, headers: {} };
        const requestHeaders = init.headers as Record<string, string>;
        if (h.origin) requestHeaders.Origin = 'https://client.example';
        if (h.preflight) requestHeaders['Access-Control-Request-Method'] = h.preflight;
        if (h.etag) requestHeaders['If-None-Match'] = h.etag;
        const context = { ip: '192.0.2.9', ...(FORBIDDEN.has(m) ? { method: m } : {}) };
        const response = await handler(new Request(`http://api.test${p}${q}`, init), context);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get('X-Request-Id')).toBeTruthy();
        expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
        const text = await response.text();
        if (m === 'HEAD' || response.status === 304 || response.status === 204) {
          expect(text).toBe('');
          return;
        }
        const body = JSON.parse(text);
        if (response.headers.get('Content-Type') !== 'application/json; charset=utf-8') throw new Error('not JSON');
        // The OpenAPI document is plain JSON, not an envelope; URL parsing resolves `%2e%2e` segments first.
        const pathname = new URL(`http://api.test${p}`).pathname;
        if (/^\/v1\/openapi\.json\/?$/.test(pathname) && response.status === 200) return;
        if (response.status === 200) {
          expect(body.success).toBe(true);
          expect(body.meta.request_id).toBe(response.headers.get('X-Request-Id'));
        } else {
          expect(body.success).toBe(false);
          expect(Object.keys(body).sort()).toEqual(['error', 'success']);
          expect(['NOT_FOUND', 'MISSING_PARAMETER', 'INVALID_PARAMETER', 'METHOD_NOT_ALLOWED']).toContain(body.error.code);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 3000) },
    );
    expect(reads.length).toBeGreaterThan(100);
    for (const file of reads) {
      expect(file.startsWith(`${DATA_DIR}/`), file).toBe(true);
      expect(file.split('/'), file).not.toContain('..');
      expect(file).not.toMatch(/[\0\\]/);
    }
  }, 120_000);
});
