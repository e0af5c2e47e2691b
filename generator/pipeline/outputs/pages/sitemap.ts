/**
 * `sitemap.xml` (every page the build writes, with the date it last changed) and `robots.txt` naming it. The
 * pages are found in the build's own output list, so a page added later is listed without a change here.
 */
import { DATA_DIR } from '../../../shared/data-paths.ts';
import { ADMIN_DIR } from '../cms/cms-files.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../render-markdown.ts';

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

export function buildSitemap(catalogue: Catalogue, pages: readonly SitePage[]): OutputFile[] {
  const urls = pages.map(
    (page) => `  <url><loc>${escapeHtml(`${catalogue.siteUrl}/${page.path}`)}</loc><lastmod>${page.lastmod}</lastmod></url>`,
  );
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  // The precomputed data is the API's, not pages: crawlers read the pages and the API's own routes. The
  // content manager is for editors.
  const robots = `User-agent: *\nAllow: /\nDisallow: /${DATA_DIR}/\nDisallow: /${ADMIN_DIR}/\n\nSitemap: ${catalogue.siteUrl}/sitemap.xml\n`;
  return [
    { path: 'sitemap.xml', body: sitemap },
    { path: 'robots.txt', body: robots },
  ];
}
