/**
 * The OpenAPI document the build writes for the real `content/` folder: valid OpenAPI 3.1, complete
 * against the route table, with enumerations from the content, and examples and built responses that
 * match their own schemas.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { DATA_DIR, MANIFEST_PATH, OPENAPI_PATH } from '../../generator/shared/data-paths.ts';
import { ERROR_STATUS } from '../../generator/shared/errors.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { readListPage } from '../helpers/build-output.ts';
import { isObjectData, type Operation } from '../../generator/shared/operations.ts';
import type { Content } from '../../generator/schemas/content.ts';
import { createAjv, createResponseValidator, type ResponseValidate } from '../helpers/openapi-validator.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

const ENV = { SOURCE_DATE_EPOCH: '1795000000' };
const PAGINATED = ['search', 'services/list', 'expertise/list', 'technology/list', 'intelligence/list'];

type Json = Record<string, any>;

const dirs: string[] = [];
let dist: string;
let content: Content;
let document: Json;
let validate: ResponseValidate;

async function buildInto(): Promise<{ dir: string; content: Content }> {
  const dir = path.join(scratchDir('openapi'), 'dist');
  dirs.push(dir);
  return { dir, content: (await buildSite({ contentDir: 'content', outDir: dir, env: ENV })).content };
}

const readText = (file: string) => readFileSync(path.join(dist, file), 'utf8');
const operationOf = (op: Operation): Json => document.paths[`/${op.path}`].get;
const resolve = (value: Json): Json =>
  typeof value?.$ref === 'string'
    ? value.$ref
        .split('/')
        .slice(1)
        .reduce((node: Json, key: string) => node[key], document)
    : value;
const sorted = (values: Iterable<string>) => [...values].sort();

beforeAll(async () => {
  ({ dir: dist, content } = await buildInto());
  document = JSON.parse(readText(OPENAPI_PATH));
  validate = createResponseValidator(document as never);
});

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('passes the official OpenAPI 3.1 schema with no errors', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has component and parameter schemas that are valid JSON Schema 2020-12 in strict mode', () => {
    const ajv = createAjv(document as never);
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.compile({ $ref: `urn:openapi:components#/$defs/${name}` }), name).not.toThrow();
    }
    for (const op of operations) {
      for (const param of operationOf(op).parameters) expect(ajv.validateSchema(param.schema), `${op.path} ${param.name}`).toBe(true);
    }
  });

  it('describes version 1.3.0 of the API at {site_url}/v1, named after the site', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.3.0');
    expect(document.info.title).toBe(`${content.site.name} API`);
    expect(document.info.description).toMatch(/read-only/);
    expect(document.servers).toEqual([{ url: `${content.site.site_url}/v1`, description: expect.any(String) }]);
  });

  it('documents every operation of the route table, and nothing else', () => {
    expect(sorted(Object.keys(document.paths))).toEqual(sorted(operations.map((op) => `/${op.path}`)));
    for (const op of operations) {
      expect(Object.keys(document.paths[`/${op.path}`])).toEqual(['get']);
      expect(operationOf(op)).toMatchObject({ operationId: op.operationId, summary: op.summary, tags: [op.tag] });
    }
  });

  it('documents every parameter with its type, default, range, pattern and whether it is required', () => {
    for (const op of operations) {
      const documented = operationOf(op).parameters as Json[];
      expect(
        documented.map((param) => param.name),
        op.path,
      ).toEqual(op.params.map((param) => param.name));
      for (const param of documented) expect(param.in).toBe('query');
    }
    const param = (route: string, name: string) => (document.paths[route].get.parameters as Json[]).find((p) => p.name === name)!;
    for (const route of ['/search', '/services/list', '/expertise/list', '/technology/list', '/intelligence/list']) {
      expect(param(route, 'limit')).toMatchObject({
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 20, pattern: '^[0-9]+$' },
      });
      expect(param(route, 'offset')).toMatchObject({
        required: false,
        schema: { type: 'integer', minimum: 0, maximum: 9007199254740991, default: 0, pattern: '^[0-9]+$' },
      });
    }
    expect(param('/intelligence/latest', 'count')).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 20, default: 5, pattern: '^[0-9]+$' },
    });
    for (const route of ['/services/get', '/expertise/get', '/technology/get', '/intelligence/get']) {
      expect(param(route, 'id')).toMatchObject({ required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' } });
    }
    expect(param('/search', 'q')).toMatchObject({ required: true, schema: { type: 'string', minLength: 1, maxLength: 200 } });
    expect(param('/search', 'type')).toMatchObject({
      required: false,
      schema: { type: 'string', examples: ['all', 'services', 'expertise', 'intelligence'], default: 'all' },
    });
  });

  it('takes the filter enumerations from the content', () => {
    const ids = (terms: { id: string }[]) => sorted(terms.map((term) => term.id));
    const enumOf = (route: string, name: string) =>
      sorted((document.paths[route].get.parameters as Json[]).find((p) => p.name === name)!.schema.examples);
    expect(enumOf('/services/list', 'category')).toEqual(ids(content.categories));
    expect(enumOf('/expertise/list', 'category')).toEqual(ids(content.categories));
    expect(enumOf('/expertise/list', 'industry')).toEqual(ids(content.industries));
    expect(enumOf('/technology/list', 'category')).toEqual(ids(content.technologyCategories));
    expect(enumOf('/intelligence/list', 'topic')).toEqual(sorted(new Set([...ids(content.topics), ...ids(content.categories)])));
    const manifest = JSON.parse(readText(MANIFEST_PATH));
    expect((document.paths['/intelligence/list'].get.parameters as Json[])[0]!.schema.examples).toEqual(manifest.filters.articleTopics);
  });

  it('accepts a filter value in exactly the cases the server does: any case, spaces around it, or empty', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const schema = (document.paths['/services/list'].get.parameters as Json[]).find((p) => p.name === 'category')!.schema;
    const check = new Ajv2020({ strict: false }).compile(schema);
    for (const value of ['paid-media', 'Paid-Media', ' PAID-MEDIA ', '']) expect(check(value), JSON.stringify(value)).toBe(true);
    for (const value of ['paid_media', 'paid-media-x', 'xpaid-media', 'paid media'])
      expect(check(value), JSON.stringify(value)).toBe(false);
    const { readDistFiles } = await import('../helpers/api-runtimes.ts');
    const { createHandler } = await import('../../generator/edge/handler.ts');
    const { createMemoryAssets } = await import('../../generator/edge/assets.ts');
    const handler = createHandler({ assets: createMemoryAssets(readDistFiles(dist)) });
    for (const value of ['Paid-Media', ' PAID-MEDIA ', 'paid_media']) {
      const response = await handler(new Request(`http://api.test/v1/services/list?category=${encodeURIComponent(value)}`), {
        ip: '192.0.2.9',
      });
      expect(response.status, value).toBe(check(value) ? 200 : 400);
    }
  });

  it("lints clean under Redocly's recommended rules: no errors, no warnings", () => {
    const cli = path.join('node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', path.join(dist, OPENAPI_PATH), '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { totals: Json; problems: Json[] };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("lints clean under Spectral's spectral:oas ruleset: no errors, no warnings", async () => {
    const { Spectral, Document } = (await import('@stoplight/spectral-core')).default;
    const { oas } = await import('@stoplight/spectral-rulesets');
    const { Json: JsonParser } = (await import('@stoplight/spectral-parsers')).default;
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas, 'recommended']] } as never);
    const results = await spectral.run(new Document(readText(OPENAPI_PATH), JsonParser, 'openapi.json'));
    expect(results.map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`)).toEqual([]);
  });

  it('describes every operation in words, and names a contact from site.yaml', () => {
    for (const op of operations) expect(operationOf(op).description, op.path).toMatch(/^\S.{30,}/);
    expect(document.info.contact).toEqual(content.site.contact);
  });

  it('is the same document whatever the clock of the build that wrote it', async () => {
    const other = path.join(scratchDir('openapi-clock'), 'dist');
    dirs.push(other);
    await buildSite({
      contentDir: 'content',
      outDir: other,
      env: { SOURCE_DATE_EPOCH: String(Number(ENV.SOURCE_DATE_EPOCH) + 3_600) },
    });
    expect(readFileSync(path.join(other, OPENAPI_PATH), 'utf8')).toBe(readText(OPENAPI_PATH));
  });

  it('wraps every success in the envelope, with pagination required on exactly the lists and search', () => {
    for (const op of operations) {
      const schema = resolve(operationOf(op).responses['200'].content['application/json'].schema);
      if (op.kind === 'openapi') {
        expect(schema.required).toEqual(['openapi', 'info', 'paths']);
        continue;
      }
      expect(schema.required, op.path).toEqual(['success', 'data', 'meta']);
      expect(schema.properties.success.const).toBe(true);
      expect(resolve(schema.properties.data).type, op.path).toBe(isObjectData(op) ? 'object' : 'array');
      const meta = resolve(schema.properties.meta);
      expect(meta.required.includes('pagination'), op.path).toBe(PAGINATED.includes(op.path));
      expect(meta.properties.timestamp.format).toBe('date-time');
      expect(meta.properties.processing_time_ms).toMatchObject({ type: 'integer', minimum: 0 });
      expect(meta.required).toEqual(expect.arrayContaining(['timestamp', 'request_id', 'processing_time_ms', 'language']));
    }
  });

  it('documents the error responses each operation can give, with the error envelope and no meta', () => {
    for (const op of operations) {
      const statuses = Object.keys(operationOf(op).responses);
      const expected = ['200', '304', ...(op.params.length ? ['400'] : []), ...(op.kind === 'get' ? ['404'] : []), '405', '429', '500'];
      expect(statuses, op.path).toEqual(expected);
      for (const status of expected.slice(2)) {
        const schema = resolve(resolve(operationOf(op).responses[status]).content['application/json'].schema);
        expect(schema.required).toEqual(['success', 'error']);
        expect(schema.properties.meta).toBeUndefined();
        expect(schema.additionalProperties).toBe(false);
        const codes = Object.entries(ERROR_STATUS)
          .filter(([, code]) => String(code) === status)
          .map(([name]) => name);
        expect(schema.properties.error.properties.code.enum).toEqual(codes);
        expect(schema.properties.error.required.includes('parameter')).toBe(status === '400');
      }
    }
  });

  it('documents the headers: request id and rate limit everywhere, ETag on 200, Retry-After on 429', () => {
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'Cache-Control']),
    );
    for (const op of operations) {
      const responses = operationOf(op).responses as Json;
      expect(Object.keys(responses['200'].headers)).toEqual(
        expect.arrayContaining(['X-Request-Id', 'ETag', 'Cache-Control', 'RateLimit', 'RateLimit-Policy']),
      );
      for (const status of Object.keys(responses)) {
        expect(Object.keys(resolve(responses[status]).headers), `${op.path} ${status}`).toEqual(
          expect.arrayContaining(['X-Request-Id', 'RateLimit']),
        );
      }
      expect(Object.keys(resolve(responses['429']).headers)).toContain('Retry-After');
      expect(resolve(responses['304']).content).toBeUndefined();
    }
  });

  it('gives every operation but the document itself a short example taken from the build', () => {
    for (const op of operations) {
      const example = operationOf(op).responses['200'].content['application/json'].example;
      if (op.kind === 'openapi') {
        expect(example).toBeUndefined();
        continue;
      }
      expect(example, op.path).toBeDefined();
      if (Array.isArray(example.data)) expect(example.data.length, op.path).toBeLessThanOrEqual(2);
      if (typeof example.data.content_html === 'string') expect(example.data.content_html.length).toBeLessThanOrEqual(201);
    }
    const services = readListPage<{ id: string }>(dist, 'services/list');
    expect(
      operationOf(operations.find((op) => op.path === 'services/list')!).responses['200'].content['application/json'].example.data[0],
    ).toEqual(services.data[0]);
  });

  it('has examples that each match their own response schema', () => {
    let checked = 0;
    for (const op of operations) {
      for (const [status, response] of Object.entries(operationOf(op).responses as Json)) {
        const media = resolve(response).content?.['application/json'];
        const examples = [media?.example, ...Object.values(media?.examples ?? {}).map((named: any) => named.value)].filter(
          (value) => value !== undefined,
        );
        for (const example of examples) {
          expect(validate(op.path, Number(status), example), `${op.path} ${status}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(operations.length * 4);
  });

  it('matches every response envelope the build precomputed', () => {
    const routes = operations
      .map((op) => op.path)
      .filter((route) => route !== '')
      .sort((a, b) => b.length - a.length);
    const root = path.join(dist, DATA_DIR, 'v1');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));
    let checked = 0;
    for (const file of files) {
      const relative = file
        .split(path.sep)
        .join('/')
        .replace(/\.json$/, '');
      if (`${DATA_DIR}/v1/${relative}.json` === OPENAPI_PATH) continue;
      const route = relative === 'index' ? '' : routes.find((candidate) => relative === candidate || relative.startsWith(`${candidate}/`));
      expect(route, file).toBeDefined();
      expect(validate(`/${route}`, 200, JSON.parse(readFileSync(path.join(root, file), 'utf8'))), file).toEqual([]);
      checked++;
    }
    // Every default page of every list, as the handler cuts it from the chunks.
    const { totals } = JSON.parse(readText(MANIFEST_PATH)) as { totals: Record<string, Record<string, number>> };
    for (const [route, keys] of Object.entries(totals)) {
      for (const [key, total] of Object.entries(keys)) {
        for (let offset = 0; offset === 0 || offset < total; offset += 20) {
          expect(validate(`/${route}`, 200, readListPage(dist, route, key, offset)), `${route} ${key} ${offset}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('writes the same document for the reference page, and the same bytes on a second build', async () => {
    expect(readText(outputPath(`${ADDRESS.reference}openapi.json`))).toBe(readText(OPENAPI_PATH));
    const again = await buildInto();
    expect(readFileSync(path.join(again.dir, OPENAPI_PATH), 'utf8')).toBe(readText(OPENAPI_PATH));
  });
});

describe('createResponseValidator', () => {
  const listBody = () => readListPage<Record<string, unknown>>(dist, 'services/list');
  const errorBody = { success: false, error: { code: 'NOT_FOUND', message: 'No record has this id.', timestamp: '2026-05-12T10:00:00Z' } };

  it('accepts a real response, with or without the /v1 prefix, trailing slash and query', () => {
    expect(validate('/services/list', 200, listBody())).toEqual([]);
    expect(validate('/v1/services/list/?limit=20', 200, listBody())).toEqual([]);
    expect(validate('/services/get', 404, errorBody)).toEqual([]);
    expect(validate('/no/such/route', 404, errorBody)).toEqual([]);
    expect(validate('/health', 304, undefined)).toEqual([]);
  });

  it('rejects a response without success', () => {
    const { success: _success, ...body } = listBody();
    expect(validate('/services/list', 200, body).join('\n')).toMatch(/must have required property 'success'/);
  });

  it('rejects a field of the wrong type, a missing pagination and an unknown field', () => {
    const body = listBody();
    expect(validate('/services/list', 200, { ...body, data: 'services' }).join('\n')).toMatch(/\/data must be array/);
    expect(validate('/services/list', 200, { ...body, meta: { ...body.meta, pagination: undefined } }).join('\n')).toMatch(/pagination/);
    const item = { ...body.data[0], title: 42 };
    expect(validate('/services/list', 200, { ...body, data: [item] }).join('\n')).toMatch(/\/data\/0\/title must be string/);
    expect(validate('/services/list', 200, { ...body, extra: true }).join('\n')).toMatch(/additional properties/);
  });

  it('rejects an error with meta, a code of another status, and a 400 without its parameter', () => {
    expect(validate('/services/get', 404, { ...errorBody, meta: {} })).not.toEqual([]);
    expect(validate('/services/get', 404, { ...errorBody, error: { ...errorBody.error, code: 'INVALID_PARAMETER' } })).not.toEqual([]);
    expect(validate('/services/get', 400, { ...errorBody, error: { ...errorBody.error, code: 'INVALID_PARAMETER' } }).join('\n')).toMatch(
      /parameter/,
    );
  });

  it('rejects a status the document does not give for that operation', () => {
    expect(validate('/health', 400, errorBody)).toEqual(['/health: status 400 is not documented']);
    expect(validate('/health', 418, errorBody)).toEqual(['/health: status 418 is not documented']);
    expect(validate('/health', 304, '{}')).not.toEqual([]);
  });
});

describe('the error examples of the OpenAPI document', () => {
  /** The handler over this build, with a limiter that refuses when `refuse` is set and assets that fail when `fail` is. */
  async function handlerFor(options: { refuse?: boolean; fail?: boolean } = {}) {
    const { createHandler } = await import('../../generator/edge/handler.ts');
    const { createMemoryAssets } = await import('../../generator/edge/assets.ts');
    const { readDistFiles } = await import('../helpers/api-runtimes.ts');
    const memory = createMemoryAssets(readDistFiles(dist));
    return createHandler({
      assets: options.fail
        ? { read: async () => Promise.reject(new Error('disk gone')), readBytes: async () => Promise.reject(new Error('disk gone')) }
        : memory,
      limiter: {
        limit: 100,
        windowSeconds: 60,
        peek: () => ({ allowed: true, limit: 100, remaining: 100, retryAfter: 0 }),
        hit: () =>
          options.refuse
            ? { allowed: false, limit: 100, remaining: 0, retryAfter: 42 }
            : { allowed: true, limit: 100, remaining: 99, retryAfter: 0 },
      },
      logError: () => {},
    });
  }
  const errorOf = async (response: Response) => ((await response.json()) as Json).error;
  const exampleOf = (op: Operation, status: number) => {
    const response = resolve(operationOf(op).responses[String(status)]);
    return response.content['application/json'].example.error;
  };

  it('shows for every get route the 404 the handler sends for an unknown id', async () => {
    const handler = await handlerFor();
    for (const op of operations.filter((candidate) => candidate.kind === 'get')) {
      const real = await errorOf(await handler(new Request(`http://api.test/v1/${op.path}?id=no-such-id`), { ip: '192.0.2.1' }));
      expect({ ...exampleOf(op, 404), timestamp: '' }, op.path).toEqual({ ...real, timestamp: '' });
    }
  });

  it('shows the 405, 429 and 500 the handler sends', async () => {
    const op = operations.find((candidate) => candidate.path === 'services/list')!;
    const post = await (await handlerFor())(new Request('http://api.test/v1/services/list', { method: 'POST' }), { ip: '192.0.2.1' });
    const limited = await (await handlerFor({ refuse: true }))(new Request('http://api.test/v1/services/list'), { ip: '192.0.2.1' });
    const failed = await (await handlerFor({ fail: true }))(new Request('http://api.test/v1/services/list'), { ip: '192.0.2.1' });
    expect([post.status, limited.status, failed.status]).toEqual([405, 429, 500]);
    expect({ ...exampleOf(op, 405), timestamp: '' }).toEqual({ ...(await errorOf(post)), timestamp: '' });
    expect({ ...exampleOf(op, 429), timestamp: '' }).toEqual({ ...(await errorOf(limited)), timestamp: '' });
    expect({ ...exampleOf(op, 500), timestamp: '' }).toEqual({ ...(await errorOf(failed)), timestamp: '' });
  });
});
