/**
 * `buildSite` on the valid fixture, file by file against docs/api.md: every `/v1/` data file is a complete
 * success envelope, the health data and the manifest say what the files hold, and the site address comes
 * from SITE_URL, then Netlify's variables, then site.yaml.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chunkPath } from '../../generator/shared/data-paths.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBuildSettings, siteAddress } from '../../generator/pipeline/build-settings.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import {
  BUILD_ENV,
  BUILD_TIME,
  buildInto,
  listFiles,
  readEnvelope,
  readChunk,
  readJson,
  readListFolders,
  readManifest,
  removeBuildDirs,
  SITE_URL,
  V1,
  type Envelope,
  recordFile,
  recordPage,
  readListPage,
} from '../helpers/build-output.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

const LIST_ROUTES = ['services/list', 'expertise/list', 'technology/list', 'intelligence/list'];
const GET_ROUTES = ['services/get', 'expertise/get', 'technology/get', 'intelligence/get'];

/** The list route a data file belongs to, when it is in the folder of one. */
function listRouteOf(file: string): string | undefined {
  return LIST_ROUTES.find((route) => file.startsWith(`${V1}/${route}/`));
}

let out: string;

beforeAll(async () => {
  out = await buildInto(VALID_FIXTURE);
});

afterAll(() => {
  removeBuildDirs();
});

describe('buildSite envelopes', () => {
  it('writes every /v1/ data file, except the OpenAPI document, as a complete success envelope', () => {
    const files = listFiles(out).filter((file) => file.startsWith(`${V1}/`) && file.endsWith('.json') && file !== `${V1}/openapi.json`);
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const envelope = readJson<Envelope>(out, file);
      expect(Object.keys(envelope).sort(), file).toEqual(['data', 'meta', 'success']);
      expect(envelope.success, file).toBe(true);
      expect(envelope.data, file).not.toBeNull();
      expect(typeof envelope.data, file).toBe('object');
      const { meta } = envelope;
      const paginated = listRouteOf(file) !== undefined;
      const keys = ['language', 'processing_time_ms', 'request_id', 'timestamp', ...(paginated ? ['pagination'] : [])].sort();
      expect(Object.keys(meta).sort(), file).toEqual(keys);
      // The content's newest date, not the build's clock: the handler swaps in each request's own time.
      expect(meta.timestamp, file).toBe('2026-02-10T00:00:00Z');
      expect(meta.request_id, file).toMatch(/\S/);
      expect(Number.isInteger(meta.processing_time_ms) && meta.processing_time_ms >= 0, file).toBe(true);
      expect(meta.language, file).toBe('en-GB');
    }
  });

  it('stores no list page: every window of a list is cut from its chunks, and no stored envelope has pagination', () => {
    const listed = listFiles(out).filter((name) => listRouteOf(name) !== undefined);
    expect(listed.length).toBeGreaterThan(10);
    for (const file of listed) expect(file, file).toMatch(/\/chunk\/\d+\/\d+\.ndjson$/);
  });

  it('makes data an object on get records, health and the index, and an array everywhere else', () => {
    const objectFiles = new Set([`${V1}/health.json`, `${V1}/index.json`]);
    for (const file of listFiles(out).filter(
      (name) => name.startsWith(`${V1}/`) && name.endsWith('.json') && name !== `${V1}/openapi.json`,
    )) {
      const { data } = readJson<Envelope>(out, file);
      const isObject = objectFiles.has(file) || GET_ROUTES.some((route) => file.startsWith(`${V1}/${route}/`));
      expect(Array.isArray(data), file).toBe(!isObject);
    }
  });

  it('writes a file for every operation that does not depend on the request', () => {
    for (const operation of operations) {
      if (operation.kind === 'static' || operation.kind === 'index') {
        expect(existsSync(path.join(out, V1, `${operation.path || 'index'}.json`)), operation.path).toBe(true);
      }
      if (operation.kind === 'list') expect(existsSync(path.join(out, chunkPath(operation.path, [], 0))), operation.path).toBe(true);
    }
    for (let count = 1; count <= 20; count++) expect(existsSync(path.join(out, V1, `intelligence/latest/${count}.json`))).toBe(true);
    expect(existsSync(path.join(out, V1, 'intelligence/latest/21.json'))).toBe(false);
    expect(existsSync(path.join(out, V1, 'intelligence/latest/0.json'))).toBe(false);
  });

  it('writes the OpenAPI document as a plain OpenAPI 3.1 document, not an envelope', () => {
    const document = readJson<{ openapi: string; success?: unknown }>(out, `${V1}/openapi.json`);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.success).toBeUndefined();
  });
});

