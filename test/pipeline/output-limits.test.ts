/**
 * Output linear in the content: a list page's pager shows a window of page numbers, so no page grows with
 * its collection; record files and record pages are spread over fan-out folders, so no folder grows with
 * it either; the sitemap becomes an index past the protocol's limit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagerWindow } from '../../generator/pipeline/outputs/pages/list-pages.ts';
import { listPath, PAGE_SIZE } from '../../generator/pipeline/outputs/pages/page-links.ts';
import { cardsPath, dictionaryPath, postingsPath } from '../../generator/search/index-format.ts';
import { buildSitemap } from '../../generator/pipeline/outputs/pages/sitemap.ts';
import { chunkPath, recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { buildLivePage } from '../../generator/pipeline/outputs/cms/live-page.ts';
import { buildInto, listFiles, removeBuildDirs, SITE_URL, tempDir } from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(removeBuildDirs);

/** The largest number of `paths` in one folder. */
function largestFolder(paths: Iterable<string>): number {
  const counts = new Map<string, number>();
  for (const file of paths) {
    const folder = file.slice(0, file.lastIndexOf('/'));
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return Math.max(...counts.values());
}

describe('the pager', () => {
  it('shows the first, the last and two pages each side of the current one, with gaps, however many pages', () => {
    expect(pagerWindow(1, 1)).toEqual([1]);
    expect(pagerWindow(1, 2)).toEqual([1, 2]);
    expect(pagerWindow(1, 5000)).toEqual([1, 2, 3, null, 5000]);
    expect(pagerWindow(2500, 5000)).toEqual([1, null, 2498, 2499, 2500, 2501, 2502, null, 5000]);
    expect(pagerWindow(5000, 5000)).toEqual([1, null, 4998, 4999, 5000]);
    expect(pagerWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (let pages = 1; pages <= 60; pages++) {
      for (let page = 1; page <= pages; page++) {
        const shown = pagerWindow(page, pages);
        expect(shown.length).toBeLessThanOrEqual(9);
        expect(shown).toContain(page);
        // Every gap hides at least one page; the numbers rise.
        const numbers = shown.filter((n): n is number => n !== null);
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
        for (const [index, n] of shown.entries()) if (n === null) expect(shown[index + 1]! - shown[index - 1]!).toBeGreaterThan(1);
      }
    }
  });
});

describe('fan-out folders', () => {
  const ids = Array.from({ length: 1_000_000 }, (_, index) => `article-${String(index).padStart(7, '0')}`);

  it('keep each folder of record files under 10,000 entries at a million records', () => {
    const files = ids.map((id) => recordPath('intelligence/get', id));
    expect(largestFolder(files)).toBeLessThan(5_000);
    expect(largestFolder(new Set(files.map((file) => file.slice(0, file.lastIndexOf('/')))))).toBeLessThanOrEqual(256);
  }, 120_000);

  it('keep each folder of record pages under 10,000 entries at a million records, with a short address', () => {
    const folders = ids.map((id) => recordPageFolder('intelligence', id));
    expect(largestFolder(folders)).toBeLessThan(10_000);
    expect(largestFolder(new Set(folders.map((folder) => folder.slice(0, folder.lastIndexOf('/')))))).toBeLessThanOrEqual(256);
    expect(recordPageFolder('intelligence', 'rag-evaluation')).toMatch(/^intelligence\/[0-9a-f]{2}\/rag-evaluation$/);
    // Stable: the folder depends on the slug alone.
    expect(recordPageFolder('intelligence', 'rag-evaluation')).toBe(recordPageFolder('intelligence', 'rag-evaluation'));
  }, 120_000);
});

/** The most entries (files and folders) any folder holds, were every path of `paths` written. */
function mostEntries(paths: Iterable<string>): { folder: string; entries: number } {
  const children = new Map<string, Set<string>>();
  for (const file of paths) {
    let end = file.lastIndexOf('/');
    let child = file;
    while (end > 0) {
      const folder = child.slice(0, end);
      const held = children.get(folder) ?? new Set<string>();
      children.set(folder, held);
      const size = held.size;
      held.add(child.slice(end + 1));
      // A folder already known from this child on up: its ancestors hold it already.
      if (held.size === size) break;
      child = folder;
      end = child.lastIndexOf('/');
    }
  }
  let most = { folder: '', entries: 0 };
  for (const [folder, held] of children) if (held.size > most.entries) most = { folder, entries: held.size };
  return most;
}

describe('numbered parts and list pages', () => {
  // 300,000 of each, far past 10,000: a list of 30 million records' chunks, a search index of 2.4 million
  // documents' cards, 4.8 GB of postings, 300 million terms; the list pages of six million records. The
  // folders of a thousand then number 300, so the largest folder is one of them, whatever the size.
  const PARTS = 300_000;
  const numbers = (count: number, from = 0) => Array.from({ length: count }, (_, index) => from + index);

  it.each([
    ['list chunks', (n: number) => chunkPath('intelligence/list', [['topic', 'ai-search']], n)],
    ['search result cards', cardsPath],
    ['search postings', postingsPath],
    ['search dictionary blocks', dictionaryPath],
  ])(
    '%s keep every folder to 1,000 entries at 300,000 parts',
    (_, pathOf) => {
      const most = mostEntries(numbers(PARTS).map(pathOf));
      expect(most.entries, most.folder).toBe(1_000);
      // The same rule at a small size: a handful of parts share one folder.
      expect(mostEntries(numbers(12).map(pathOf)).entries).toBe(12);
    },
    60_000,
  );

  it('keep every folder of list pages to about 1,000 entries at 300,000 pages, the first thousand at /page/<n>/', () => {
    const pages = numbers(PARTS, 2).map((page) => `${listPath('intelligence', { param: 'topic', value: 'ai-search' }, page)}index.html`);
    const most = mostEntries(pages);
    // page/ holds pages 2 to 999 and one folder per thousand.
    expect(most.entries, most.folder).toBe(998 + 300);
    expect(new Set(pages).size).toBe(pages.length);
    expect(listPath('intelligence', undefined, 1)).toBe('/intelligence/');
    expect(listPath('intelligence', undefined, 999)).toBe('/intelligence/page/999/');
    expect(listPath('intelligence', undefined, 1000)).toBe('/intelligence/page/1k/1000/');
    expect(listPath('intelligence', undefined, 12_345)).toBe('/intelligence/page/12k/12345/');
  }, 60_000);
});

describe("the content manager's live page", () => {
  it('computes the same fan-out folder as the build', () => {
    const script = (buildLivePage('en')[1] as { body: string }).body;
    const source = /const fanOut = (\(key\) => \{.*?\n {2}\});/s.exec(script)![1]!;
    const fanOut = new Function(`return ${source}`)() as (key: string) => string;
    for (const slug of ['rag-evaluation', 'a', 'article-0001234', 'x.y_z', 'ünï']) {
      expect(`intelligence/${fanOut(slug)}/${slug}`).toBe(recordPageFolder('intelligence', slug));
    }
  });
});

describe('a build of 40 pages of articles', () => {
  let out: string;
  let small: string;
  beforeAll(async () => {
    const root = tempDir('limits');
    await writeSyntheticContent(path.join(root, 'large'), { articles: PAGE_SIZE * 40, services: 3, expertise: 3, technology: 3 });
    await writeSyntheticContent(path.join(root, 'small'), { articles: PAGE_SIZE * 8, services: 3, expertise: 3, technology: 3 });
    [out, small] = await Promise.all([buildInto(path.join(root, 'large')), buildInto(path.join(root, 'small'))]);
  }, 120_000);

  it('writes list pages whose size does not grow with the collection', () => {
    const size = (root: string, page: string) => statSync(path.join(root, 'intelligence', page, 'index.html')).size;
    // Page 4 of 8 and page 4 of 40 show the same number of page links.
    const pagerOf = (root: string, page: string) =>
      readFileSync(path.join(root, 'intelligence', page, 'index.html'), 'utf8').match(/<nav class="pager".*?<\/nav>/s)![0];
    expect(pagerOf(out, 'page/20').match(/<li/g)).toHaveLength(9);
    expect(pagerOf(small, 'page/4').match(/<li/g)!.length).toBeLessThanOrEqual(9);
    expect(Math.abs(size(out, 'page/4') - size(small, 'page/4'))).toBeLessThan(2_000);
  });

  it('keeps every HTML page under 50 KB and links every list page from the one before', () => {
    // Every page: the collections' record and list pages, the resources', and the API reference (whose
    // example responses are loaded from docs/examples.json when opened).
    const pages = listFiles(out).filter((file) => file.endsWith('.html'));
    expect(pages).toContain(outputPath(ADDRESS.reference));
    expect(pages.length).toBeGreaterThan(800);
    for (const page of pages) expect(statSync(path.join(out, page)).size, page).toBeLessThan(50 * 1024);
    for (let page = 2; page <= 40; page++) {
      const before = readFileSync(path.join(out, 'intelligence', page === 2 ? '' : `page/${page - 1}`, 'index.html'), 'utf8');
      expect(before).toContain(`href="/intelligence/page/${page}/"`);
    }
  });

  it('puts record pages in fan-out folders, so the collection folder holds far fewer entries than records', () => {
    const entries = readdirSync(path.join(out, 'intelligence'));
    expect(entries.length).toBeLessThanOrEqual(256 + 2);
    expect(entries.filter((name) => !/^[0-9a-f]{2}$/.test(name)).sort()).toEqual(['index.html', 'page', 'topic']);
  });
});

describe('the sitemap past its limit', () => {
  it('becomes an index of parts, each within the limit, that together list every page once', () => {
    const catalogue = { siteUrl: SITE_URL } as Parameters<typeof buildSitemap>[0];
    const pages = Array.from({ length: 25 }, (_, index) => ({
      path: `p/${index}/`,
      lastmod: `2026-01-${String(index + 1).padStart(2, '0')}`,
    }));
    const files = buildSitemap(catalogue, pages, 10);
    const index = (files.find((file) => file.path === outputPath(ADDRESS.sitemap)) as { body: string }).body;
    expect(index).toContain('<sitemapindex');
    expect([...index.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)].map((match) => [match[1], match[2]])).toEqual([
      [`${SITE_URL}/sitemaps/1.xml`, '2026-01-10'],
      [`${SITE_URL}/sitemaps/2.xml`, '2026-01-20'],
      [`${SITE_URL}/sitemaps/3.xml`, '2026-01-25'],
    ]);
    const listed = files
      .filter((file) => file.path.startsWith('sitemaps/'))
      .flatMap((file) => [...(file as { body: string }).body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]));
    expect(listed).toEqual(pages.map((page) => `${SITE_URL}/${page.path}`));
    expect((buildSitemap(catalogue, pages, 25)[0] as { body: string }).body).toContain('<urlset');
  });
});
