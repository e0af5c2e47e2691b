/**
 * The resources hub (`SITE_ADDRESSES.hub`, `/resources/`) and one page per entry (`/resources/<id>/`): plain
 * HTML with every entry already in the markup, so the hub works without JavaScript; `hub.js` only adds
 * filtering. Every value from content passes through `escapeHtml` (or the catalogue's `render` for bodies).
 */
import { fileURLToPath } from 'node:url';
import type { Resource } from '../../../schemas/content.ts';
import { folderAddress, SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import { categoryName, feedCategories, feedResources, toFeedEntry } from '../resource-entries.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../html.ts';
import { NOSCRIPT_STYLE } from '../inline-styles.ts';
import { humanize } from '../labels.ts';
import { createContext, type PageContext, renderDocument } from './page-document.ts';

/** The hub's site-absolute address, before the site's base path. */
const HUB = folderAddress(SITE_ADDRESSES.hub);
/**
 * Cards show every image in the 1.91:1 frame of social preview images (CSS crops any other shape), so
 * the width and height reserve that space before the image loads and the list never jumps.
 */
const IMAGE_SIZE = { width: 1200, height: 630 };

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
  const category = categoryName(catalogue, resource.category);
  return `<li class="card" data-id="${escapeHtml(resource.id)}" data-category="${escapeHtml(resource.category)}">
<img src="${escapeHtml(base + resource.image)}" alt="${escapeHtml(`Cover of ${resource.title}`)}" width="${IMAGE_SIZE.width}" height="${IMAGE_SIZE.height}" loading="lazy" decoding="async">
<div class="card-body">
<p class="kicker">${escapeHtml(humanize(resource.type))} · ${escapeHtml(category)}</p>
<h2 class="card-title"><a href="${escapeHtml(`${base}${HUB}${resource.id}/`)}">${escapeHtml(resource.title)}</a></h2>
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
<p class="small">New entries: ${escapeHtml(hub.update_frequency)} · <a href="${escapeHtml(`${catalogue.siteUrl}/${SITE_ADDRESSES.resourceFeed}`)}">JSON feed</a></p>
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
    canonical: `${catalogue.siteUrl}${HUB}`,
    // Without JavaScript the controls could not filter, so they are not shown at all.
    head: `<script type="module" src="${base}${HUB}hub.js"></script>\n<noscript><style>${NOSCRIPT_STYLE}</style></noscript>\n`,
    main,
  });
}

function renderEntry(context: PageContext, resource: Resource): string {
  const { catalogue, base } = context;
  const entry = toFeedEntry(resource, catalogue);
  const category = categoryName(catalogue, resource.category);
  const main = `<a class="back" href="${base}${HUB}">← All resources</a>
<article class="entry">
<header>
<p class="kicker">${escapeHtml(humanize(resource.type))} · <a href="${escapeHtml(`${base}${HUB}?category=${encodeURIComponent(resource.category)}`)}">${escapeHtml(category)}</a></p>
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

/** The hub, one page per entry, and the hub's script (copied as it is, no build step). */
export function buildResourcePages(catalogue: Catalogue): OutputFile[] {
  const context = createContext(catalogue);
  const resources = feedResources(catalogue);
  const { hub } = SITE_ADDRESSES;
  return [
    { path: `${hub}/index.html`, body: renderHub(context, resources) },
    ...resources.map((resource) => ({ path: `${hub}/${resource.id}/index.html`, body: renderEntry(context, resource) })),
    { path: `${hub}/hub.js`, copyFrom: fileURLToPath(new URL('./assets/hub.js', import.meta.url)) },
  ];
}
