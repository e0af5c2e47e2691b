/**
 * The human side of the API: the site's front page and `/docs/`, a reference rendered by Swagger UI from
 * a static copy of the OpenAPI document. Swagger UI is copied from node_modules, so the reference works
 * offline and behind any CSP that forbids third-party scripts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { FEED_PATH } from '../../../shared/data-paths.ts';
import { API_BASE_PATH, RATE_LIMIT } from '../../../shared/policy.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { feedLinkTags } from '../feed/article-feeds.ts';
import type { OutputFile } from '../output-file.ts';
import { basePathOf, escapeHtml } from '../render-markdown.ts';
import { markdownCollections } from '../../../schemas/collections.ts';
import { humanize } from '../labels.ts';

/** The files of swagger-ui-dist the page loads (the license travels with the bundle it covers). */
const SWAGGER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt'];

/**
 * Started from its own file so the page needs no inline script. `validatorUrl: null` stops Swagger UI
 * from sending the document to its public validator: the page makes no request off the site.
 */
const DOCS_SCRIPT = `// Renders the API reference from the static copy of the OpenAPI document named on #swagger-ui.
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
})();
`;

function renderDocsPage(catalogue: Pick<Catalogue, 'site' | 'siteUrl'>): string {
  const base = basePathOf(catalogue.siteUrl);
  const name = escapeHtml(catalogue.site.name);
  return `<!doctype html>
<html lang="${escapeHtml(catalogue.site.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} API reference</title>
<link rel="icon" href="data:,">
${feedLinkTags(catalogue.siteUrl, escapeHtml)}
<link rel="stylesheet" href="${base}/docs/swagger-ui.css">
</head>
<body>
<main>
<noscript><p>This reference needs JavaScript. Read the <a href="${base}/docs/openapi.json">OpenAPI document</a> directly, or go back to the <a href="${base}/">${name} API</a> page.</p></noscript>
<div id="swagger-ui" data-openapi-url="${base}/docs/openapi.json"></div>
</main>
<script src="${base}/docs/swagger-ui-bundle.js"></script>
<script src="${base}/docs/docs.js"></script>
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
${link('/docs/', 'API reference', 'every operation, parameter and response, with examples.')}
${link(`${API_BASE_PATH}/`, 'Index of operations', 'the API root, as JSON.')}
${link(`${API_BASE_PATH}/openapi.json`, 'OpenAPI 3.1 document', 'for code generators and API tools.')}
${link(`/${FEED_PATH}`, 'Resource feed', 'guides, templates, checklists and research reports, as JSON.')}
${link('/resources/', hub, 'the same resources, to browse and filter.')}
</ul>
<h2>Browse</h2>
<ul>
${browseLinks(catalogue, link)}
</ul>
<h2>Try it</h2>
<p><code>curl ${escapeHtml(catalogue.siteUrl)}${API_BASE_PATH}/services/list?limit=2</code></p>
</main>
</body>
</html>
`;
}

/** The front page, the reference page with its script and Swagger UI, and the static copy of the document. */
export function buildDocsFiles(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>, openApiJson: string): OutputFile[] {
  const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return [
    { path: 'index.html', body: renderHomePage(catalogue) },
    { path: 'docs/index.html', body: renderDocsPage(catalogue) },
    { path: 'docs/docs.js', body: DOCS_SCRIPT },
    { path: 'docs/openapi.json', body: openApiJson },
    ...SWAGGER_FILES.map((name) => ({ path: `docs/${name}`, copyFrom: path.join(swaggerDir, name) })),
  ];
}
