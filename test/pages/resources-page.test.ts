/**
 * The resources hub in a real headless Chromium, served over HTTP from a build of the real `content/`:
 * filtering by category and search, the URL kept in step, back/forward, hostile URLs, no JavaScript.
 * Set UPDATE_SCREENSHOTS=1 to rewrite docs/resources-page.png from this build.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, FeedEntry } from '../../generator/schemas/feed.ts';
import { recordProblems } from '../helpers/browser.ts';
import { servedBuild } from '../helpers/served-build.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

const SCREENSHOT = fileURLToPath(new URL('../../docs/resources-page.png', import.meta.url));
const PAGE_BUDGET_BYTES = 50 * 1024;

const site = servedBuild({ env: { SOURCE_DATE_EPOCH: '1795000000', SITE_URL: 'https://example.test' }, browser: true });
let entries: FeedEntry[];
let language: string;
let context: BrowserContext | undefined;
let problems: string[] = [];

beforeAll(() => {
  language = site.result.content.site.language;
  entries = (JSON.parse(readFileSync(path.join(site.dist, outputPath(ADDRESS.resourceFeed)), 'utf8')) as Feed).result.resources;
});

/** A fresh page that records every console error, uncaught exception and failed request, checked after each test. */
async function openPage(query = '', options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  recordProblems(page, problems);
  await page.goto(`${site.server.url}${ADDRESS.hub}${query}`);
  return page;
}

afterEach(async () => {
  await context?.close();
  context = undefined;
  const seen = problems;
  problems = [];
  expect(seen).toEqual([]);
});

