/**
 * `sitemap.xml` (every page the build writes, with the date it last changed) and `robots.txt` naming it. The
 * pages are found in the build's own output list, so a page added later is listed without a change here.
 * Past the protocol's 50,000 addresses a file, `sitemap.xml` is an index of parts.
 */
import { DATA_DIR } from '../../../shared/data-paths.ts';
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { markdownCollections } from '../../../schemas/collections.ts';
import { sitePath } from './page-links.ts';
import { escapeHtml } from '../html.ts';

/** A page of the site: its path (`resources/x/`) and the day it last changed. */
export interface SitePage {
  path: string;
  lastmod: string;
}

/** The pages among the output paths: every `index.html`, with the day `lastmodOf` gives its path. */
export function listPages(paths: readonly string[], lastmodOf: (path: string) => string): SitePage[] {
  return paths
    .filter((file) => file === 'index.html' || file.endsWith('/index.html'))
    .map((file) => file.slice(0, -'index.html'.length))
    .sort()
    .map((path) => ({ path, lastmod: lastmodOf(path) }));
}

/** The day a page last changed: its record's `updated`, a collection's newest, else the content's newest. */
export function lastModifiedOf(catalogue: Catalogue): (page: string) => string {
  const days = new Map<string, string>();
  for (const [key, collection] of markdownCollections(catalogue.collections)) {
    const folder = `${collection.page.path}/`;
    for (const record of catalogue.records[key] ?? []) {
      days.set(sitePath(catalogue, catalogue.recordUrl(key, record)).slice(1), record.updated);
      if (record.updated > (days.get(folder) ?? '')) days.set(folder, record.updated);
    }
  }
  return (page) => days.get(page) ?? catalogue.contentTime.slice(0, 10);
}

/** The sitemap protocol's limit of addresses per file (sitemaps.org); more pages make a sitemap index. */
export const SITEMAP_LIMIT = 50_000;

const urlset = (catalogue: Catalogue, pages: readonly SitePage[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages
    .map((page) => `  <url><loc>${escapeHtml(`${catalogue.siteUrl}/${page.path}`)}</loc><lastmod>${page.lastmod}</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;

/**
 * `sitemap.xml`: every page when they fit in one file; else an index of `sitemaps/<n>.xml`, `limit` pages
 * each, with the newest day of each part.
 */
function sitemapFiles(catalogue: Catalogue, pages: readonly SitePage[], limit: number): OutputFile[] {
  if (pages.length <= limit) return [{ path: SITE_ADDRESSES.sitemap, body: urlset(catalogue, pages) }];
  const parts: OutputFile[] = [];
  const entries: string[] = [];
  for (let start = 0; start < pages.length; start += limit) {
    const part = pages.slice(start, start + limit);
    const path = `sitemaps/${parts.length + 1}.xml`;
    const lastmod = part.reduce((newest, page) => (page.lastmod > newest ? page.lastmod : newest), '');
    parts.push({ path, body: urlset(catalogue, part) });
    entries.push(`  <sitemap><loc>${escapeHtml(`${catalogue.siteUrl}/${path}`)}</loc><lastmod>${lastmod}</lastmod></sitemap>`);
  }
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
  return [{ path: SITE_ADDRESSES.sitemap, body: index }, ...parts];
}

export function buildSitemap(catalogue: Catalogue, pages: readonly SitePage[], limit = SITEMAP_LIMIT): OutputFile[] {
  // The precomputed data is the API's, not pages: crawlers read the pages and the API's own routes. The
  // content manager is for editors.
  const { admin, sitemap, robots } = SITE_ADDRESSES;
  const rules = `User-agent: *\nAllow: /\nDisallow: /${DATA_DIR}/\nDisallow: /${admin}/\n\nSitemap: ${catalogue.siteUrl}/${sitemap}\n`;
  return [...sitemapFiles(catalogue, pages, limit), { path: robots, body: rules }];
}
