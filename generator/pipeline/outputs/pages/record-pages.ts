/**
 * A page for every record the API gives a `url` (services, expertise areas, technologies, articles): the
 * record as its get route answers it, in the resources hub's look, working without JavaScript. Terms and
 * related records link to their pages; the head carries the canonical address, link-preview tags and
 * schema.org JSON-LD. Drafts and scheduled records are not in the catalogue, so they get no page.
 */
import type { AnyEntry, MarkdownCollection, Relation } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { keptRelated } from '../records/kept-relations.ts';
import { createShaper, recordInputs } from '../records/shape-records.ts';
import { humanize } from '../labels.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../html.ts';
import { pagedCollections } from '../paged-collections.ts';
import { reachedRecords } from '../reached-records.ts';
import { recordJsonLd } from './json-ld.ts';
import { createContext, type PageContext, renderDocument } from './page-document.ts';
import { listPath, sitePath, termLink } from './page-links.ts';

type Json = Record<string, unknown>;
type Ref = { id: string; name?: string; title?: string; url?: string };

/** Fields every page shows in its own place besides its collection's title, summary and date; the others are listed as facts. */
const PLACED = ['id', 'slug', 'url', 'updated', 'author', 'reading_time', 'related'];
const PLACED_AS_TERMS = new Set(['category', 'industries', 'topics', 'technologies', 'tags', 'image', 'content_html']);

const isLink = (value: string) => /^https?:\/\//.test(value);

