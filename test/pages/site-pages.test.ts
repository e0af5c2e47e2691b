/**
 * The whole site over real HTTP: a link check that crawls every page from `/` and follows every `url` the
 * API, the feeds and the sitemap give (each internal link answers 200 with the right content type), and
 * axe-core in a real headless Chromium on one page of each kind (no serious or critical violation).
 */
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { recordPage } from '../helpers/build-output.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS } from '../helpers/addresses.ts';

const SITE = 'https://example.test';
const site = servedBuild({
  env: { SOURCE_DATE_EPOCH: '1795000000', SITE_URL: SITE },
  server: { handler: { limiter: createMemoryLimiter({ limit: 1_000_000 }) } },
  browser: true,
  timeout: 60_000,
});

/** The content type a path must be served with. */
function expectedType(pathname: string): RegExp {
  if (pathname.startsWith('/v1/') || pathname.endsWith('.json')) return /^application\/(json|feed\+json)/;
  if (pathname.endsWith('/') || pathname.endsWith('.html')) return /^text\/html/;
  const types: Record<string, RegExp> = {
    css: /^text\/css/,
    js: /javascript/,
    xml: /xml/,
    svg: /^image\/svg\+xml/,
    txt: /^text\/plain/,
    png: /^image\/png/,
  };
  return types[pathname.split('.').pop() ?? ''] ?? /./;
}

/** Internal addresses in a page or a document: links, sources, and every `url`/`loc`/`link` value. */
function addressesIn(text: string, type: string): string[] {
  if (type.includes('html')) return [...text.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
  if (type.includes('json')) return [...text.matchAll(/"(?:url|home_page_url|feed_url)":"([^"]+)"/g)].map((match) => match[1]!);
  if (type.includes('xml'))
    return [...text.matchAll(/<(?:loc|link|id)>([^<]+)<\/|<link[^>]*href="([^"]+)"/g)].map((match) => (match[1] ?? match[2])!);
  return [];
}

/** An address as a path on the local server, or null when it is another site's. */
function localPath(address: string, from: string): string | null {
  const url = new URL(address, new URL(from, site.server.url));
  if (url.origin !== site.server.url && url.origin !== SITE) return null;
  return url.pathname + url.search;
}

describe('the link check', () => {
  it('reaches every page from / and every url of the API, feeds and sitemap, each 200 with its content type', async () => {
    const starts = [
      '/',
      ADDRESS.sitemap,
      ADDRESS.robots,
      ADDRESS.llmsTxt,
      ADDRESS.resourceFeed,
      ADDRESS.rss,
      ADDRESS.atom,
      ADDRESS.jsonFeed,
    ];
    for (const collection of ['services', 'expertise', 'technology', 'intelligence']) starts.push(`/v1/${collection}/list?limit=100`);
    const queue = [...starts];
    const seen = new Set(queue);
    const broken: string[] = [];
    let pages = 0;
    while (queue.length) {
      const target = queue.shift()!;
      const response = await fetch(site.server.url + target, { redirect: 'manual' });
      const type = response.headers.get('content-type') ?? '';
      const text = await response.text();
      const { pathname } = new URL(target, site.server.url);
      // The MCP endpoint answers POST only; a GET, as a link gives it, is its 405.
      if (pathname === '/mcp') {
        if (response.status !== 405) broken.push(`${target}: ${response.status}`);
        continue;
      }
      if (response.status !== 200 || !expectedType(pathname).test(type)) broken.push(`${target}: ${response.status} ${type}`);
      if (type.includes('html')) pages++;
      // The API's own answers, and the reference's example answers (docs/examples.json), are fetched but not
      // crawled: their operation addresses need parameters a link does not give.
      if ((pathname.startsWith('/v1/') || pathname === `${ADDRESS.reference}examples.json`) && !starts.includes(target)) continue;
      for (const address of addressesIn(text, type)) {
        if (address.startsWith('#') || address.startsWith('data:') || address.startsWith('mailto:')) continue;
        const local = localPath(address, target);
        if (local === null) continue;
        const clean = local.split('#')[0]!;
        if (!seen.has(clean)) {
          seen.add(clean);
          queue.push(clean);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(pages).toBeGreaterThan(80);
    expect(seen.has('/intelligence/')).toBe(true);
  }, 120_000);
});

/** One page of each kind. */
const PAGES = [
  '/',
  '/services/',
  recordPage('services', 'agentic-storefront-build'),
  '/expertise/industry/healthcare/',
  recordPage('technology', 'agent-payments-protocol'),
  recordPage('intelligence', 'how-ai-agents-pay-ap2-x402'),
  ADDRESS.hub,
];

describe('accessibility', () => {
  it.each(PAGES)(
    '%s has no serious or critical axe violation',
    async (pagePath) => {
      // axe is injected by the test; the pages' own policy allows no script, which is the point of it.
      const context = await site.browser.newContext({ bypassCSP: true });
      try {
        const page = await context.newPage();
        const response = await page.goto(site.server.url + pagePath);
        expect(response?.status()).toBe(200);
        await page.addScriptTag({ content: axe.source });
        const { passes, violations } = await page.evaluate(async () => {
          const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
          return {
            passes: result.passes.length,
            violations: result.violations.map(({ id, impact, nodes }) => ({
              id,
              impact,
              targets: nodes.slice(0, 3).map((node) => node.target.join(' ')),
            })),
          };
        });
        // The rules ran (a page that failed to load would pass none).
        expect(passes).toBeGreaterThan(10);
        expect(violations.filter(({ impact }) => impact === 'serious' || impact === 'critical')).toEqual([]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
