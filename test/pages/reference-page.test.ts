/**
 * `/docs/`, the API reference, in a real headless Chromium over the local server: it documents every
 * operation of the OpenAPI document and of the route table, passes every axe rule (not only the serious ones), stays small, and
 * its "try it" forms call the API on the page's own origin under the page's real Content-Security-Policy,
 * even when the site was built for another address.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { recordProblems } from '../helpers/browser.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

// Built for a deploy's address, served locally: "try it" must still call this server.
const site = servedBuild({
  env: { SOURCE_DATE_EPOCH: '1795000000', SITE_URL: 'https://example.test' },
  server: { handler: { limiter: createMemoryLimiter({ limit: 1_000_000 }) } },
  browser: true,
  timeout: 120_000,
});

async function withPage<T>(run: (page: Page) => Promise<T>, options: { bypassCSP?: boolean } = {}): Promise<T> {
  const context = await site.browser.newContext({ ...options, viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const response = await page.goto(`${site.server.url}${ADDRESS.reference}`);
    expect(response?.status()).toBe(200);
    return await run(page);
  } finally {
    await context.close();
  }
}

/** Fills the operation's form, sends it and returns the status line and body the page shows. */
async function tryOperation(page: Page, operationId: string, values: Record<string, string>) {
  const form = page.locator(`#${operationId} form.try`);
  for (const [name, value] of Object.entries(values)) await form.getByLabel(name, { exact: false }).first().fill(value);
  await form.getByRole('button').click();
  await form.locator('.result .status').waitFor();
  return { status: await form.locator('.result .status').innerText(), body: await form.locator('.result code').innerText() };
}

describe('the API reference page', () => {
  it('has a section, a parameter table and a try-it form for every operation of the OpenAPI document', async () => {
    const api = JSON.parse(readFileSync(path.join(site.dist, outputPath(`${ADDRESS.reference}openapi.json`)), 'utf8')) as {
      paths: Record<string, { get: { operationId: string; parameters: { name: string }[] } }>;
    };
    const html = readFileSync(path.join(site.dist, outputPath(ADDRESS.reference)), 'utf8');
    const operations = Object.values(api.paths).map((item) => item.get);
    expect(operations.length).toBeGreaterThanOrEqual(19);
    for (const operation of operations) {
      const section = html.slice(html.indexOf(`<section id="${operation.operationId}"`));
      expect(section.length, operation.operationId).toBeLessThan(html.length);
      const own = section.slice(0, section.indexOf('</section>'));
      expect(own).toContain('<form class="try"');
      for (const parameter of operation.parameters)
        expect(own, `${operation.operationId} ${parameter.name}`).toContain(`name="${parameter.name}"`);
    }
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}">/);
  });

  it('shows every operation of the route table with its path and summary, and reports no error when an example is opened', async () => {
    const { endpoints, text, title, problems } = await withPage(async (page) => {
      const problems = recordProblems(page, []);
      await page.locator('details').first().click();
      await page.waitForLoadState('networkidle');
      return {
        endpoints: await page.locator('main section[id] > .endpoint').allInnerTexts(),
        text: await page.locator('body').innerText(),
        title: await page.title(),
        problems,
      };
    });
    expect(endpoints.map((endpoint) => endpoint.trim()).sort()).toEqual(operations.map((op) => `GET /v1/${op.path}`).sort());
    for (const summary of ['List services', 'Natural-language search over services, expertise and articles', 'Health check'])
      expect(text).toContain(summary);
    expect(title).toMatch(/API reference/);
    expect(problems).toEqual([]);
  });

  it('passes every axe rule, every impact, at a phone width', async () => {
    const violations = await withPage(
      async (page) => {
        await page.addScriptTag({ content: axe.source });
        return page.evaluate(async () => {
          const run = (window as unknown as { axe: typeof axe }).axe.run;
          const result = await run(document, {
            runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
            rules: { 'target-size': { enabled: true } },
          });
          return result.violations.map(
            ({ id, nodes }) =>
              `${id}: ${nodes
                .slice(0, 2)
                .map((node) => node.target.join(' '))
                .join(', ')}`,
          );
        });
      },
      { bypassCSP: true },
    );
    expect(violations).toEqual([]);
  });

  it('loads no more than its HTML, one stylesheet and one small script, all from its own site', async () => {
    const context = await site.browser.newContext();
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${site.server.url}${ADDRESS.reference}`, { waitUntil: 'networkidle' });
      expect(requested.sort()).toEqual([
        `${site.server.url}${ADDRESS.reference}`,
        `${site.server.url}${ADDRESS.reference}reference.css`,
        `${site.server.url}${ADDRESS.reference}try-it.js`,
      ]);
    } finally {
      await context.close();
    }
    expect(readFileSync(path.join(site.dist, outputPath(`${ADDRESS.reference}try-it.js`))).length).toBeLessThan(4 * 1024);
  });

  it('stays under 50 KB, and shows an example response from examples.json when it is opened', async () => {
    expect(readFileSync(path.join(site.dist, outputPath(ADDRESS.reference))).length).toBeLessThan(50 * 1024);
    const example = await withPage(async (page) => {
      const details = page.locator('#listServices details.example');
      await details.locator('summary').click();
      await details.locator('code').filter({ hasText: '"success"' }).waitFor();
      return details.locator('pre > code').innerText();
    });
    const shown = JSON.parse(example) as { success: boolean; data: { id: string }[]; meta: { pagination: { total: number } } };
    const examples = JSON.parse(readFileSync(path.join(site.dist, outputPath(`${ADDRESS.reference}examples.json`)), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(shown).toEqual(examples.listServices);
    expect(shown.data.length).toBe(2);
    expect(shown.meta.pagination.total).toBeGreaterThan(2);
  });

  it('"try it" sends a list request to this server and shows the answer', async () => {
    const shown = await withPage((page) => tryOperation(page, 'listServices', { limit: '2' }));
    expect(shown.status).toContain('GET /v1/services/list?limit=2');
    expect(shown.status).toContain('200');
    expect(shown.status).toMatch(/RateLimit "default";r=\d+/);
    const body = JSON.parse(shown.body) as { success: boolean; data: { url: string }[]; meta: { pagination: { limit: number } } };
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(2);
    expect(body.meta.pagination.limit).toBe(2);
  });

  it('"try it" shows errors as the API gives them, and search and get routes work', async () => {
    await withPage(async (page) => {
      const bad = await tryOperation(page, 'listServices', { limit: '0' });
      expect(bad.status).toContain('400');
      expect(JSON.parse(bad.body).error.code).toBe('INVALID_PARAMETER');
      const search = await tryOperation(page, 'search', { q: 'agent payments', type: 'intelligence' });
      expect(search.status).toContain('200');
      expect(JSON.parse(search.body).data.length).toBeGreaterThan(0);
      const record = await tryOperation(page, 'getService', { id: 'agentic-storefront-build' });
      expect(JSON.parse(record.body).data.id).toBe('agentic-storefront-build');
    });
  });
});
