/**
 * The human API reference at `/docs/` and the front page, served from a real build over HTTP and opened in
 * headless Chromium: the reference lists every operation, and nothing is fetched from off the site.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { operations } from '../../generator/schemas/collections.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { startSiteServer, type SiteServer } from '../helpers/site-server.ts';

let dist: string;
let server: SiteServer;
let browser: Browser;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'docs-page-'));
  await buildSite({ contentDir: 'content', outDir: dist, env: { SOURCE_DATE_EPOCH: '1795000000' } });
  server = await startSiteServer(dist);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** Opens a page and records every request it makes and every error it reports. */
async function openPage(url: string): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, problems };
}

const offSite = (requests: string[]) => requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'));

describe('the API reference at /docs/', () => {
  it('lists every operation of the API with its path and summary', async () => {
    const { page } = await openPage(`${server.url}/docs/`);
    await page
      .locator('.opblock')
      .nth(operations.length - 1)
      .waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBe(operations.length);
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(paths.map((text) => text.replace(/\u200b/g, '').trim()).sort()).toEqual(operations.map((op) => `/${op.path}`).sort());
    const text = await page.locator('body').innerText();
    for (const summary of ['List services', 'Natural-language search over services, expertise and articles', 'Health check'])
      expect(text).toContain(summary);
    await expect(page.title()).resolves.toMatch(/API reference/);
    await page.close();
  });

  it('loads only from the local site, from the static copy of the document, with no console errors', async () => {
    const { page, requests, problems } = await openPage(`${server.url}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    // Expand one operation, so schemas and examples render too.
    await page.locator('.opblock-summary').filter({ hasText: '/services/list' }).first().click();
    await page.locator('.opblock-body').first().waitFor({ timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    expect(offSite(requests)).toEqual([]);
    expect(requests).toContain(`${server.url}/docs/openapi.json`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the front page', () => {
  it('says what the API is and links to the reference, the API, the document, the feed, the hub and each collection', async () => {
    const { page, requests, problems } = await openPage(`${server.url}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en-US');
    await expect(page.locator('h1').innerText()).resolves.toBe('Brightwater Digital API');
    const links = await page.locator('main a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).toEqual([
      '/docs/',
      '/v1/',
      '/v1/openapi.json',
      '/api/resources.json',
      '/resources/',
      '/services/',
      '/expertise/',
      '/technology/',
      '/intelligence/',
    ]);
    for (const link of await page.locator('main a').allInnerTexts()) expect(link.trim()).not.toBe('');
    expect(offSite(requests)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links to a reference page and a feed that exist in the build', async () => {
    const { page } = await openPage(`${server.url}/`);
    for (const href of ['/docs/', '/docs/openapi.json', '/api/resources.json', '/resources/']) {
      const response = await page.request.get(`${server.url}${href}`);
      expect(response.status(), href).toBe(200);
    }
    await page.close();
  });
});
