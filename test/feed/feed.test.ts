/**
 * The resource feed and its entry schema, built from the real `content/` folder, checked against every
 * rule of the spec's "Resource feed document" tables and served over real HTTP.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { estimateReadingTime } from '../../generator/shared/reading-time.ts';
import { feedSchema, type Feed, type FeedEntry } from '../../generator/schemas/feed.ts';
import type { Content } from '../../generator/schemas/content.ts';
import { startSiteServer, type SiteServer } from '../helpers/site-server.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

const SITE_URL = 'https://example.test';
const ENV = { SOURCE_DATE_EPOCH: '1795000000', SITE_URL };
const SPEC_TYPES = ['guide', 'template', 'checklist', 'research-report'];
const SPEC_CATEGORIES = [
  'websites-agentic-commerce',
  'neural-intelligence',
  'neural-core',
  'ai-digital-experiences',
  'growth-marketing',
  'paid-media',
  'performance-marketing',
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

// ajv-formats is CommonJS: under NodeNext the default import is `module.exports`, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

const dirs: string[] = [];
async function buildInto(): Promise<{ dir: string; content: Content }> {
  const dir = path.join(scratchDir('feed'), 'dist');
  dirs.push(dir);
  const { content } = await buildSite({ contentDir: 'content', outDir: dir, env: ENV });
  return { dir, content };
}
const readText = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

let dist: string;
let content: Content;
let feed: Feed;
let entries: FeedEntry[];
let entrySchema: Record<string, any>;

beforeAll(async () => {
  ({ dir: dist, content } = await buildInto());
  feed = JSON.parse(readText(dist, outputPath(ADDRESS.resourceFeed)));
  entries = feed.result.resources;
  entrySchema = JSON.parse(readText(dist, outputPath(ADDRESS.entrySchema)));
});

afterAll(() => {
  for (const dir of dirs) rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('api/resources.json', () => {
  it('is a JSON-RPC 2.0 response with an integer id and a result', () => {
    expect(feed.jsonrpc).toBe('2.0');
    expect(Number.isInteger(feed.id)).toBe(true);
    expect(Object.keys(feed).sort()).toEqual(['id', 'jsonrpc', 'result']);
  });

  it('has exactly the fields of the spec, with their types', () => {
    expect(() => feedSchema.parse(feed)).not.toThrow();
    expect(Object.keys(feed.result).sort()).toEqual(['last_updated', 'methods', 'resources', 'resources_hub', 'version']);
  });

  it('carries the feed version of site.yaml as <major>.<minor>', () => {
    expect(feed.result.version).toMatch(/^\d+\.\d+$/);
    expect(feed.result.version).toBe(content.site.feed_version);
  });

  it('describes the hub and how to list and filter in the words of site.yaml', () => {
    const { hub } = content.site;
    expect(feed.result.resources_hub).toMatchObject({
      name: hub.name,
      description: hub.description,
      update_frequency: hub.update_frequency,
    });
    expect(feed.result.methods).toEqual({ list: hub.list, filter: hub.filter });
  });

  it('lists exactly the types and categories of the spec in its taxonomy', () => {
    expect(feed.result.resources_hub.taxonomy.types).toEqual(SPEC_TYPES);
    expect([...feed.result.resources_hub.taxonomy.categories].sort()).toEqual([...SPEC_CATEGORIES].sort());
  });

  it('addresses the hub page, the entry schema and itself absolutely on the site URL', () => {
    const hub = feed.result.resources_hub;
    expect(hub.url).toBe(`${SITE_URL}${ADDRESS.hub}`);
    expect(hub.entry_schema).toBe(`${SITE_URL}${ADDRESS.entrySchema}`);
    expect(hub.feeds).toEqual({ json: `${SITE_URL}${ADDRESS.resourceFeed}` });
  });

  it('publishes one entry per published resource, with unique ids', () => {
    const published = content.resources.filter((resource) => !resource.draft).map((resource) => resource.id);
    expect(entries.map((entry) => entry.id).sort()).toEqual(published.sort());
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(entries.length).toBeGreaterThanOrEqual(14);
  });

  it('gives every entry the fields of the spec in string form', () => {
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([
        'author',
        'category',
        'excerpt',
        'id',
        'image',
        'reading_time',
        'title',
        'topics',
        'type',
        'updated',
        'url',
      ]);
      for (const field of ['id', 'type', 'title', 'category', 'url', 'excerpt', 'reading_time', 'author', 'updated', 'image'] as const) {
        expect(typeof entry[field], `${entry.id}.${field}`).toBe('string');
      }
      expect(Array.isArray(entry.topics)).toBe(true);
      for (const topic of entry.topics) expect(typeof topic).toBe('string');
    }
  });

  it('keeps every entry type and category inside the taxonomy', () => {
    const { types, categories } = feed.result.resources_hub.taxonomy;
    for (const entry of entries) {
      expect(types, entry.id).toContain(entry.type);
      expect(categories, entry.id).toContain(entry.category);
    }
  });

  it('writes dates as YYYY-MM-DD and reading times as "<n> min read"', () => {
    expect(feed.result.last_updated).toMatch(DATE);
    for (const entry of entries) {
      expect(entry.updated).toMatch(DATE);
      expect(entry.reading_time).toMatch(/^[1-9]\d* min read$/);
    }
  });

  it('uses the reading_time override when there is one and counts the body otherwise', () => {
    const resources = new Map(content.resources.map((resource) => [resource.id, resource]));
    for (const entry of entries) {
      const resource = resources.get(entry.id)!;
      expect(entry.reading_time, entry.id).toBe(resource.reading_time ?? estimateReadingTime(resource.body));
    }
    expect(content.resources.some((resource) => resource.reading_time === undefined)).toBe(true);
    expect(content.resources.some((resource) => resource.reading_time !== undefined)).toBe(true);
  });

  it('addresses every entry page absolutely and every image site-relatively', () => {
    for (const entry of entries) {
      expect(entry.url).toBe(`${SITE_URL}${ADDRESS.hub}${entry.id}/`);
      expect(entry.image).toMatch(/^\/images\/\S+\.(svg|png|jpe?g|webp|avif|gif)$/);
    }
  });

  it('orders entries newest updated first, then by id', () => {
    for (let i = 1; i < entries.length; i++) {
      const [before, after] = [entries[i - 1]!, entries[i]!];
      const inOrder = before.updated > after.updated || (before.updated === after.updated && before.id < after.id);
      expect(inOrder, `${before.id} before ${after.id}`).toBe(true);
    }
  });

  it('reports the newest entry date as last_updated', () => {
    const newest = entries
      .map((entry) => entry.updated)
      .sort()
      .at(-1);
    expect(feed.result.last_updated).toBe(newest);
    expect(feed.result.last_updated).toBe(entries[0]!.updated);
  });

  it('is byte for byte the same when the same content is built again', async () => {
    const again = await buildInto();
    for (const file of [outputPath(ADDRESS.resourceFeed), outputPath(ADDRESS.entrySchema), outputPath(ADDRESS.hub)]) {
      expect(readText(again.dir, file), file).toBe(readText(dist, file));
    }
  });
});

describe('api/resources-entry.schema.json', () => {
  const validator = () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    return ajv.compile(entrySchema);
  };

  it('is a closed JSON Schema 2020-12 object with its own address and every field required', () => {
    expect(entrySchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(entrySchema.$id).toBe(`${SITE_URL}${ADDRESS.entrySchema}`);
    expect(entrySchema.title).toEqual(expect.any(String));
    expect(entrySchema.type).toBe('object');
    expect(entrySchema.additionalProperties).toBe(false);
    expect([...entrySchema.required].sort()).toEqual(Object.keys(entrySchema.properties).sort());
    expect(Object.keys(entrySchema.properties).sort()).toEqual(Object.keys(entries[0]!).sort());
  });

  it('describes every field', () => {
    for (const [name, property] of Object.entries<Record<string, unknown>>(entrySchema.properties)) {
      expect(property.description, name).toEqual(expect.any(String));
    }
  });

  it('limits type and category to the taxonomy of the feed', () => {
    expect(entrySchema.properties.type.enum).toEqual(feed.result.resources_hub.taxonomy.types);
    expect(entrySchema.properties.category.enum).toEqual(feed.result.resources_hub.taxonomy.categories);
  });

  it('accepts every entry of the feed', () => {
    const validate = validator();
    for (const entry of entries) expect(validate(entry), `${entry.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it('rejects an entry with a field the schema does not know', () => {
    const validate = validator();
    expect(validate({ ...entries[0], featured: true })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('additionalProperties');
  });

  it('rejects an entry whose category is not in the taxonomy', () => {
    const validate = validator();
    expect(validate({ ...entries[0], category: 'astrology' })).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toContain('/category');
  });

  it('rejects a missing field, an unknown type, a bad date and a bad reading time', () => {
    const validate = validator();
    const { author: _author, ...withoutAuthor } = entries[0]!;
    expect(validate(withoutAuthor)).toBe(false);
    expect(validate({ ...entries[0], type: 'podcast' })).toBe(false);
    expect(validate({ ...entries[0], updated: '2026-02-30' })).toBe(false);
    expect(validate({ ...entries[0], reading_time: '6 minutes' })).toBe(false);
  });
});

describe('feed addresses over HTTP', () => {
  let server: SiteServer;
  beforeAll(async () => {
    server = await startSiteServer(dist);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The site as deployed, answered by the local server instead. */
  const local = (address: string) => (address.startsWith(SITE_URL) ? server.url + address.slice(SITE_URL.length) : server.url + address);

  async function fetchOk(address: string, type: RegExp): Promise<string> {
    const response = await fetch(local(address));
    expect(response.status, address).toBe(200);
    expect(response.headers.get('content-type'), address).toMatch(type);
    return response.text();
  }

  it('serves the feed, the entry schema and the hub page at their addresses', async () => {
    const hub = feed.result.resources_hub;
    expect(JSON.parse(await fetchOk(hub.feeds.json, /^application\/json/))).toEqual(feed);
    expect(JSON.parse(await fetchOk(hub.entry_schema, /^application\/(schema\+)?json/))).toEqual(entrySchema);
    expect(await fetchOk(hub.url, /^text\/html/)).toContain(hub.name);
  });

  it('serves every entry url as an HTML page about that entry', async () => {
    for (const entry of entries) {
      const html = await fetchOk(entry.url, /^text\/html/);
      expect(html).toContain(`<link rel="canonical" href="${entry.url}">`);
    }
  });

  it('serves every entry image with an image content type', async () => {
    for (const entry of entries) {
      const type = entry.image.endsWith('.svg') ? /^image\/svg\+xml/ : /^image\//;
      expect(await fetchOk(entry.image, type)).not.toBe('');
    }
  });
});
