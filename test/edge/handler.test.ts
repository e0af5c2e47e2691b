/**
 * docs/api.md, line by line, against the edge handler: in memory and, unchanged, behind the local Node
 * server over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generator/schemas/collections.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { runtimes, type ApiClient } from '../helpers/api-runtimes.ts';

let dist: string;
beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
});
afterAll(removeBuildDirs);

type Json = any;

async function json(response: Response): Promise<Json> {
  return JSON.parse(await response.text());
}

function expectErrorEnvelope(body: Json, code: string, parameter?: string) {
  expect(body.success).toBe(false);
  expect(body).not.toHaveProperty('meta');
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.error.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
  if (parameter) expect(body.error.parameter).toBe(parameter);
  else expect(body.error).not.toHaveProperty('parameter');
}

describe.each(runtimes)('edge handler ($name)', (runtime) => {
  let api: ApiClient;
  const NOW = Date.parse('2026-11-20T10:00:00.000Z');
  beforeAll(async () => {
    // A generous limiter: the rate limit has its own suite below.
    api = await runtime.start(dist, { limiter: createMemoryLimiter({ limit: 1_000_000 }), clock: () => NOW });
  });
  afterAll(() => api.close());

  const get = async (path: string, init?: RequestInit) => {
    const response = await api.request(path, init);
    return { response, body: response.status === 304 || init?.method === 'HEAD' ? null : await json(response) };
  };

  describe('addresses', () => {
    it('answers every operation of the route table', async () => {
      for (const operation of operations) {
        const query = operation.params.some((param) => param.name === 'id') ? '?id=mcp-server-development' : '';
        if (operation.kind === 'search' || operation.kind === 'openapi') continue;
        const path =
          operation.collection === 'intelligence' && operation.kind === 'get'
            ? '/v1/intelligence/get?id=rag-evaluation'
            : operation.collection === 'expertise' && operation.kind === 'get'
              ? '/v1/expertise/get?id=agent-ready-product-data-retail'
              : operation.collection === 'technology' && operation.kind === 'get'
                ? '/v1/technology/get?id=llm-gateway'
                : `/v1/${operation.path}${query}`;
        const { response, body } = await get(path);
        expect(response.status, path).toBe(200);
        expect(body.success, path).toBe(true);
      }
    });

    it('serves the index at /v1 and /v1/', async () => {
      for (const path of ['/v1', '/v1/']) {
        const { response, body } = await get(path);
        expect(response.status).toBe(200);
        expect(body.data.version).toBe('1.3.0');
        expect(body.data.operations.map((op: Json) => op.path)).toContain('/v1/services/list');
      }
    });

    it('ignores a trailing slash', async () => {
      const plain = await get('/v1/services/list');
      const slashed = await get('/v1/services/list/');
      expect(slashed.response.status).toBe(200);
      expect(slashed.body.data).toEqual(plain.body.data);
    });

    it('treats paths as case-sensitive and answers any unknown path with 404 NOT_FOUND', async () => {
      for (const path of [
        '/v1/Services/list',
        '/v1/nope',
        '/v1/services',
        '/v1/services/list/extra',
        '/v1/services//list',
        '/v1/health.json',
        '/v1/services/list//',
      ]) {
        const { response, body } = await get(path);
        expect(response.status, path).toBe(404);
        expectErrorEnvelope(body, 'NOT_FOUND');
      }
    });
  });

  describe('parameters', () => {
    it('counts an empty value as absent', async () => {
      const { body } = await get('/v1/services/list?limit=&offset=&category=');
      expect(body.meta.pagination).toMatchObject({ limit: 20, offset: 0, total: 2 });
    });

    it('rejects a parameter given twice', async () => {
      const { response, body } = await get('/v1/services/list?limit=1&limit=2');
      expect(response.status).toBe(400);
      expectErrorEnvelope(body, 'INVALID_PARAMETER', 'limit');
    });

    it('ignores unknown parameters such as cache busters', async () => {
      const { response, body } = await get('/v1/services/list?_=123&foo=bar');
      expect(response.status).toBe(200);
      expect(body.data).toHaveLength(2);
    });

    it.each(['1.0', '+1', '-1', '1e2', ' 1', '1 ', '0x10', 'ten', '٣', '0', '101', '99999999999999999999999'])(
      'rejects limit=%j',
      async (value) => {
        const { response, body } = await get(`/v1/services/list?limit=${encodeURIComponent(value)}`);
        expect(response.status).toBe(400);
        expectErrorEnvelope(body, 'INVALID_PARAMETER', 'limit');
        expect(body.error.message).toContain('1 to 100');
      },
    );

    it('accepts limit 1 and 100, and leading zeros as plain digits', async () => {
      expect((await get('/v1/services/list?limit=1')).body.data).toHaveLength(1);
      expect((await get('/v1/services/list?limit=100')).body.meta.pagination.limit).toBe(100);
      expect((await get('/v1/services/list?limit=001')).body.meta.pagination.limit).toBe(1);
    });

    it('accepts the largest offset and refuses one past it', async () => {
      const max = await get('/v1/intelligence/list?offset=9007199254740991');
      expect(max.response.status).toBe(200);
      expect(max.body.data).toEqual([]);
      expect(max.body.meta.pagination).toEqual({ total: 2, limit: 20, offset: 9007199254740991, has_more: false });
      const over = await get('/v1/intelligence/list?offset=9007199254740992');
      expect(over.response.status).toBe(400);
      expectErrorEnvelope(over.body, 'INVALID_PARAMETER', 'offset');
      const negative = await get('/v1/intelligence/list?offset=-1');
      expectErrorEnvelope(negative.body, 'INVALID_PARAMETER', 'offset');
    });

    it('takes count from 1 to 20 on the latest articles', async () => {
      expect((await get('/v1/intelligence/latest')).body.data).toHaveLength(2);
      expect((await get('/v1/intelligence/latest?count=1')).body.data).toHaveLength(1);
      expect((await get('/v1/intelligence/latest?count=20')).response.status).toBe(200);
      for (const value of ['0', '21', 'x', '5.0']) {
        const { response, body } = await get(`/v1/intelligence/latest?count=${value}`);
        expect(response.status).toBe(400);
        expectErrorEnvelope(body, 'INVALID_PARAMETER', 'count');
        expect(body.error.message).toContain('1 to 20');
      }
    });

    it('matches enumerated filters case-insensitively after trimming', async () => {
      const { response, body } = await get('/v1/services/list?category=%20Growth-MARKETING%20');
      expect(response.status).toBe(200);
      expect(body.data.map((item: Json) => item.id)).toEqual(['technical-seo-audit']);
      expect(body.data.every((item: Json) => item.category === 'growth-marketing')).toBe(true);
    });

    it('rejects an unknown filter value and lists the allowed values', async () => {
      const { response, body } = await get('/v1/expertise/list?industry=mining');
      expect(response.status).toBe(400);
      expectErrorEnvelope(body, 'INVALID_PARAMETER', 'industry');
      expect(body.error.message).toContain('retail-ecommerce');
      const type = await get('/v1/search?q=agents&type=people');
      expectErrorEnvelope(type.body, 'INVALID_PARAMETER', 'type');
      expect(type.body.error.message).toContain('all, services, expertise, intelligence');
    });

    it('matches topic against an article topic or its category', async () => {
      const byTopic = await get('/v1/intelligence/list?topic=ai-engineering');
      const byCategory = await get('/v1/intelligence/list?topic=neural-core');
      expect(byTopic.body.data.length).toBeGreaterThan(0);
      expect(byTopic.body.data.every((item: Json) => item.topics.includes('ai-engineering') || item.category === 'ai-engineering')).toBe(
        true,
      );
      expect(byCategory.body.data.every((item: Json) => item.topics.includes('neural-core') || item.category === 'neural-core')).toBe(true);
      expect(byCategory.body.meta.pagination.total).toBe(byCategory.body.data.length);
    });

    it('combines filters', async () => {
      const { body } = await get('/v1/expertise/list?category=neural-core&industry=financial-services');
      for (const item of body.data) {
        expect(item.category).toBe('neural-core');
        expect(item.industries).toContain('financial-services');
      }
      const empty = await get('/v1/expertise/list?category=paid-media&industry=retail-ecommerce');
      expect(empty.response.status).toBe(200);
      expect(empty.body.data).toEqual([]);
      expect(empty.body.meta.pagination).toEqual({ total: 0, limit: 20, offset: 0, has_more: false });
    });

    it('finds a record by id or slug, case-insensitively', async () => {
      for (const id of ['technical-seo-audit', 'seo-audit', 'TECHNICAL-SEO-AUDIT', 'Seo-Audit']) {
        const { response, body } = await get(`/v1/services/get?id=${id}`);
        expect(response.status, id).toBe(200);
        expect(body.data.id).toBe('technical-seo-audit');
        expect(body.data.slug).toBe('seo-audit');
      }
    });

    it('answers a well-formed unknown id with 404 and a malformed one with 400', async () => {
      for (const id of ['no-such-service', '..', '.', 'manifest', 'page-0', '_', 'a'.repeat(128)]) {
        const { response, body } = await get(`/v1/services/get?id=${encodeURIComponent(id)}`);
        expect(response.status, id).toBe(404);
        expectErrorEnvelope(body, 'NOT_FOUND');
      }
      for (const id of [
        '../manifest',
        '..%2F..%2Fpackage.json',
        'a/b',
        'a b',
        'a%00b',
        '%00',
        'é',
        'a'.repeat(129),
        'x\\y',
        'seo-audit.json?',
      ]) {
        const { response, body } = await get(`/v1/services/get?id=${id.includes('%') ? id : encodeURIComponent(id)}`);
        expect(response.status, id).toBe(400);
        expectErrorEnvelope(body, 'INVALID_PARAMETER', 'id');
      }
    });

    it('requires id on get routes and q on search', async () => {
      for (const path of ['/v1/services/get', '/v1/expertise/get?id=', '/v1/technology/get', '/v1/intelligence/get']) {
        const { response, body } = await get(path);
        expect(response.status, path).toBe(400);
        expectErrorEnvelope(body, 'MISSING_PARAMETER', 'id');
      }
      for (const path of ['/v1/search', '/v1/search?q=', '/v1/search?q=%20%20%20']) {
        const { response, body } = await get(path);
        expect(response.status, path).toBe(400);
        expectErrorEnvelope(body, 'MISSING_PARAMETER', 'q');
      }
    });

    it('limits q to 200 characters, counted as characters not bytes', async () => {
      const long = await get(`/v1/search?q=${'a'.repeat(201)}`);
      expectErrorEnvelope(long.body, 'INVALID_PARAMETER', 'q');
      const padded = await get(`/v1/search?q=${encodeURIComponent(` ${'é'.repeat(200)} `)}&type=nope`);
      // 200 characters after trimming are fine, so the next wrong parameter is the one reported.
      expectErrorEnvelope(padded.body, 'INVALID_PARAMETER', 'type');
    });

    it('reports the first wrong parameter in documented order', async () => {
      const expertise = await get('/v1/expertise/list?offset=x&limit=0&industry=nope&category=nope');
      expectErrorEnvelope(expertise.body, 'INVALID_PARAMETER', 'category');
      const paging = await get('/v1/expertise/list?offset=x&limit=0');
      expectErrorEnvelope(paging.body, 'INVALID_PARAMETER', 'limit');
      const search = await get('/v1/search?offset=x&type=nope');
      expectErrorEnvelope(search.body, 'MISSING_PARAMETER', 'q');
    });
  });

  describe('success envelope', () => {
    it('carries the per-request meta fields', async () => {
      const first = await get('/v1/services/list');
      const second = await get('/v1/services/list');
      for (const { response, body } of [first, second]) {
        expect(body.success).toBe(true);
        expect(body.meta.timestamp).toBe('2026-11-20T10:00:00.000Z');
        expect(body.meta.request_id).toBe(response.headers.get('X-Request-Id'));
        expect(Number.isInteger(body.meta.processing_time_ms)).toBe(true);
        expect(body.meta.processing_time_ms).toBeGreaterThanOrEqual(0);
        expect(body.meta.language).toBe('en-GB'); // the fixture's site.yaml
      }
      expect(first.body.meta.request_id).not.toBe(second.body.meta.request_id);
    });

    it('paginates exactly the four lists and search', async () => {
      for (const path of ['/v1/services/list', '/v1/expertise/list', '/v1/technology/list', '/v1/intelligence/list']) {
        const { body } = await get(path);
        expect(body.meta.pagination, path).toEqual({ total: body.data.length, limit: 20, offset: 0, has_more: false });
      }
      for (const path of [
        '/v1/',
        '/v1/health',
        '/v1/services/categories',
        '/v1/intelligence/latest',
        '/v1/services/get?id=seo-audit',
        '/v1/technology/protocols',
      ]) {
        const { body } = await get(path);
        expect(body.meta, path).not.toHaveProperty('pagination');
      }
    });

    it('sets has_more from offset, page length and total', async () => {
      const first = await get('/v1/services/list?limit=1');
      expect(first.body.meta.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
      const last = await get('/v1/services/list?limit=1&offset=1');
      expect(last.body.meta.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
      expect(last.body.data[0].id).not.toBe(first.body.data[0].id);
      const past = await get('/v1/services/list?offset=5');
      expect(past.body.data).toEqual([]);
      expect(past.body.meta.pagination).toEqual({ total: 2, limit: 20, offset: 5, has_more: false });
    });

    it('answers objects on health, get routes and the index, arrays elsewhere', async () => {
      const health = await get('/v1/health');
      expect(health.body.data).toMatchObject({
        status: 'healthy',
        version: '1.3.0',
        resources: ['services', 'expertise', 'technology', 'intelligence'],
      });
      for (const path of [
        '/v1/services/categories',
        '/v1/expertise/industries',
        '/v1/expertise/technologies',
        '/v1/technology/categories',
        '/v1/intelligence/topics',
      ]) {
        const { body } = await get(path);
        expect(Array.isArray(body.data), path).toBe(true);
        for (const term of body.data) expect(Object.keys(term), path).toEqual(expect.arrayContaining(['id', 'name', 'count']));
      }
    });
  });

  describe('search', () => {
    it('answers result items ordered by score, then type, then id, with pagination', async () => {
      const { response, body } = await get('/v1/search?q=model%20context%20protocol%20server');
      expect(response.status).toBe(200);
      expect(body.data.length).toBeGreaterThan(0);
      for (const item of body.data) {
        expect(Object.keys(item).sort()).toEqual(['id', 'score', 'slug', 'summary', 'title', 'type', 'url']);
        expect(['services', 'expertise', 'intelligence']).toContain(item.type);
        expect(item.score).toBeGreaterThan(0);
        expect(Math.round(item.score * 10_000) / 10_000).toBe(item.score);
        expect(item.url).toMatch(/^https:\/\/api\.example\.test\//);
      }
      for (let i = 1; i < body.data.length; i++) {
        const [a, b] = [body.data[i - 1], body.data[i]];
        expect(a.score > b.score || (a.score === b.score && (a.type < b.type || (a.type === b.type && a.id < b.id)))).toBe(true);
      }
      expect(body.meta.pagination).toEqual({ total: body.data.length, limit: 20, offset: 0, has_more: false });
    });

    it('narrows to one collection with type, matched case-insensitively', async () => {
      const { body } = await get('/v1/search?q=protocol&type=%20SERVICES%20');
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.every((item: Json) => item.type === 'services')).toBe(true);
    });

    it('pages with limit and offset like every list', async () => {
      const all = await get('/v1/search?q=agent');
      const second = await get('/v1/search?q=agent&limit=1&offset=1');
      expect(second.body.data).toEqual(all.body.data.slice(1, 2));
      expect(second.body.meta.pagination).toEqual({
        total: all.body.meta.pagination.total,
        limit: 1,
        offset: 1,
        has_more: all.body.meta.pagination.total > 2,
      });
      for (const query of ['limit=0', 'limit=101', 'offset=-1']) {
        const { response, body } = await get(`/v1/search?q=agent&${query}`);
        expect(response.status, query).toBe(400);
        expectErrorEnvelope(body, 'INVALID_PARAMETER', query.split('=')[0]);
      }
    });

    it('answers a query that matches nothing with an empty success', async () => {
      for (const q of ['zebra%20quantum%20banjo', 'the%20and%20of', '%3F%21']) {
        const { response, body } = await get(`/v1/search?q=${q}`);
        expect(response.status, q).toBe(200);
        expect(body.data).toEqual([]);
        expect(body.meta.pagination).toEqual({ total: 0, limit: 20, offset: 0, has_more: false });
      }
    });
  });

  describe('errors', () => {
    it('answers an unexpected failure with a bare 500 INTERNAL_ERROR', async () => {
      const broken = await runtime.start(dist, {
        assets: {
          read: async () => {
            throw new Error('disk on fire at /srv/secret/path.json');
          },
          readBytes: async () => {
            throw new Error('disk on fire at /srv/secret/path.bin');
          },
        },
      });
      try {
        const response = await broken.request('/v1/services/list');
        expect(response.status).toBe(500);
        const text = await response.text();
        expectErrorEnvelope(JSON.parse(text), 'INTERNAL_ERROR');
        expect(text).not.toMatch(/disk on fire|\/srv|\bat\s+\S+\s+\(|\.ts\b/);
        expect(response.headers.get('Cache-Control')).toBe('no-store');
      } finally {
        await broken.close();
      }
    });
  });

  describe('headers', () => {
    it('sets content type, request id, CORS and caching on success', async () => {
      const { response, body } = await get('/v1/services/list');
      expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('X-Request-Id')).toBe(body.meta.request_id);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      const exposed = response.headers.get('Access-Control-Expose-Headers')!.split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After']));
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600');
      expect(response.headers.get('RateLimit-Policy')).toBe('"default";q=1000000;w=60');
      expect(response.headers.get('RateLimit')).toMatch(/^"default";r=\d+;t=0$/);
    });

    it('sets no-store and a request id on errors', async () => {
      const { response } = await get('/v1/nope');
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(response.headers.get('X-Request-Id')).toMatch(/\S{8,}/);
      expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(response.headers.get('ETag')).toBeNull();
    });

    it('derives the ETag from the data and answers If-None-Match with 304', async () => {
      const first = await get('/v1/services/list');
      const second = await get('/v1/services/list');
      const etag = first.response.headers.get('ETag')!;
      // Over HTTP the body may be compressed, and a compressed representation's tag names its encoding.
      expect(etag).toMatch(/^W\/"[0-9a-z]+(?:-br|-gz)?"$/);
      expect(second.response.headers.get('ETag')).toBe(etag);
      expect((await get('/v1/services/list?limit=1')).response.headers.get('ETag')).not.toBe(etag);
      for (const header of [etag, etag.slice(2), `"nope", ${etag}`, '*']) {
        const cached = await api.request('/v1/services/list', { headers: { 'If-None-Match': header } });
        expect(cached.status, header).toBe(304);
        expect(await cached.text()).toBe('');
        expect(cached.headers.get('ETag')).toBe(etag);
        expect(cached.headers.get('X-Request-Id')).toBeTruthy();
      }
      const stale = await api.request('/v1/services/list', { headers: { 'If-None-Match': 'W/"stale"' } });
      expect(stale.status).toBe(200);
    });

    it('gives the same ETag to the same data reached through a page or a window', async () => {
      const page = await get('/v1/intelligence/list');
      const window = await get('/v1/intelligence/list?limit=2');
      expect(window.body.data).toEqual(page.body.data);
      expect(window.response.headers.get('ETag')).toBe(page.response.headers.get('ETag'));
    });
  });

  describe('methods', () => {
    it('serves HEAD as GET without a body', async () => {
      const head = await api.request('/v1/services/list', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('ETag')).toMatch(/^W\//);
      expect(head.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      const missing = await api.request('/v1/nope', { method: 'HEAD' });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe('');
    });

    it('answers a CORS preflight with 204', async () => {
      const response = await api.request('/v1/services/list', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://client.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD');
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(response.headers.get('Access-Control-Allow-Headers')).toBe('content-type');
      expect(await response.text()).toBe('');
    });

    it('refuses every other method with 405 and Allow', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const response = await api.request('/v1/services/list', { method });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('Allow')).toBe('GET, HEAD');
        expectErrorEnvelope(await json(response), 'METHOD_NOT_ALLOWED');
      }
      const options = await api.request('/v1/services/list', { method: 'OPTIONS' });
      expect(options.status).toBe(405);
      expect(options.headers.get('Allow')).toBe('GET, HEAD');
    });
  });

  describe('rate limit', () => {
    let limited: ApiClient;
    let now = Date.parse('2026-11-20T10:00:00.000Z');
    beforeAll(async () => {
      limited = await runtime.start(dist, { limiter: createMemoryLimiter(), clock: () => now });
    });
    afterAll(() => limited.close());

    it('allows 100 requests a minute per address, refuses the 101st with 429 and does not count it', async () => {
      const ip = '203.0.113.7';
      for (let i = 1; i <= 100; i++) {
        now += 100; // 100 requests over 10 s
        const response = await limited.request('/v1/health', { ip });
        expect(response.status).toBe(200);
        expect(response.headers.get('RateLimit')).toBe(`"default";r=${100 - i};t=${i === 100 ? 51 : 0}`);
        await response.arrayBuffer();
      }
      const refused = await limited.request('/v1/health', { ip });
      expect(refused.status).toBe(429);
      expectErrorEnvelope(await json(refused), 'RATE_LIMIT_EXCEEDED');
      // The first counted request was at +0.1 s and slides out of the window at +60.1 s: 50.1 s from now.
      expect(refused.headers.get('Retry-After')).toBe('51');
      expect(refused.headers.get('RateLimit')).toBe('"default";r=0;t=51');
      expect(refused.headers.get('RateLimit-Policy')).toBe('"default";q=100;w=60');
      expect(refused.headers.get('Cache-Control')).toBe('no-store');

      // Another address is unaffected.
      const other = await limited.request('/v1/health', { ip: '198.51.100.1' });
      expect(other.status).toBe(200);
      expect(other.headers.get('RateLimit')).toBe('"default";r=99;t=0');

      // Every /v1/ request counts, and a refused one does not: the window slides one request at a time.
      now += 50_099;
      expect((await limited.request('/v1/nope', { ip })).status).toBe(429);
      now += 2;
      const again = await limited.request('/v1/nope', { ip });
      expect(again.status).toBe(404);
      expect(again.headers.get('RateLimit')).toBe('"default";r=0;t=1');
      expect((await limited.request('/v1/health', { ip })).status).toBe(429);
    });
  });
});