/** What the hub should show, worked out from the feed rather than from the page. */
function expectedIds(filter: { category?: string; search?: string }): string[] {
  const words = (filter.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return entries
    .filter((entry) => !filter.category || entry.category === filter.category)
    .filter((entry) => {
      const text = [entry.title, entry.excerpt, ...entry.topics, entry.author].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    })
    .map((entry) => entry.id);
}

const visibleIds = (page: Page) =>
  page.$$eval('#results > .card', (cards) =>
    cards.filter((card) => (card as HTMLElement).offsetParent !== null).map((card) => (card as HTMLElement).dataset.id),
  );

const queryOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** Waits until the hub shows `ids`; filtering is synchronous, but history navigation is not. */
async function expectShown(page: Page, ids: string[]): Promise<void> {
  await page
    .waitForFunction((count) => document.querySelectorAll('#results > .card:not([hidden])').length === count, ids.length, { timeout: 2000 })
    .catch(() => undefined);
  expect(await visibleIds(page)).toEqual(ids);
}

describe('/resources/ in a browser', () => {
  it('shows exactly the entries of a category given in the URL', async () => {
    const page = await openPage('?category=paid-media');
    const ids = expectedIds({ category: 'paid-media' });
    expect(ids.length).toBeGreaterThan(0);
    await expectShown(page, ids);
    expect(await page.inputValue('#hub-category')).toBe('paid-media');
    expect(await page.textContent('#hub-count')).toBe(`Showing ${ids.length} of ${entries.length} resources`);
  });

  it('filters while typing in the search box and keeps the URL in step', async () => {
    const page = await openPage();
    await page.locator('#hub-search').pressSequentially('Checklist');
    const ids = expectedIds({ search: 'checklist' });
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.length).toBeLessThan(entries.length);
    await expectShown(page, ids);
    expect(queryOf(page)).toEqual({ search: 'Checklist' });
  });

  it('requires every search word to match, in any field and any case', async () => {
    const page = await openPage();
    const [entry] = entries;
    const search = `${entry!.author.split(' ')[0]!.toUpperCase()} ${entry!.topics[0]}`;
    await page.fill('#hub-search', search);
    await expectShown(page, expectedIds({ search }));
    expect(await visibleIds(page)).toContain(entry!.id);
  });

  it('combines the category and the search', async () => {
    const page = await openPage();
    await page.selectOption('#hub-category', 'websites-agentic-commerce');
    await page.fill('#hub-search', 'data');
    const ids = expectedIds({ category: 'websites-agentic-commerce', search: 'data' });
    expect(ids.length).toBeLessThan(expectedIds({ category: 'websites-agentic-commerce' }).length);
    expect(ids.length).toBeLessThan(expectedIds({ search: 'data' }).length);
    await expectShown(page, ids);
    expect(queryOf(page)).toEqual({ category: 'websites-agentic-commerce', search: 'data' });
  });

  it('shows an empty state whose button clears every filter', async () => {
    const page = await openPage('?category=paid-media&search=zzzz-nothing');
    await expectShown(page, []);
    expect(await page.isVisible('#hub-empty')).toBe(true);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectShown(page, expectedIds({}));
    expect(await page.isVisible('#hub-empty')).toBe(false);
    expect(await page.inputValue('#hub-search')).toBe('');
    expect(await page.inputValue('#hub-category')).toBe('');
    expect(queryOf(page)).toEqual({});
    expect(await page.textContent('#hub-count')).toBe(`Showing all ${entries.length} resources`);
  });

  it('shows markup from the URL as text and runs none of it', async () => {
    const payload = '<img src=x onerror=window.__xss=1>';
    const page = await openPage(`?search=${encodeURIComponent(payload)}&category=${encodeURIComponent('<b id=injected>x</b>')}`);
    expect(await page.inputValue('#hub-search')).toBe(payload);
    expect(await page.textContent('#hub-note')).toContain('<b id=injected>x</b>');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await page.$$eval('img[src="x"], [onerror], #injected', (found) => found.length)).toBe(0);
    expect(await page.$$eval('#hub-note *', (found) => found.length)).toBe(0);
    expect(await page.$$eval('img', (images) => images.length)).toBe(entries.length);
  });

  it('ignores an unknown category with a visible note and shows every entry', async () => {
    const page = await openPage('?category=astrology');
    await expectShown(page, expectedIds({}));
    expect(await page.isVisible('#hub-note')).toBe(true);
    expect(await page.textContent('#hub-note')).toContain('"astrology"');
    expect(await page.inputValue('#hub-category')).toBe('');
  });

  it('restores the filter on back and forward', async () => {
    const page = await openPage();
    await page.selectOption('#hub-category', 'paid-media');
    await page.selectOption('#hub-category', 'growth-marketing');
    await expectShown(page, expectedIds({ category: 'growth-marketing' }));
    await page.goBack();
    await expectShown(page, expectedIds({ category: 'paid-media' }));
    expect(await page.inputValue('#hub-category')).toBe('paid-media');
    await page.goBack();
    await expectShown(page, expectedIds({}));
    expect(await page.inputValue('#hub-category')).toBe('');
    await page.goForward();
    await expectShown(page, expectedIds({ category: 'paid-media' }));
    expect(queryOf(page)).toEqual({ category: 'paid-media' });
  });

  it('lists every entry, with its links, when JavaScript is off', async () => {
    const page = await openPage('?category=paid-media', { javaScriptEnabled: false });
    await expectShown(
      page,
      entries.map((entry) => entry.id),
    );
    expect(await page.isVisible('#hub-filters')).toBe(false);
    const links = await page.$$eval('#results .card-title a', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).pathname));
    expect(links).toEqual(entries.map((entry) => `${ADDRESS.hub}${entry.id}/`));
  });

  it('labels its controls, declares its language and describes every image', async () => {
    const page = await openPage();
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    expect(await page.getByLabel('Category').evaluate((el) => el.id)).toBe('hub-category');
    expect(await page.getByLabel('Search').evaluate((el) => el.id)).toBe('hub-search');
    expect(await page.getAttribute('#hub-count', 'aria-live')).toBe('polite');
    const options = await page.$$eval('#hub-category option', (all) => all.map((option) => option.textContent));
    expect(options[0]).toBe('All categories');
    expect(options).toHaveLength(8);
    const images = await page.$$eval('#results img', (all) =>
      all.map((img) => ({
        alt: img.getAttribute('alt'),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        loading: img.getAttribute('loading'),
      })),
    );
    for (const image of images) {
      expect(image.alt).toBeTruthy();
      expect(Number(image.width)).toBeGreaterThan(0);
      expect(Number(image.height)).toBeGreaterThan(0);
      expect(image.loading).toBe('lazy');
    }
  });

  it('shows where keyboard focus is', async () => {
    const page = await openPage();
    await page.focus('#hub-search');
    await page.keyboard.press('Shift+Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('hub-category');
    expect(outline).not.toBe('none');
  });

  it('opens an entry page from its card and links back to the hub', async () => {
    const page = await openPage();
    const [entry] = entries;
    await page.getByRole('link', { name: entry!.title, exact: true }).click();
    await page.waitForURL(`${site.server.url}${ADDRESS.hub}${entry!.id}/`);
    expect(await page.textContent('h1')).toBe(entry!.title);
    await page.getByRole('link', { name: '← All resources' }).click();
    await page.waitForURL(`${site.server.url}${ADDRESS.hub}`);
  });

  it('weighs under 50 KB before images, HTML, script and stylesheet together', async () => {
    let bytes = 0;
    for (const file of [ADDRESS.hub, `${ADDRESS.hub}hub.js`, ADDRESS.stylesheet]) {
      const response = await fetch(`${site.server.url}${file}`);
      expect(response.status).toBe(200);
      bytes += (await response.arrayBuffer()).byteLength;
    }
    expect(bytes).toBeLessThan(PAGE_BUDGET_BYTES);
  });

  it('renders at 1280x900 with its images loaded', async () => {
    const page = await openPage();
    await page.waitForFunction(() =>
      [...document.images]
        .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
        .every((img) => img.complete && img.naturalWidth > 0),
    );
    const png = await page.screenshot();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      writeFileSync(SCREENSHOT, png);
    }
  });
});
