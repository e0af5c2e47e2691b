/**
 * The static side's headers come from one place: the build's `_headers` (what Netlify applies to the deploy),
 * which the local server applies the same way. Read over real HTTP and compared with the file.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../generator/server/create-server.ts';
import { HEADERS_FILE, headersFor, parseHeaderRules, type HeaderRule } from '../../generator/shared/header-rules.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS } from '../helpers/addresses.ts';

let dist: string;
let base: string;
let rules: HeaderRule[];
let close: () => Promise<void>;

beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
  rules = parseHeaderRules(readFileSync(path.join(dist, HEADERS_FILE), 'utf8'));
  const server = createServer({ dist });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
  removeBuildDirs();
});

const PATHS = [
  '/',
  ADDRESS.hub,
  `${ADDRESS.hub}rag-evaluation-guide/`,
  `${ADDRESS.hub}hub.js`,
  ADDRESS.reference,
  ADDRESS.stylesheet,
  ADDRESS.resourceFeed,
  ADDRESS.entrySchema,
  '/images/resources/rag-evaluation-guide.svg',
  '/_api/manifest.json',
];

describe('static headers', () => {
  it.each(PATHS)('serves %s with exactly the headers the deploy configuration gives it', async (pathname) => {
    const response = await fetch(`${base}${pathname}`);
    expect(response.status).toBe(200);
    const expected = headersFor(rules, pathname);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), `${pathname} ${name}`).toBe(value);
  });

  it('lets any site read the feed, its schema and the images', async () => {
    for (const pathname of [ADDRESS.resourceFeed, ADDRESS.entrySchema, '/images/resources/rag-evaluation-guide.svg']) {
      expect((await fetch(`${base}${pathname}`)).headers.get('Access-Control-Allow-Origin'), pathname).toBe('*');
    }
    expect((await fetch(`${base}${ADDRESS.hub}`)).headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('caches each kind of file for what suits it', async () => {
    const cache = async (pathname: string) => (await fetch(`${base}${pathname}`)).headers.get('Cache-Control');
    expect(await cache(ADDRESS.hub)).toBe('public, max-age=0, must-revalidate');
    expect(await cache(ADDRESS.resourceFeed)).toBe('public, max-age=300, must-revalidate');
    expect(await cache('/images/resources/rag-evaluation-guide.svg')).toBe('public, max-age=86400');
  });

  it('hardens every response: nosniff, a CSP on pages that forbids framing, no script in images, noindex on data', async () => {
    for (const pathname of [...PATHS, '/v1/health']) {
      expect((await fetch(`${base}${pathname}`)).headers.get('X-Content-Type-Options'), pathname).toBe('nosniff');
    }
    for (const pathname of ['/', ADDRESS.hub, ADDRESS.reference]) {
      const csp = (await fetch(`${base}${pathname}`)).headers.get('Content-Security-Policy') ?? '';
      expect(csp, pathname).toContain("default-src 'none'");
      expect(csp, pathname).toContain("frame-ancestors 'none'");
      expect(csp, pathname).not.toContain("script-src 'unsafe-inline'");
    }
    const image = (await fetch(`${base}/images/resources/rag-evaluation-guide.svg`)).headers.get('Content-Security-Policy');
    expect(image).toContain("script-src 'none'");
    expect(image).toContain('sandbox');
    expect((await fetch(`${base}/_api/manifest.json`)).headers.get('X-Robots-Tag')).toBe('noindex');
  });

  it('does not serve the rules file itself', async () => {
    expect((await fetch(`${base}/_headers`)).status).toBe(404);
  });

  it('leaves netlify.toml without header rules of its own, so the deploy has one source', () => {
    expect(readFileSync('netlify.toml', 'utf8')).not.toMatch(/^\s*\[\[headers\]\]/m);
  });
});
