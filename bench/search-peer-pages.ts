/**
 * The pages Pagefind indexes in the static-search comparison (bench/search-peer.ts), as pure functions: where
 * a document's page sits, the page of a synthetic article (the shape of the build's record pages: the title
 * as h1, its terms above it, the summary as the lede, the tags, the body), the type filter added to the copy
 * of a record page Pagefind reads, and the record a result's address names. Nothing imported but a type:
 * the Deno runner (bench/search-peer-deno.ts) uses the last one.
 */
import type { SearchDocument } from '../generator/search/index-format.ts';

/** What Pagefind indexes of each page (its `--root-selector` option): the record's article, not the site's header. */
export const ROOT_SELECTOR = 'article.entry';

/** A document as the search index takes it, less what its result card stores. */
type PageDocument = Omit<SearchDocument, 'stored'>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : '&quot;'));

/** `type:slug` as its two parts. */
function splitId(id: string): [type: string, slug: string] {
  const colon = id.indexOf(':');
  return [id.slice(0, colon), id.slice(colon + 1)];
}

/** The page of a synthetic document, under its type and a fan-out folder as the build's pages are: `type/NNN/slug/index.html`. */
export function syntheticPagePath(id: string): string {
  const [type, slug] = splitId(id);
  let hash = 0;
  for (const char of slug) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${type}/${String(hash % 1000).padStart(3, '0')}/${slug}/index.html`;
}

/** The type a result belongs to, as a Pagefind filter on the indexed root (what `type=` asks of our search). */
const typeFilter = (id: string) => `data-pagefind-filter="type:${escapeHtml(splitId(id)[0])}"`;

/** A synthetic document as a record page of the build's shape, every field the index holds in it. */
export function syntheticPage(document: PageDocument): string {
  const tags = document.tags
    .split(/\s+/)
    .filter(Boolean)
    .map((tag) => `<li>${escapeHtml(tag)}</li>`)
    .join('');
  return [
    '<!doctype html>',
    `<html lang="en-US"><head><meta charset="utf-8"><title>${escapeHtml(document.title)}</title></head><body>`,
    `<main id="main"><article class="entry" ${typeFilter(document.id)}><header>`,
    `<p class="kicker">${escapeHtml(document.terms)}</p>`,
    `<h1>${escapeHtml(document.title)}</h1>`,
    `<p class="lede">${escapeHtml(document.summary)}</p>`,
    `<ul class="topics">${tags}</ul>`,
    `</header><div class="prose"><p>${escapeHtml(document.body)}</p></div></article></main>`,
    '</body></html>',
  ].join('\n');
}

/** A record page of the build with the record's type filter on its article (the page is otherwise unchanged). */
export function withTypeFilter(page: string, id: string): string {
  const article = '<article class="entry"';
  if (!page.includes(article)) throw new Error(`the page of ${id} has no ${article}>`);
  return page.replace(article, () => `${article} ${typeFilter(id)}`);
}

/** The record a result's address names: `/services/be/llm-demand-forecasting/` is `services:llm-demand-forecasting`. */
export function idOfUrl(url: string): string {
  const parts = url.split('/').filter(Boolean);
  return `${parts[0]}:${parts[parts.length - 1]}`;
}
