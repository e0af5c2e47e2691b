/**
 * The HTML document around every content page (the resources hub and entries, record pages, list pages):
 * one head with the canonical address, Open Graph and Twitter card tags, feed links and, where a page has
 * one, its schema.org JSON-LD; one header and footer. Every value from content passes through `escapeHtml`.
 */
import { FEED_PATH } from '../../../shared/data-paths.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { feedLinkTags } from '../feed/article-feeds.ts';
import { basePathOf, escapeHtml } from '../render-markdown.ts';

export interface PageContext {
  catalogue: Catalogue;
  /** Path of the site root on its host ('' at the root), so links work when the site lives in a folder. */
  base: string;
  formatDate: (day: string) => string;
}

export function createContext(catalogue: Catalogue): PageContext {
  const dates = new Intl.DateTimeFormat(catalogue.site.language, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    catalogue,
    base: basePathOf(catalogue.siteUrl),
    formatDate: (day) => dates.format(new Date(`${day}T00:00:00Z`)),
  };
}

export interface PageSpec {
  title: string;
  description: string;
  canonical: string;
  main: string;
  /** More head elements (scripts, styles), already escaped. */
  head?: string;
  /** Open Graph type: `article` for records with an author and dates, else `website`. */
  type?: 'website' | 'article';
  /** An absolute image address for link previews. */
  image?: string;
  /** schema.org data about the page's subject. */
  jsonLd?: Record<string, unknown>;
  /** Previous and next pages of a paginated list. */
  prev?: string;
  next?: string;
}

/**
 * JSON for a `<script>` element: `<` is escaped so that no content can close the element (`</script>`) or
 * open a comment, whatever it holds.
 */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function metaTags(catalogue: Catalogue, page: PageSpec): string {
  const tags: [string, string, string][] = [
    ['property', 'og:type', page.type ?? 'website'],
    ['property', 'og:site_name', catalogue.site.name],
    ['property', 'og:title', page.title],
    ['property', 'og:description', page.description],
    ['property', 'og:url', page.canonical],
    ['property', 'og:locale', catalogue.site.language.replace('-', '_')],
    ...(page.image ? ([['property', 'og:image', page.image]] as [string, string, string][]) : []),
    ['name', 'twitter:card', page.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', page.title],
    ['name', 'twitter:description', page.description],
  ];
  return tags.map(([attribute, name, content]) => `<meta ${attribute}="${name}" content="${escapeHtml(content)}">`).join('\n');
}

/** The empty icon stops browsers asking for a /favicon.ico that the site does not have. */
export function renderDocument(context: PageContext, page: PageSpec): string {
  const { catalogue, base } = context;
  const site = escapeHtml(catalogue.site.name);
  const feed = escapeHtml(`${catalogue.siteUrl}/${FEED_PATH}`);
  const pagination = [
    page.prev && `<link rel="prev" href="${escapeHtml(page.prev)}">`,
    page.next && `<link rel="next" href="${escapeHtml(page.next)}">`,
  ]
    .filter(Boolean)
    .join('\n');
  const jsonLd = page.jsonLd
    ? `<script type="application/ld+json">${scriptJson({ '@context': 'https://schema.org', ...page.jsonLd })}</script>\n`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(catalogue.site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${feedLinkTags(catalogue.siteUrl, escapeHtml)}
<title>${escapeHtml(page.title)} | ${site}</title>
<meta name="description" content="${escapeHtml(page.description)}">
<link rel="canonical" href="${escapeHtml(page.canonical)}">
${pagination ? `${pagination}\n` : ''}${metaTags(catalogue, page)}
<link rel="alternate" type="application/json" title="Resource feed" href="${feed}">
<link rel="stylesheet" href="${base}/resources/resources.css">
${jsonLd}${page.head ?? ''}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap"><a class="home" href="${base}/">${site}</a></div></header>
<main id="main" class="wrap">
${page.main}
</main>
<footer><div class="wrap">${site} · <a href="${feed}">JSON feed</a></div></footer>
</body>
</html>
`;
}
