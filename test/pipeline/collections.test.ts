/**
 * The collections table is the only place a collection is declared: registering a sixth one in a test
 * (case studies, in test/fixtures/sixth-collection) gives it list and get routes, filters, search, OpenAPI
 * paths, record and list pages, sitemap entries, header rules, an editor collection, a line in llms.txt and a
 * link on the front page, without a line of code anywhere else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { relatedSchema } from '../../generator/schemas/api.ts';
import { collections, type CollectionTable } from '../../generator/schemas/collections.ts';
import { date, id, idList, recordFields, text } from '../../generator/schemas/fields.ts';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';
import { BUILD_ENV, readJson, removeBuildDirs, tempDir, recordPage } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

const caseStudyItem = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  client: z.string(),
  category: z.string(),
  industries: z.array(z.string()),
  url: z.string(),
  updated: z.string(),
});

const caseStudySchema = z.strictObject({
  ...recordFields,
  updated: date,
  title: text,
  summary: text,
  client: text,
  category: id,
  industries: idList.default([]),
});
const caseStudyRelations = {
  industries: { kind: 'terms', field: 'industries', taxonomies: ['industries'] },
  services: { kind: 'same', collection: 'services', field: 'category' },
} as const;

/** A sixth collection, declared the way the table declares the other five. */
const withCaseStudies: CollectionTable = {
  ...collections,
  caseStudies: {
    kind: 'markdown',
    name: 'case studies',
    noun: 'case study',
    pattern: 'case-studies/*.md',
    schema: caseStudySchema,
    fields: { title: 'title', summary: 'summary' },
    order: 'order',
    // A schema.org type its pages describe a record as: with one, the collection gets record and list pages.
    page: { path: 'case-studies', key: 'slug', schema: 'Service' },
    references: { category: ['categories'], industries: ['industries'] },
    api: {
      path: 'case-studies',
      label: 'case studies',
      tag: 'Case studies',
      about: 'Work for clients, by category and industry.',
      item: caseStudyItem,
      record: caseStudyItem.extend({
        reading_time: z.string(),
        content_html: z.string(),
        related: relatedSchema(caseStudyRelations, caseStudySchema),
      }),
      list: { operationId: 'listCaseStudies', summary: 'List case studies' },
      get: { operationId: 'getCaseStudy', summary: 'Get a case study' },
      filters: [
        { param: 'category', fields: ['category'], taxonomies: ['categories'], source: 'categories', description: 'Category id.' },
        { param: 'industry', fields: ['industries'], taxonomies: ['industries'], source: 'industries', description: 'Industry id.' },
      ],
      relations: caseStudyRelations,
      search: { tags: [], terms: ['category', 'industries'] },
    },
  },
};

type Json = Record<string, any>;
let dist: string;
let request: (path: string) => Promise<{ status: number; body: Json }>;

beforeAll(async () => {
  dist = `${tempDir('sixth')}/dist`;
  await buildSite({ contentDir: fixtureDir('sixth-collection'), outDir: dist, env: BUILD_ENV, collections: withCaseStudies });
  const handler = createHandler({ assets: createMemoryAssets(readDistFiles(dist)), limiter: createMemoryLimiter({ limit: 1000 }) });
  request = async (path) => {
    const response = await handler(new Request(`http://api.test${path}`), { ip: '192.0.2.7' });
    return { status: response.status, body: (await response.json()) as Json };
  };
});

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

