/**
 * The front page (`/`), served from a real build over HTTP and opened in headless Chromium: it says what the
 * API is, links every public address, each of which exists, and fetches nothing from off the site.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordProblems } from '../helpers/browser.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS } from '../helpers/addresses.ts';

const site = servedBuild({ env: { SOURCE_DATE_EPOCH: '1795000000' }, browser: true });

/** Opens a page and records every request it makes and every error it reports. */
async function openPage(url: string): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await site.browser.newPage();
  const requests: string[] = [];
  const problems = recordProblems(page, []);
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests, problems };
}

const offSite = (requests: string[]) => requests.filter((url) => !url.startsWith(`${site.server.url}/`) && !url.startsWith('data:'));

describe('the front page', () => {
  it("says what the API is and links every public address: the reference, the API, the feeds, each collection, MCP, the crawlers' files and the editor", async () => {
    const { page, requests, problems } = await openPage(`${site.server.url}/`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en-US');
    await expect(page.locator('h1').innerText()).resolves.toBe('Brightwater Digital API');
    const links = await page.locator('main a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).toEqual([
      ADDRESS.reference,
      '/v1/',
      '/v1/openapi.json',
      '/v1/health',
      ADDRESS.resourceFeed,
      ADDRESS.entrySchema,
      ADDRESS.hub,
      '/services/',
      '/expertise/',
      '/technology/',
      '/intelligence/',
      ADDRESS.rss,
      ADDRESS.atom,
      ADDRESS.jsonFeed,
      '/mcp',
      ADDRESS.llmsTxt,
      ADDRESS.sitemap,
      ADDRESS.robots,
      ADDRESS.admin,
    ]);
    for (const link of await page.locator('main a').allInnerTexts()) expect(link.trim()).not.toBe('');
    expect(offSite(requests)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links to a reference page and a feed that exist in the build', async () => {
    const { page } = await openPage(`${site.server.url}/`);
    for (const href of [
      ADDRESS.reference,
      `${ADDRESS.reference}openapi.json`,
      ADDRESS.resourceFeed,
      ADDRESS.hub,
      ADDRESS.llmsTxt,
      ADDRESS.sitemap,
      ADDRESS.admin,
    ]) {
      const response = await page.request.get(`${site.server.url}${href}`);
      expect(response.status(), href).toBe(200);
    }
    await page.close();
  });
});