describe('buildSite health', () => {
  it('reports healthy, version 1.3.0 and exactly the four resource groups', () => {
    const { data } = readEnvelope<{
      status: string;
      version: string;
      resources: string[];
      built_at: string;
      records: Record<string, number>;
    }>(out, 'health.json');
    expect(data.status).toBe('healthy');
    expect(data.version).toBe('1.3.0');
    expect(data.resources).toEqual(['services', 'expertise', 'technology', 'intelligence']);
    expect(data.built_at).toBe(BUILD_TIME);
  });

  it('counts the published records of each group', () => {
    const { data } = readEnvelope<{ records: Record<string, number> }>(out, 'health.json');
    expect(data.records).toEqual({ services: 2, expertise: 2, technology: 2, intelligence: 2 });
  });
});

describe('buildSite manifest', () => {
  it('records the version, language, site address and build time', () => {
    const manifest = readManifest(out);
    expect(manifest.api_version).toBe('1.3.0');
    expect(manifest.language).toBe('en-GB');
    expect(manifest.site_url).toBe(SITE_URL);
    expect(manifest.built_at).toBe(BUILD_TIME);
  });

  it('lists the filter values the taxonomy routes publish', () => {
    const { filters } = readManifest(out);
    const ids = (route: string) => readEnvelope<{ id: string }[]>(out, route).data.map((term) => term.id);
    expect(filters.categories).toEqual(ids('services/categories.json'));
    expect(filters.industries).toEqual(ids('expertise/industries.json'));
    expect(filters.technologyCategories).toEqual(ids('technology/categories.json'));
    expect(new Set(filters.articleTopics)).toEqual(new Set([...ids('intelligence/topics.json'), ...ids('services/categories.json')]));
    expect(filters.articleTopics).toHaveLength(new Set(filters.articleTopics).size);
  });

  it('has a total for every filter folder of every list, equal to what its chunks hold', () => {
    const { totals } = readManifest(out);
    expect(Object.keys(totals).sort()).toEqual([...LIST_ROUTES].sort());
    for (const route of LIST_ROUTES) {
      const folders = readListFolders(out, route);
      // A filter value no record has holds no chunk: its total is 0.
      const held = Object.keys(totals[route]!).filter((key) => totals[route]![key]! > 0);
      expect(held.sort(), route).toEqual([...folders.keys()].sort());
      for (const [key, folder] of folders) {
        const total = totals[route]![key]!;
        const lines = folder.chunks.reduce((sum, chunk) => sum + readChunk(out, chunk.file).length, 0);
        expect(lines, `${route} ${key}`).toBe(total);
      }
    }
  });

  it('matches the health record counts and counts the search documents', () => {
    const manifest = readManifest(out);
    const { data } = readEnvelope<{ records: Record<string, number> }>(out, 'health.json');
    expect(manifest.totals['services/list']!.all).toBe(data.records.services);
    expect(manifest.totals['expertise/list']!.all).toBe(data.records.expertise);
    expect(manifest.totals['technology/list']!.all).toBe(data.records.technology);
    expect(manifest.totals['intelligence/list']!.all).toBe(data.records.intelligence);
    // Search covers services, expertise and articles (docs/api.md "Search").
    expect(manifest.search_documents).toBe(2 + 2 + 2);
  });
});

