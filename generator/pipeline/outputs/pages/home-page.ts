/**
 * The site's front page, which links every address a visitor or a client starts from (the addresses from
 * shared/site-addresses.ts, the collections from the collections table), and the stylesheet every content
 * page shares.
 */
import { fileURLToPath } from 'node:url';
import { markdownCollections } from '../../../schemas/collections.ts';
import { API_BASE_PATH, MCP_PATH, RATE_LIMIT } from '../../../shared/policy.ts';
import { folderAddress, SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { basePathOf, escapeHtml, FEED_FORMATS, renderHead } from '../html.ts';
import { HOME_STYLE } from '../inline-styles.ts';
import { humanize } from '../labels.ts';
import type { OutputFile } from '../output-file.ts';

type Link = (href: string, text: string, note: string) => string;

/** The collections with record pages, as links to their lists (from the collections table). */
function browseLinks(catalogue: Pick<Catalogue, 'collections'>, link: Link): string {
  return markdownCollections(catalogue.collections)
    .filter(([, collection]) => collection.page.schema && collection.api)
    .map(([, collection]) =>
      link(folderAddress(collection.page.path), escapeHtml(humanize(collection.api!.label)), escapeHtml(collection.api!.about)),
    )
    .join('\n');
}

/** The links for agents, crawlers and feed readers. */
function machineLinks(siteUrl: string, link: Link): string {
  const { articleFeeds, llmsTxt, sitemap, robots } = SITE_ADDRESSES;
  return [
    ...FEED_FORMATS.map(({ format, title }) =>
      link(`/${articleFeeds[format]}`, `Articles (${title})`, 'the latest articles with their full text.'),
    ),
    link(
      MCP_PATH,
      'MCP endpoint',
      `for AI agents: Model Context Protocol over HTTP (<code>POST</code> only; add <code>${escapeHtml(siteUrl)}${MCP_PATH}</code> to an MCP client).`,
    ),
    link(`/${llmsTxt}`, llmsTxt, 'a guide to this site for language models.'),
    link(`/${sitemap}`, 'Sitemap', 'every page, with the day it last changed.'),
    link(`/${robots}`, robots, 'the rules for crawlers.'),
  ].join('\n');
}

function renderHomePage(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>): string {
  const base = basePathOf(catalogue.siteUrl);
  const name = escapeHtml(catalogue.site.name);
  const { reference, resourceFeed, entrySchema, hub, admin } = SITE_ADDRESSES;
  const link: Link = (href, text, note) => `<li><a href="${base}${href}">${text}</a>: ${note}</li>`;
  const head = renderHead({
    language: catalogue.site.language,
    title: `${catalogue.site.name} API`,
    description: `A read-only, public JSON API over the ${catalogue.site.name} catalogue.`,
    siteUrl: catalogue.siteUrl,
    more: `<style>${HOME_STYLE}</style>\n`,
  });
  return `${head}<body>
<main>
<h1>${name} API</h1>
<p>A read-only, public JSON API over the ${name} catalogue: services, expertise areas, industries,
AI and agentic-commerce technologies and published articles, with natural-language search.
No key is needed; send <code>GET</code> requests, at most ${RATE_LIMIT.requests} ${RATE_LIMIT.windowSeconds === 60 ? 'a minute' : `per ${RATE_LIMIT.windowSeconds} seconds`}.</p>
<h2>Start here</h2>
<ul>
${link(folderAddress(reference), 'API reference', 'every operation, parameter and response, with a form to try each one.')}
${link(`${API_BASE_PATH}/`, 'Index of operations', 'the API root, as JSON.')}
${link(`${API_BASE_PATH}/openapi.json`, 'OpenAPI 3.1 document', 'for code generators and API tools.')}
${link(`${API_BASE_PATH}/health`, 'Health check', 'the version and what is served.')}
</ul>
<h2>Resources</h2>
<ul>
${link(`/${resourceFeed}`, 'Resource feed', 'guides, templates, checklists and research reports, as JSON.')}
${link(`/${entrySchema}`, 'Feed entry schema', 'the JSON Schema of one entry of the feed.')}
${link(folderAddress(hub), escapeHtml(catalogue.site.hub.name), 'the same resources, to browse and filter.')}
</ul>
<h2>Browse</h2>
<ul>
${browseLinks(catalogue, link)}
</ul>
<h2>Feeds, agents and crawlers</h2>
<ul>
${machineLinks(catalogue.siteUrl, link)}
</ul>
<h2>Editors</h2>
<ul>
${link(folderAddress(admin), 'Content manager', 'edit the content in the browser (sign-in needed).')}
</ul>
<h2>Try it</h2>
<p><code>curl ${escapeHtml(catalogue.siteUrl)}${API_BASE_PATH}/services/list?limit=2</code></p>
</main>
</body>
</html>
`;
}

/** The front page, and the stylesheet of every content page (copied as it is). */
export function buildHomeFiles(catalogue: Pick<Catalogue, 'site' | 'siteUrl' | 'collections'>): OutputFile[] {
  return [
    { path: 'index.html', body: renderHomePage(catalogue) },
    { path: SITE_ADDRESSES.stylesheet, copyFrom: fileURLToPath(new URL('./assets/site.css', import.meta.url)) },
  ];
}
