/**
 * The resources hub (`/resources/`) and one page per entry (`/resources/<id>/`): plain HTML with every
 * entry already in the markup, so the hub works without JavaScript; `hub.js` only adds filtering.
 * Every value from content passes through `escapeHtml` (or the catalogue's `render` for bodies).
 */
import { fileURLToPath } from 'node:url';
import type { Resource } from '../../../schemas/content.ts';
import { FEED_PATH } from '../../../shared/data-paths.ts';
import { feedCategories, feedResources, toFeedEntry } from '../feed/feed-files.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../render-markdown.ts';
import { createContext, type PageContext, renderDocument } from './page-document.ts';

const ASSETS = ['hub.js', 'resources.css'];
/** Without JavaScript the hub's controls could not filter, so they are hidden; the CSP allows this text by hash. */
export const NOSCRIPT_STYLE = '.filters{display:none}';
/**
 * Cards show every image in the 1.91:1 frame of social preview images (CSS crops any other shape), so
 * the width and height reserve that space before the image loads and the list never jumps.
 */
const IMAGE_SIZE = { width: 1200, height: 630 };

/** `research-report` -> `Research report`. */
const formatType = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).replace(/-/g, ' ');

function renderTopics(topics: readonly string[]): string {
  if (!topics.length) return '';
  return `<ul class="topics" aria-label="Topics">${topics.map((topic) => `<li>${escapeHtml(topic)}</li>`).join('')}</ul>`;
}

function renderByline(context: PageContext, resource: Resource, readingTime: string, prefix = ''): string {
  return `<p class="byline">${prefix}<span class="author">${escapeHtml(resource.author)}</span> · <time datetime="${escapeHtml(resource.updated)}">${escapeHtml(context.formatDate(resource.updated))}</time> · ${escapeHtml(readingTime)}</p>`;
}

function renderCard(context: PageContext, resource: Resource): string {
  const { catalogue, base } = context;
  const entry = toFeedEntry(resource, catalogue);
  const category = catalogue.names(['categories']).get(resource.category) ?? resource.category;
  return `<li class="card" data-id="${escapeHtml(resource.id)}" data-category="${escapeHtml(resource.category)}">
<img src="${escapeHtml(base + resource.image)}" alt="${escapeHtml(`Cover of ${resource.title}`)}" width="${IMAGE_SIZE.width}" height="${IMAGE_SIZE.height}" loading="lazy" decoding="async">
<div class="card-body">
<p class="kicker">${escapeHtml(formatType(resource.type))} · ${escapeHtml(category)}</p>
<h2 class="card-title"><a href="${escapeHtml(`${base}/resources/${resource.id}/`)}">${escapeHtml(resource.title)}</a></h2>
<p class="excerpt">${escapeHtml(resource.excerpt)}</p>
${renderTopics(resource.topics)}
${renderByline(context, resource, entry.reading_time)}
</div>
</li>`;
}

function renderHub(context: PageContext, resources: readonly Resource[]): string {
  const { catalogue, base } = context;
  const { hub } = catalogue.site;
  const options = feedCategories(catalogue)
    .map((term) => `<option value="${escapeHtml(term.id)}">${escapeHtml(term.name)}</option>`)
    .join('');
  const count = `${resources.length} resource${resources.length === 1 ? '' : 's'}`;
  const main = `<h1>${escapeHtml(hub.name)}</h1>
<p class="lede">${escapeHtml(hub.description)}</p>
<p class="small">New entries: ${escapeHtml(hub.update_frequency)} · <a href="${escapeHtml(`${catalogue.siteUrl}/${FEED_PATH}`)}">JSON feed</a></p>
<form id="hub-filters" class="filters" role="search" aria-label="Filter resources">
<div class="field"><label for="hub-category">Category</label><select id="hub-category" name="category"><option value="">All categories</option>${options}</select></div>
<div class="field grow"><label for="hub-search">Search</label><input id="hub-search" name="search" type="search" autocomplete="off" spellcheck="false" placeholder="Title, topic, author…"></div>
</form>
<p id="hub-note" class="note" role="status" hidden></p>
<p id="hub-count" class="count" aria-live="polite">${count}</p>
<ul id="results" class="cards">
${resources.map((resource) => renderCard(context, resource)).join('\n')}
</ul>
<div id="hub-empty" class="empty" hidden><p>No resources match these filters.</p><button id="hub-clear" type="button">Clear filters</button></div>`;
  return renderDocument(context, {
    title: hub.name,
    description: hub.description,
    canonical: `${catalogue.siteUrl}/resources/`,
    // Without JavaScript the controls could not filter, so they are not shown at all.
    head: `<script type="module" src="${base}/resources/hub.js"></script>\n<noscript><style>${NOSCRIPT_STYLE}</style></noscript>\n`,
    main,
  });
}

function renderEntry(context: PageContext, resource: Resource): string {
  const { catalogue, base } = context;
  const entry = toFeedEntry(resource, catalogue);
  const category = catalogue.names(['categories']).get(resource.category) ?? resource.category;
  const main = `<a class="back" href="${base}/resources/">← All resources</a>
<article class="entry">
<header>
<p class="kicker">${escapeHtml(formatType(resource.type))} · <a href="${escapeHtml(`${base}/resources/?category=${encodeURIComponent(resource.category)}`)}">${escapeHtml(category)}</a></p>
<h1>${escapeHtml(resource.title)}</h1>
<p class="lede">${escapeHtml(resource.excerpt)}</p>
${renderByline(context, resource, entry.reading_time, 'By ')}
${renderTopics(resource.topics)}
</header>
<img class="hero" src="${escapeHtml(base + resource.image)}" alt="${escapeHtml(`Cover of ${resource.title}`)}" width="${IMAGE_SIZE.width}" height="${IMAGE_SIZE.height}" fetchpriority="high">
<div class="prose">
${catalogue.render(resource)}</div>
</article>`;
  return renderDocument(context, {
    title: resource.title,
    description: resource.excerpt,
    canonical: entry.url,
    main,
    type: 'article',
    image: `${catalogue.siteUrl}${resource.image}`,
    jsonLd: {
      '@type': 'Article',
      headline: resource.title,
      description: resource.excerpt,
      url: entry.url,
      image: `${catalogue.siteUrl}${resource.image}`,
      dateModified: resource.updated,
      author: { '@type': 'Person', name: resource.author },
      publisher: { '@type': 'Organization', name: catalogue.site.name, url: catalogue.siteUrl },
    },
  });
}

/** The hub, one page per entry, and the hub's script and stylesheet (copied as they are, no build step). */
export function buildResourcePages(catalogue: Catalogue): OutputFile[] {
  const context = createContext(catalogue);
  const resources = feedResources(catalogue);
  return [
    { path: 'resources/index.html', body: renderHub(context, resources) },
    ...resources.map((resource) => ({ path: `resources/${resource.id}/index.html`, body: renderEntry(context, resource) })),
    ...ASSETS.map((name) => ({ path: `resources/${name}`, copyFrom: fileURLToPath(new URL(`./assets/${name}`, import.meta.url)) })),
  ];
}