describe('buildSite site address', () => {
  /** Every absolute address the build writes about its own records and routes. */
  function addressesOf(root: string): string[] {
    const items = LIST_ROUTES.flatMap((route) => readListPage<{ url: string }>(root, route).data.map((item) => item.url));
    const article = readEnvelope<{ image: string; related: { articles: { url: string }[] } }>(
      root,
      recordFile('intelligence', 'rag-evaluation'),
    ).data;
    const index = readEnvelope<{ documentation: string; openapi: string; resource_feed: string; operations: { url: string }[] }>(
      root,
      'index.json',
    ).data;
    const feed = readJson<{
      result: { resources_hub: { url: string; entry_schema: string; feeds: { json: string } }; resources: { url: string }[] };
    }>(root, outputPath(ADDRESS.resourceFeed)).result;
    return [
      ...items,
      article.image,
      ...article.related.articles.map((ref) => ref.url),
      index.documentation,
      index.openapi,
      index.resource_feed,
      ...index.operations.map((operation) => operation.url),
      feed.resources_hub.url,
      feed.resources_hub.entry_schema,
      feed.resources_hub.feeds.json,
      ...feed.resources.map((entry) => entry.url),
      readManifest(root).site_url,
    ];
  }

  async function expectSiteUrl(env: Record<string, string>, expected: string) {
    const root = await buildInto(VALID_FIXTURE, { SOURCE_DATE_EPOCH: BUILD_ENV.SOURCE_DATE_EPOCH, ...env });
    const addresses = addressesOf(root);
    expect(addresses.length).toBeGreaterThan(20);
    for (const address of addresses) expect(address.startsWith(`${expected}/`) || address === expected, address).toBe(true);
    expect(readManifest(root).site_url).toBe(expected);
    expect(readListPage<{ url: string }>(root, 'services/list').data[1]!.url).toBe(`${expected}${recordPage('services', 'seo-audit')}`);
  }

  it('takes SITE_URL first, over every Netlify variable', async () => {
    await expectSiteUrl(
      {
        SITE_URL: 'https://api.example.test',
        CONTEXT: 'production',
        URL: 'https://prod.example.net',
        DEPLOY_PRIME_URL: 'https://preview.example.net',
      },
      'https://api.example.test',
    );
  });

  it('takes URL on a Netlify production build', async () => {
    await expectSiteUrl(
      { CONTEXT: 'production', URL: 'https://prod.example.net', DEPLOY_PRIME_URL: 'https://preview.example.net' },
      'https://prod.example.net',
    );
  });

  it('takes DEPLOY_PRIME_URL on a Netlify deploy preview', async () => {
    await expectSiteUrl(
      { CONTEXT: 'deploy-preview', URL: 'https://prod.example.net', DEPLOY_PRIME_URL: 'https://deploy-preview-42--site.netlify.app' },
      'https://deploy-preview-42--site.netlify.app',
    );
  });

  it('falls back to site_url from site.yaml without any of them', async () => {
    await expectSiteUrl({}, 'https://fixture.example');
  });

  it('takes DEPLOY_PRIME_URL on a branch deploy and drops a trailing slash (the settings, as buildSite resolves them)', () => {
    const site = { site_url: 'https://fixture.example' };
    const resolveSiteUrl = (env: Record<string, string>) => siteAddress(resolveBuildSettings(env), site);
    expect(
      resolveSiteUrl({ CONTEXT: 'branch-deploy', URL: 'https://prod.example.net', DEPLOY_PRIME_URL: 'https://next--site.netlify.app' }),
    ).toBe('https://next--site.netlify.app');
    expect(resolveSiteUrl({ SITE_URL: 'https://api.example.test/' })).toBe('https://api.example.test');
    expect(resolveSiteUrl({ CONTEXT: 'production', URL: '' })).toBe('https://fixture.example');
  });
});

describe("site.yaml's api_version", () => {
  afterAll(removeFixtureDirs);

  it('is the version health, the index, the manifest and the OpenAPI document report', async () => {
    const root = await buildInto(fixtureDir('api-version-1-4'));
    expect(readEnvelope<{ version: string }>(root, 'health.json').data.version).toBe('1.4.0');
    expect(readEnvelope<{ version: string }>(root, 'index.json').data.version).toBe('1.4.0');
    expect(readManifest(root).api_version).toBe('1.4.0');
    expect(readJson<{ info: { version: string } }>(root, '_api/v1/openapi.json').info.version).toBe('1.4.0');
  });
});

describe('the Netlify adapter', () => {
  it('runs on exactly the API base path and the MCP endpoint, as the local server routes them', async () => {
    const { config } = await import('../../netlify/edge-functions/api.ts');
    const { API_BASE_PATH, MCP_PATH } = await import('../../generator/shared/policy.ts');
    expect(config.path).toEqual([API_BASE_PATH, `${API_BASE_PATH}/*`, MCP_PATH]);
  });
});

describe('the deploy', () => {
  it('builds on a supported LTS line that package.json engines allows, and the tests run on a version it allows', async () => {
    const { readFileSync } = await import('node:fs');
    const nodeVersion = /NODE_VERSION\s*=\s*"(\d+)"/.exec(readFileSync('netlify.toml', 'utf8'))?.[1];
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    // "^20.19.0 || >=22.12.0": each alternative is a caret range (one major) or an open lower bound.
    const ranges = engines.split('||').map((range) => /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(range));
    expect(ranges.every(Boolean), engines).toBe(true);
    const allows = (version: string) => {
      const [major, minor] = version.split('.').map(Number) as [number, number];
      return ranges.some((range) => {
        const [, kind, lowMajor, lowMinor] = range!;
        const atLeast = major > Number(lowMajor) || (major === Number(lowMajor) && minor >= Number(lowMinor));
        return atLeast && (kind === '>=' || major === Number(lowMajor));
      });
    };
    expect(Number(nodeVersion) % 2, 'an even (LTS) major').toBe(0);
    expect(allows(`${nodeVersion}.0`), `Node ${nodeVersion} on Netlify`).toBe(true);
    expect(allows(process.versions.node), `this Node, ${process.versions.node}`).toBe(true);
    expect(allows('20.18.0')).toBe(false);
    expect(allows('21.7.0')).toBe(false);
  });
});
