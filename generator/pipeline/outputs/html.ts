/**
 * HTML for every page the build writes (the front page, the reference, content pages, the content manager):
 * escaping, and the one head they all start with. Every value from content passes through `escapeHtml`.
 */
import { SITE_ADDRESSES } from '../../shared/site-addresses.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;

/** Text as HTML text or as an attribute value (quoted with `"`); also right for XML. */
export function escapeHtml(text: string): string {
  // Most values hold nothing to escape: the test alone is several times cheaper than a replace that calls back.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char]!) : text;
}

/** The path part of the site address (`https://host/base` -> `/base`), so site-absolute links still work under it. */
export function basePathOf(siteUrl: string): string {
  return new URL(siteUrl).pathname.replace(/\/+$/, '');
}

/**
 * JSON for a `<script>` element: `<` is escaped so that no content can close the element (`</script>`) or
 * open a comment, whatever it holds.
 */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The article feeds' formats, in the order pages list them: their media types and how links name them. */
export const FEED_FORMATS = [
  { format: 'rss', type: 'application/rss+xml', title: 'RSS' },
  { format: 'atom', type: 'application/atom+xml', title: 'Atom' },
  { format: 'json', type: 'application/feed+json', title: 'JSON Feed' },
] as const;

/** The `<link rel="alternate">` lines every page carries, so a reader finds the article feeds from any page. */
export function feedLinkTags(siteUrl: string): string {
  return FEED_FORMATS.map(
    ({ format, type, title }) =>
      `<link rel="alternate" type="${type}" title="Articles (${title})" href="${escapeHtml(`${siteUrl}/${SITE_ADDRESSES.articleFeeds[format]}`)}">`,
  ).join('\n');
}

export interface HeadSpec {
  language: string;
  /** The whole title, as text. */
  title: string;
  description?: string;
  /** Kept out of search engines (the content manager's pages). */
  noindex?: boolean;
  /** Links the article feeds on this site, for pages people read. */
  siteUrl?: string;
  /** More head elements (canonical, styles, scripts), already HTML. */
  more?: string;
}

/**
 * The start of every page, to the end of its head. The empty icon stops browsers asking for a
 * /favicon.ico that the site does not have.
 */
export function renderHead(spec: HeadSpec): string {
  const lines = [
    '<!doctype html>',
    `<html lang="${escapeHtml(spec.language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    spec.noindex ? '<meta name="robots" content="noindex">' : '',
    `<title>${escapeHtml(spec.title)}</title>`,
    spec.description === undefined ? '' : `<meta name="description" content="${escapeHtml(spec.description)}">`,
    '<link rel="icon" href="data:,">',
    spec.siteUrl === undefined ? '' : feedLinkTags(spec.siteUrl),
  ];
  return `${lines.filter(Boolean).join('\n')}\n${spec.more ?? ''}</head>\n`;
}