function renderValue(value: unknown): string {
  if (Array.isArray(value)) return `<ul>${value.map((item) => `<li>${escapeHtml(String(item))}</li>`).join('')}</ul>`;
  const text = typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
  return isLink(text) ? `<a href="${escapeHtml(text)}" rel="external">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** Scalar and list fields a collection has beyond the common ones (deliverables, status, maintainer, website...). */
function renderFacts(shaped: Json, fields: MarkdownCollection['fields']): string {
  const placed = new Set([...PLACED, ...Object.values(fields)]);
  const facts = Object.entries(shaped).filter(
    ([name, value]) =>
      !placed.has(name) && !PLACED_AS_TERMS.has(name) && value !== null && value !== '' && !(Array.isArray(value) && !value.length),
  );
  if (!facts.length) return '';
  return `<dl class="facts">\n${facts.map(([name, value]) => `<dt>${escapeHtml(humanize(name))}</dt><dd>${renderValue(value)}</dd>`).join('\n')}\n</dl>`;
}

/** A term or record as a link to its page when it has one. */
function renderRef(context: PageContext, key: string, relation: Relation, ref: Ref): string {
  const label = escapeHtml(ref.title ?? ref.name ?? ref.id);
  const href = ref.url
    ? sitePath(context.catalogue, ref.url)
    : relation.kind === 'term' || relation.kind === 'terms'
      ? termLink(context.catalogue, key, relation, ref.id)
      : undefined;
  return href ? `<a href="${escapeHtml(context.base + href)}">${label}</a>` : label;
}

/** The `related` object as sections of links, in the collections table's order (the category aside). */
function renderRelated(context: PageContext, key: string, shaped: Json): string {
  // The category is named in the page's kicker already.
  const { category: _, ...relations } = context.catalogue.collection(key).api?.relations ?? {};
  const related = (shaped.related ?? {}) as Record<string, Ref | Ref[] | null>;
  return Object.entries(relations)
    .flatMap(([name, relation]) => {
      const refs = ([] as (Ref | null)[]).concat(related[name] ?? []).filter((ref): ref is Ref => ref !== null);
      if (!refs.length) return [];
      const items = refs.map((ref) => `<li>${renderRef(context, key, relation, ref)}</li>`).join('');
      return [
        `<section class="related" aria-labelledby="related-${escapeHtml(name)}"><h2 id="related-${escapeHtml(name)}">${escapeHtml(humanize(name))}</h2><ul>${items}</ul></section>`,
      ];
    })
    .join('\n');
}

function renderByline(context: PageContext, shaped: Json, fields: MarkdownCollection['fields']): string {
  const day = String((fields.date && shaped[fields.date]) ?? shaped.updated);
  const author = typeof shaped.author === 'string' ? `By <span class="author">${escapeHtml(shaped.author)}</span> · ` : 'Updated ';
  return `<p class="byline">${author}<time datetime="${escapeHtml(day)}">${escapeHtml(context.formatDate(day))}</time> · ${escapeHtml(String(shaped.reading_time))}</p>`;
}

function renderRecordPage(context: PageContext, key: string, record: AnyEntry, shaped: Json): string {
  const { catalogue, base } = context;
  const collection = catalogue.collection(key);
  const title = String(shaped[collection.fields.title]);
  const category = (shaped.related as { category?: Ref | null } | undefined)?.category;
  const categoryRelation = collection.api?.relations?.category;
  const kicker = [
    escapeHtml(humanize(collection.noun)),
    category && categoryRelation ? renderRef(context, key, categoryRelation, category) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const tags =
    Array.isArray(shaped.tags) && shaped.tags.length
      ? `<ul class="topics" aria-label="Tags">${shaped.tags.map((tag) => `<li>${escapeHtml(String(tag))}</li>`).join('')}</ul>`
      : '';
  // The API's shape makes the image address absolute already.
  const image = typeof shaped.image === 'string' ? shaped.image : undefined;
  const main = `<a class="back" href="${base}${listPath(collection.page.path)}">← All ${escapeHtml(collection.api?.label ?? collection.name)}</a>
<article class="entry">
<header>
<p class="kicker">${kicker}</p>
<h1>${escapeHtml(title)}</h1>
<p class="lede">${escapeHtml(String(shaped[collection.fields.summary]))}</p>
${renderByline(context, shaped, collection.fields)}
${tags}
</header>
${renderFacts(shaped, collection.fields)}
<div class="prose">
${catalogue.render(record)}</div>
${renderRelated(context, key, shaped)}
</article>`;
  const schema = collection.page.schema;
  return renderDocument(context, {
    title,
    description: String(shaped[collection.fields.summary]),
    canonical: String(shaped.url),
    main,
    type: schema === 'Article' ? 'article' : 'website',
    image,
    jsonLd: schema ? recordJsonLd(schema, { record, shaped, key, catalogue }) : undefined,
  });
}

/**
 * What a record's page is made from (output-tracker.ts): what its envelope is made from, and where each term
 * it names links (a technology's page exists only while that record is published).
 */
function pageInputs(context: PageContext, key: string, record: AnyEntry): string {
  const kept = keptRelated(record, key, context.catalogue);
  kept.pageInputs ??= makePageInputs(context, key, record);
  return kept.pageInputs;
}

function makePageInputs(context: PageContext, key: string, record: AnyEntry): string {
  const links = Object.entries(context.catalogue.collection(key).api?.relations ?? {}).flatMap(([name, relation]) => {
    if (relation.kind !== 'term' && relation.kind !== 'terms') return [];
    const value = record[relation.field];
    const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string');
    return ids.map((id) => `${name}:${id}:${termLink(context.catalogue, key, relation, id) ?? ''}`);
  });
  return `page\n${recordInputs(record, key, context.catalogue)}\n${links.join('\n')}`;
}

/** The page of one published record of a paged collection (pagedCollections), made as the emit step writes it. */
export type RecordPage = (key: string, record: AnyEntry) => OutputFile;

export function recordPageMaker(catalogue: Catalogue): RecordPage {
  const context = createContext(catalogue);
  const shapers = new Map<string, ReturnType<typeof createShaper>>();
  return (key, record) => {
    let shaper = shapers.get(key);
    if (!shaper) {
      shaper = createShaper(key, catalogue);
      shapers.set(key, shaper);
    }
    const path = `${sitePath(catalogue, catalogue.recordUrl(key, record)).slice(1)}index.html`;
    return catalogue.track.file(
      path,
      () => pageInputs(context, key, record),
      () => renderRecordPage(context, key, record, shaper.record(record, shaper.item(record))),
      !catalogue.track.touched(record.file),
    );
  };
}

/** One page per published record of every paged collection, made one at a time as the emit step writes them. */
export function* buildRecordPages(catalogue: Catalogue): Generator<OutputFile> {
  const page = recordPageMaker(catalogue);
  for (const key of pagedCollections(catalogue)) {
    // In a steady build that names only what its edit reached, the other pages are carried over unnamed.
    for (const record of reachedRecords(catalogue, key) ?? catalogue.records[key]!) yield page(key, record);
  }
}