describe('a collection registered in the collections table', () => {
  it('gets a list route in table order, with items shaped by its item schema', async () => {
    const { status, body } = await request('/v1/case-studies/list');
    expect(status).toBe(200);
    expect(body.meta.pagination).toEqual({ total: 2, limit: 20, offset: 0, has_more: false });
    expect(body.data.map((item: Json) => item.id)).toEqual(['claims-assistant-for-an-insurer', 'checkout-rebuild-for-a-grocer']);
    expect(Object.keys(body.data[0])).toEqual(Object.keys(caseStudyItem.shape));
    expect(body.data[0]).toMatchObject({
      client: 'Harbour Mutual',
      url: `https://api.example.test${recordPage('case-studies', 'claims-assistant-for-an-insurer')}`,
    });
  });

  it('gets its filters, matched against the fields the table names', async () => {
    const retail = await request('/v1/case-studies/list?industry=Retail-Ecommerce');
    expect(retail.body.data.map((item: Json) => item.id)).toEqual(['checkout-rebuild-for-a-grocer']);
    const both = await request('/v1/case-studies/list?category=neural-intelligence&industry=retail-ecommerce');
    expect(both.body.meta.pagination.total).toBe(0);
    const unknown = await request('/v1/case-studies/list?industry=mining');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'industry' });
  });

  it('gets a get route with its relations, and a 404 that names its record noun', async () => {
    const { status, body } = await request('/v1/case-studies/get?id=checkout-rebuild-for-a-grocer');
    expect(status).toBe(200);
    expect(body.data.content_html).toContain('<p>The grocer');
    expect(body.data.related.industries).toEqual([{ id: 'retail-ecommerce', name: expect.any(String) }]);
    const missing = await request('/v1/case-studies/get?id=nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('No case study has the id or slug "nothing-here".');
  });

  it('is searchable as its own type', async () => {
    const { body } = await request('/v1/search?q=grocer+checkout&type=case-studies');
    expect(body.data.map((item: Json) => [item.type, item.id])).toEqual([['case-studies', 'checkout-rebuild-for-a-grocer']]);
    const all = await request('/v1/search?q=insurer+claims');
    expect(all.body.data[0]).toMatchObject({ type: 'case-studies', id: 'claims-assistant-for-an-insurer' });
  });

  it('is counted by health and listed by the index', async () => {
    const health = await request('/v1/health');
    expect(health.body.data.resources).toEqual(['services', 'expertise', 'technology', 'intelligence', 'case-studies']);
    expect(health.body.data.records['case-studies']).toBe(2);
    const index = await request('/v1/');
    expect(index.body.data.operations.map((op: Json) => op.path)).toEqual(
      expect.arrayContaining(['/v1/case-studies/list', '/v1/case-studies/get']),
    );
  });

  it('is documented in the OpenAPI document: paths, filter values, search type and schemas', () => {
    const document = readJson<Json>(dist, '_api/v1/openapi.json');
    const list = document.paths['/case-studies/list'].get;
    expect(list.operationId).toBe('listCaseStudies');
    expect(list.parameters.find((param: Json) => param.name === 'industry').schema.examples).toEqual(
      expect.arrayContaining(['retail-ecommerce', 'financial-services']),
    );
    expect(document.paths['/case-studies/get'].get.responses['404'].content['application/json'].example.error.message).toContain(
      'No case study has',
    );
    const type = document.paths['/search'].get.parameters.find((param: Json) => param.name === 'type');
    expect(type.schema.examples).toContain('case-studies');
    expect(document.components.schemas.SearchResult.properties.type.enum).toContain('case-studies');
    expect(document.components.schemas.CaseStudiesItem.properties.client).toEqual({ type: 'string' });
  });

  it('gets record and list pages, and every page-level output names it: sitemap, headers, editor, llms.txt, front page', () => {
    const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
    const page = recordPage('case-studies', 'claims-assistant-for-an-insurer');
    const html = read(`${page.slice(1)}index.html`);
    expect(html).toContain('<h1>Claims assistant for an insurer</h1>');
    expect(html).toContain('"@type":"Service"');
    expect(read('case-studies/index.html')).toContain(`href="${page}"`);
    expect(read(outputPath(ADDRESS.sitemap))).toContain(`<loc>https://api.example.test${page}</loc>`);
    expect(read('_headers')).toContain('\n/case-studies/*\n');
    const editor = jsYaml.load(read(`${ADDRESS.admin.slice(1)}config.yml`)) as { collections: { name: string; folder: string }[] };
    expect(editor.collections).toContainEqual(
      expect.objectContaining({ name: 'caseStudies', folder: expect.stringMatching(/case-studies$/) }),
    );
    expect(read(outputPath(ADDRESS.llmsTxt))).toContain('/v1/case-studies/list');
    expect(read('index.html')).toContain('href="/case-studies/"');
  });

  it('is validated by its schema and its references, like the others', async () => {
    const content = fixtureDir('sixth-collection');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${content}/case-studies/bad.md`, '---\ntitle: Bad\nsummary: No client.\ncategory: nope\nupdated: 2026-01-01\n---\n');
    const build = buildSite({ contentDir: content, outDir: `${tempDir('sixth-bad')}/dist`, env: BUILD_ENV, collections: withCaseStudies });
    await expect(build).rejects.toMatchObject({
      problems: expect.arrayContaining([
        expect.objectContaining({ file: 'case-studies/bad.md', field: 'client', message: expect.stringContaining('is required') }),
        expect.objectContaining({
          file: 'case-studies/bad.md',
          field: 'category',
          message: expect.stringContaining('unknown category "nope"'),
        }),
      ]),
    });
  });
});
