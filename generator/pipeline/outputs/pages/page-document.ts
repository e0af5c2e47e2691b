/**
 * The HTML document around every content page (the resources hub and entries, record pages, list pages):
 * one head with the canonical address, Open Graph and Twitter card tags, feed links and, where a page has
 * one, its schema.org JSON-LD; one header and footer. Every value from content passes through `escapeHtml`.
 */
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { basePathOf, escapeHtml, renderHead, scriptJson } from '../html.ts';

export interface PageContext {
  catalogue: Catalogue;
  /** Path of the site root on its host ('' at the root), so links work when the site lives in a folder. */
  base: string;
  formatDate: (day: string) => string;
}

export function createContext(catalogue: Catalogue): PageContext {
  const dates = new Intl.DateTimeFormat(catalogue.site.language, { dateStyle: 'medium', timeZone: 'UTC' });
  // Each day formatted once: a site has far fewer days than dated records, and formatting costs 20 µs a call.
  const formatted = new Map<string, string>();
  const formatDate = (day: string) => {
    const known = formatted.get(day);
    if (known !== undefined) return known;
    const text = dates.format(new Date(`${day}T00:00:00Z`));
    formatted.set(day, text);
    return text;
  };
  return { catalogue, base: basePathOf(catalogue.siteUrl), formatDate };
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

/** A content page: the site's head with the page's own links and tags, its header, main and footer. */
export function renderDocument(context: PageContext, page: PageSpec): string {
  const { catalogue, base } = context;
  const site = escapeHtml(catalogue.site.name);
  const feed = escapeHtml(`${catalogue.siteUrl}/${SITE_ADDRESSES.resourceFeed}`);
  const pagination = [
    page.prev && `<link rel="prev" href="${escapeHtml(page.prev)}">`,
    page.next && `<link rel="next" href="${escapeHtml(page.next)}">`,
  ]
    .filter(Boolean)
    .join('\n');
  const jsonLd = page.jsonLd
    ? `<script type="application/ld+json">${scriptJson({ '@context': 'https://schema.org', ...page.jsonLd })}</script>\n`
    : '';
  const more = `<link rel="canonical" href="${escapeHtml(page.canonical)}">
${pagination ? `${pagination}\n` : ''}${metaTags(catalogue, page)}
<link rel="alternate" type="application/json" title="Resource feed" href="${feed}">
<link rel="stylesheet" href="${base}/${SITE_ADDRESSES.stylesheet}">
${jsonLd}${page.head ?? ''}`;
  const head = renderHead({
    language: catalogue.site.language,
    title: `${page.title} | ${catalogue.site.name}`,
    description: page.description,
    siteUrl: catalogue.siteUrl,
    more,
  });
  return `${head}<body>
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
