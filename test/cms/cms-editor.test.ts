/**
 * Editing in the browser: `npm run dev` on a copy of the content, with Decap's local proxy, driven in a real
 * headless Chromium. A new article made through the form becomes a valid Markdown file that `npm run check`
 * accepts and the API serves after the rebuild; an edit to a service's summary is served; an article with a
 * required field empty is refused and writes nothing. Set UPDATE_SCREENSHOTS=1 to rewrite docs/cms-editor.png.
 */
import { recordPage } from '../helpers/build-output.ts';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsYaml from 'js-yaml';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { ADDRESS } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

const SCREENSHOT = fileURLToPath(new URL('../../docs/cms-editor.png', import.meta.url));
let root: string;
let content: string;
let child: ChildProcess;
let base: string;
let browser: Browser;
let output = '';

/** Waits until `test` holds, polling; fails with `what` after `ms`. */
async function until<T>(what: string, test: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await test();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  root = scratchDir('cms-editor');
  content = path.join(root, 'content');
  cpSync('content', content, { recursive: true });
  child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', path.join(root, 'dist')], {
    env: { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  base = await until('the dev server and the content manager', () => output.match(/Content manager at (http:\/\/[^/ ]+)\//)?.[1], 40_000);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  rmSync(root, { recursive: true, force: true });
});

/** The editor at `hash`, logged in to the local backend. */
async function openEditor(hash: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}${ADDRESS.admin}#${hash}`);
  await page.getByRole('button', { name: /login/i }).click();
  return page;
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByText('Publish now', { exact: true }).click();
}

const api = async (route: string) => {
  const response = await fetch(`${base}/v1/${route}`);
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
};

describe('the content manager', () => {
  it('creates an article through the form that the build accepts and the API serves', async () => {
    const page = await openEditor('/collections/intelligence/new');
    await page.getByLabel('Title', { exact: true }).fill('Agents that compare prices');
    await page.getByLabel('Summary', { exact: true }).fill('What a price-comparing agent reads on a product page.');
    await page.getByLabel('Date', { exact: true }).fill('2026-01-15');
    await page.getByLabel('Author', { exact: true }).fill('Test Author');
    await page.getByLabel('Topics', { exact: true }).fill('Agentic');
    await page.keyboard.press('Enter');
    await page.locator('[contenteditable=true]').first().click();
    await page.keyboard.type('Agents read structured prices.');
    await publish(page);
    const file = path.join(content, 'intelligence', 'agents-that-compare-prices.md');
    // The proxy may create the file before it has written it: wait for the whole of it.
    const text = await until('the saved file', () => {
      const saved = existsSync(file) ? readFileSync(file, 'utf8') : '';
      return saved.includes('Agents read structured prices.') ? saved : undefined;
    });
    const [, front] = text.split('---\n');
    expect(jsYaml.load(front!)).toMatchObject({
      title: 'Agents that compare prices',
      author: 'Test Author',
      topics: ['agentic-commerce'],
      draft: false,
    });
    expect(text).toMatch(/---\nAgents read structured prices\.\n?$/);
    const check = spawnSync(process.execPath, ['generator/launch.mjs', 'pipeline/cli.ts', 'check', '--content', content], {
      encoding: 'utf8',
    });
    expect(check.status, check.stderr).toBe(0);
    const served = await until('the rebuilt API', async () => {
      const answer = await api('intelligence/get?id=agents-that-compare-prices');
      return answer.status === 200 ? answer.body.data : undefined;
    });
    expect(served.title).toBe('Agents that compare prices');
    await page.close();
  }, 60_000);

  it('saves an edit to a service that the API then serves', async () => {
    const page = await openEditor('/collections/services/entries/agentic-storefront-build');
    const summary = page.getByLabel('Summary', { exact: true });
    await summary.fill('Storefronts that shoppers and their agents can both use.');
    if (process.env.UPDATE_SCREENSHOTS === '1') writeFileSync(SCREENSHOT, await page.screenshot());
    await publish(page);
    const served = await until('the edited summary', async () => {
      const answer = await api('services/get?id=agentic-storefront-build');
      return answer.body.data.summary === 'Storefronts that shoppers and their agents can both use.' ? answer.body.data : undefined;
    });
    expect(served.title).toBe('Agentic Storefront Build');
    await page.close();
  }, 60_000);

  it('previews a record as its page shows it, with the site stylesheet, and View Live opens its page here', async () => {
    const page = await openEditor('/collections/services/entries/conversion-rate-optimisation-programme');
    // "View Live" (shown while nothing is unsaved) opens the record's page on this dev server, not the production site.
    const live = await page.locator('a', { hasText: 'View Live' }).getAttribute('href', { timeout: 20_000 });
    expect(live).toBe(`${base}${ADDRESS.admin}live/?page=services/conversion-rate-optimisation-programme`);
    await page.getByLabel('Title', { exact: true }).fill('A title typed into the form');
    const preview = page.frameLocator('iframe').first();
    await expect(preview.locator('article.entry h1').first().textContent()).resolves.toBe('A title typed into the form');
    // The preview is styled by the site's own stylesheet, loaded in its frame. The typed title can show
    // before the stylesheet has loaded, so this is asked until it has (or the poll's time runs out).
    const styled = () =>
      preview
        .locator('html')
        .evaluate(
          (_, stylesheet) => [...document.styleSheets].some((sheet) => sheet.href?.endsWith(stylesheet) && sheet.cssRules.length > 0),
          ADDRESS.stylesheet,
        );
    await expect.poll(styled, { timeout: 10_000 }).toBe(true);
    // Decap's local proxy saves files only: the editor falls back from the configured editorial workflow
    // (draft, in review, ready on Netlify) to publishing at once, so there is no workflow board here.
    const config = await (await fetch(`${base}${ADDRESS.admin}config.yml`)).text();
    expect(config).toMatch(/^publish_mode: editorial_workflow$/m);
    await expect(page.getByRole('button', { name: 'Publish', exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: /workflow/i }).count()).resolves.toBe(0);
    // The live page moves on to the record's page, in its fan-out folder.
    await page.goto(live!);
    await page.waitForURL(`${base}${recordPage('services', 'conversion-rate-optimisation-programme')}`);
    await expect(page.locator('h1').first().textContent()).resolves.toBe('Conversion Rate Optimisation Programme');
    await page.close();
  }, 60_000);

  it('refuses to save an article with a required field empty, and writes nothing', async () => {
    const before = readdirSync(path.join(content, 'intelligence')).sort();
    const page = await openEditor('/collections/intelligence/new');
    await page.getByLabel('Title', { exact: true }).fill('An article without an author');
    await publish(page);
    await expect(
      page
        .getByText(/required field/i)
        .first()
        .waitFor({ timeout: 10_000 }),
    ).resolves.toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readdirSync(path.join(content, 'intelligence')).sort()).toEqual(before);
    await page.close();
  }, 60_000);
});
