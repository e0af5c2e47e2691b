/**
 * The human side of the API: the site's front page and `/docs/`, the reference rendered at build time
 * from the OpenAPI document (reference-page.ts), with a static copy of the document beside it.
 */
import { fileURLToPath } from 'node:url';
import { ENTRY_SCHEMA_PATH, FEED_PATH } from '../../../shared/data-paths.ts';
import { API_BASE_PATH, MCP_PATH, RATE_LIMIT } from '../../../shared/policy.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { ARTICLE_FEEDS, feedLinkTags } from '../feed/article-feeds.ts';
import type { OutputFile } from '../output-file.ts';
import { basePathOf, escapeHtml } from '../render-markdown.ts';
import { markdownCollections } from '../../../schemas/collections.ts';
import { humanize } from '../labels.ts';
import { referenceExamples, renderReferenceBody } from './reference-page.ts';
import type { OpenApi } from './reference-schema.ts';

/** The reference page's own files, beside it: its styles and the "try it" script. */
const REFERENCE_ASSETS = ['reference.css', 'try-it.js'];

function renderDocsPage(catalogue: Pick<Catalogue, 'site' | 'siteUrl'>, api: OpenApi): string {
  const base = basePathOf(catalogue.siteUrl);
  const name = escapeHtml(catalogue.site.name);
  return `<!doctype html>
<html lang="${escapeHtml(catalogue.site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} API reference</title>
<meta name="description" content="Every operation of the ${name} API (version ${escapeHtml(api.info.version)}): parameters, responses, fields and examples, with a form to try each one.">
<link rel="icon" href="data:,">
${feedLinkTags(catalogue.siteUrl, escapeHtml)}
<link rel="stylesheet" href="${base}/docs/reference.css">
<script type="module" src="${base}/docs/try-it.js"></script>
</head>
<body>
<a class="skip" href="#contents-title">Skip to the operations</a>
<div class="page">
<header><p><a href="${base}/">${name}</a></p><h1>${escapeHtml(api.info.title)} reference</h1>
<p>Version ${escapeHtml(api.info.version)}. Base address <code>${escapeHtml(api.servers[0]?.url ?? '')}/</code>. Machine-readable: the <a href="${base}/docs/openapi.json">OpenAPI 3.1 document</a>.</p></header>
<main>
${renderReferenceBody(api, `${base}${API_BASE_PATH}`)}
</main>
</div>
</body>
</html>
`;
}

/** The home page's only styles, inline; the page's Content-Security-Policy allows exactly this text (by hash). */
export const HOME_STYLE = `
body { font: 1.0625rem/1.6 system-ui, sans-serif; color: #1a1a1a; background: #fff; max-width: 42rem; margin: 0 auto; padding: 2rem 1.25rem; }
a { color: #0645ad; } a:focus-visible { outline: 3px solid #0645ad; outline-offset: 2px; }
code { font-size: 0.95em; background: #f2f2f2; padding: 0.1em 0.3em; border-radius: 3px; overflow-wrap: anywhere; }
li { margin: 0.4rem 0; }
`;

/** The collections with record pages, as home-page links to their lists (from the collections table). */
function browseLinks(catalogue: Pick<Catalogue, 'collections'>, link: (href: string, text: string, note: string) => string): string {
  return markdownCollections(catalogue.collections)
    .filter(([, collection]) => collection.page.schema && collection.api)
    .map(([, collection]) =>
      link(`/${collection.page.path}/`, escapeHtml(humanize(collection.api!.label)), escapeHtml(collection.api!.about)),
    )
    .join('\n');
}

function renderHomePage(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>): string {
  const base = basePathOf(catalogue.siteUrl);
  const name = escapeHtml(catalogue.site.name);
  const hub = escapeHtml(catalogue.site.hub.name);
  const link = (href: string, text: string, note: string) => `<li><a href="${base}${href}">${text}</a>: ${note}</li>`;
  return `<!doctype html>
<html lang="${escapeHtml(catalogue.site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} API</title>
<meta name="description" content="A read-only, public JSON API over the ${name} catalogue.">
<link rel="icon" href="data:,">
${feedLinkTags(catalogue.siteUrl, escapeHtml)}
<style>${HOME_STYLE}</style>
</head>
<body>
<main>
<h1>${name} API</h1>
<p>A read-only, public JSON API over the ${name} catalogue: services, expertise areas, industries,
AI and agentic-commerce technologies and published articles, with natural-language search.
No key is needed; send <code>GET</code> requests, at most ${RATE_LIMIT.requests} ${RATE_LIMIT.windowSeconds === 60 ? 'a minute' : `per ${RATE_LIMIT.windowSeconds} seconds`}.</p>
<h2>Start here</h2>
<ul>
${link('/docs/', 'API reference', 'every operation, parameter and response, with a form to try each one.')}
${link(`${API_BASE_PATH}/`, 'Index of operations', 'the API root, as JSON.')}
${link(`${API_BASE_PATH}/openapi.json`, 'OpenAPI 3.1 document', 'for code generators and API tools.')}
${link(`${API_BASE_PATH}/health`, 'Health check', 'the version and what is served.')}
</ul>
<h2>Resources</h2>
<ul>
${link(`/${FEED_PATH}`, 'Resource feed', 'guides, templates, checklists and research reports, as JSON.')}
${link(`/${ENTRY_SCHEMA_PATH}`, 'Feed entry schema', 'the JSON Schema of one entry of the feed.')}
${link('/resources/', hub, 'the same resources, to browse and filter.')}
</ul>
<h2>Browse</h2>
<ul>
${browseLinks(catalogue, link)}
</ul>
<h2>Feeds, agents and crawlers</h2>
<ul>
${ARTICLE_FEEDS.map((feed) => link(`/${feed.path}`, `Articles (${feed.title})`, 'the latest articles with their full text.')).join('\n')}
${link(MCP_PATH, 'MCP endpoint', `for AI agents: Model Context Protocol over HTTP (<code>POST</code> only; add <code>${escapeHtml(catalogue.siteUrl)}${MCP_PATH}</code> to an MCP client).`)}
${link('/llms.txt', 'llms.txt', 'a guide to this site for language models.')}
${link('/sitemap.xml', 'Sitemap', 'every page, with the day it last changed.')}
${link('/robots.txt', 'robots.txt', 'the rules for crawlers.')}
</ul>
<h2>Editors</h2>
<ul>
${link('/admin/', 'Content manager', 'edit the content in the browser (sign-in needed).')}
</ul>
<h2>Try it</h2>
<p><code>curl ${escapeHtml(catalogue.siteUrl)}${API_BASE_PATH}/services/list?limit=2</code></p>
</main>
</body>
</html>
`;
}

/** The front page, the reference page with its examples, styles and script, and the static copy of the document. */
export function buildDocsFiles(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>, openApiJson: string): OutputFile[] {
  const api = JSON.parse(openApiJson) as OpenApi;
  return [
    { path: 'index.html', body: renderHomePage(catalogue) },
    { path: 'docs/index.html', body: renderDocsPage(catalogue, api) },
    { path: 'docs/examples.json', body: JSON.stringify(referenceExamples(api)) },
    { path: 'docs/openapi.json', body: openApiJson },
    ...REFERENCE_ASSETS.map((name) => ({ path: `docs/${name}`, copyFrom: fileURLToPath(new URL(`./assets/${name}`, import.meta.url)) })),
  ];
}
