/**
 * List pages for every collection with record pages: all its records, and the records of each value of each
 * of its filters (`/services/category/seo/`), PAGE_SIZE a page in the API's order, with a windowed pager (the
 * first, the last and a few pages around the current one), previous and next links in the page and in the head. Plain HTML, no JavaScript.
 */
import type { AnyEntry, FilterSpec } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../html.ts';
import { createContext, type PageContext, renderDocument } from './page-document.ts';
import { listPath, PAGE_SIZE, sitePath } from './page-links.ts';
import { humanize } from '../labels.ts';
import { pageFilters, pagedCollections } from '../paged-collections.ts';
import { ranksByFile, reachedRecords } from '../reached-records.ts';
import { firstAtOrAfter } from '../../../shared/sorted-search.ts';

/** A filter of a collection and its values that some record has: id, name, and the records' positions in the collection. */
type AppliedFilters = { filter: FilterSpec; values: [id: string, name: string, indexes: number[]][] };

interface ListSpec {
  key: string;
  /** The collection's records, in order. */
  all: readonly AnyEntry[];
  /** The positions in `all` of the list's records, ascending; undefined: all of them. */
  indexes?: readonly number[] | undefined;
  heading: string;
  filter?: { param: string; value: string };
  /** The collection's filters, for the links every list page shows. */
  filters: readonly AppliedFilters[];
}

function renderCard(context: PageContext, key: string, record: AnyEntry): string {
  const { catalogue, base } = context;
  const collection = catalogue.collection(key);
  const { fields } = collection;
  const day = String((fields.date && record[fields.date]) ?? record.updated);
  const byline = typeof record.author === 'string' ? `${escapeHtml(record.author)} · ` : '';
  return `<li class="card"><div class="card-body">
<h2 class="card-title"><a href="${escapeHtml(base + sitePath(catalogue, catalogue.recordUrl(key, record)))}">${escapeHtml(String(record[fields.title]))}</a></h2>
<p class="excerpt">${escapeHtml(String(record[fields.summary]))}</p>
<p class="byline">${byline}<time datetime="${escapeHtml(day)}">${escapeHtml(context.formatDate(day))}</time></p>
</div></li>`;
}

/** Links to every value page of each filter, so a reader (and a crawler) reaches them all from the list. */
function renderFilterNav(context: PageContext, { key, filter: current, filters }: ListSpec): string {
  const { catalogue, base } = context;
  const path = catalogue.collection(key).page.path;
  return filters
    .map(({ filter, values }) => {
      const links = values.map(([id, name]) => {
        const here = current?.param === filter.param && current.value === id;
        return `<li><a href="${escapeHtml(base + listPath(path, { param: filter.param, value: id }))}"${here ? ' aria-current="page"' : ''}>${escapeHtml(name)}</a></li>`;
      });
      return `<nav class="terms" aria-label="${escapeHtml(`By ${filter.param}`)}"><h2>By ${escapeHtml(filter.param)}</h2><ul>${links.join('')}</ul></nav>`;
    })
    .join('\n');
}

/** Pages the pager links on each side of the current one, as Hugo's default pager does. */
const PAGER_REACH = 2;

/**
 * The page numbers a pager shows: the first, the last and PAGER_REACH around `page`, with null for each gap.
 * At most 2 * PAGER_REACH + 5 entries, so a page never grows with its collection.
 */
export function pagerWindow(page: number, pages: number): (number | null)[] {
  const shown: (number | null)[] = [];
  const from = Math.max(2, page - PAGER_REACH);
  const to = Math.min(pages - 1, page + PAGER_REACH);
  shown.push(1);
  if (from > 2) shown.push(null);
  for (let n = from; n <= to; n++) shown.push(n);
  if (to < pages - 1) shown.push(null);
  if (pages > 1) shown.push(pages);
  return shown;
}

function renderPager(context: PageContext, spec: ListSpec, page: number, pages: number): string {
  if (pages === 1) return '';
  const path = (n: number) => escapeHtml(context.base + listPath(context.catalogue.collection(spec.key).page.path, spec.filter, n));
  const numbers = pagerWindow(page, pages).map((n) =>
    n === null
      ? '<li class="gap" aria-hidden="true">…</li>'
      : n === page
        ? `<li><span aria-current="page">${n}</span></li>`
        : `<li><a href="${path(n)}">${n}</a></li>`,
  );
  const prev = page > 1 ? `<a rel="prev" href="${path(page - 1)}">← Previous</a>` : '';
  const next = page < pages ? `<a rel="next" href="${path(page + 1)}">Next →</a>` : '';
  return `<nav class="pager" aria-label="Pages">${prev}<ol>${numbers.join('')}</ol>${next}</nav>`;
}

/**
 * What a list page is made from (output-tracker.ts): its heading, the list's length, the filter links it
 * shows (`nav`), and the records on it.
 */
function listInputs(context: PageContext, spec: ListSpec, nav: string, page: number): string {
  const records = shownOn(spec, page).map((record) => context.catalogue.track.digest(record.file));
  return `list page\n${spec.key}\n${spec.heading}\n${sizeOf(spec)}\n${nav}\n${records.join('\n')}`;
}

/** How many records the list holds. */
const sizeOf = (spec: ListSpec) => (spec.indexes ?? spec.all).length;

/** The records on page `page` (from 1). */
function shownOn(spec: ListSpec, page: number): AnyEntry[] {
  const [from, to] = [(page - 1) * PAGE_SIZE, page * PAGE_SIZE];
  return spec.indexes ? spec.indexes.slice(from, to).map((index) => spec.all[index]!) : spec.all.slice(from, to);
}

function renderListPage(context: PageContext, spec: ListSpec, page: number): string {
  const { catalogue } = context;
  const collection = catalogue.collection(spec.key);
  const size = sizeOf(spec);
  const pages = Math.max(1, Math.ceil(size / PAGE_SIZE));
  const shown = shownOn(spec, page);
  const at = (n: number) => `${catalogue.siteUrl}${listPath(collection.page.path, spec.filter, n)}`;
  const title = page > 1 ? `${spec.heading} (page ${page} of ${pages})` : spec.heading;
  const main = `<h1>${escapeHtml(spec.heading)}</h1>
<p class="lede">${escapeHtml(collection.api?.about ?? '')}</p>
<p class="count">${size} ${escapeHtml(size === 1 ? collection.noun : (collection.api?.label ?? collection.name))}${pages > 1 ? `, page ${page} of ${pages}` : ''}</p>
<ul class="cards">
${shown.map((record) => renderCard(context, spec.key, record)).join('\n')}
</ul>
${renderPager(context, spec, page, pages)}
${renderFilterNav(context, spec)}`;
  const body = renderDocument(context, {
    title,
    description: collection.api?.about ?? spec.heading,
    canonical: at(page),
    main,
    prev: page > 1 ? at(page - 1) : undefined,
    next: page < pages ? at(page + 1) : undefined,
  });
  return body;
}

/** The values of a filter that some record has, with their names and records, in the taxonomies' order. */
function filterValuesInUse(catalogue: Catalogue, key: string, filter: FilterSpec): AppliedFilters {
  const values = [...catalogue.names(filter.taxonomies)].map(([id, name]): AppliedFilters['values'][number] => [
    id,
    name,
    filteredIndexes(catalogue, key, filter, id),
  ]);
  return { filter, values: values.filter(([, , indexes]) => indexes.length > 0) };
}

/**
 * The positions of the records of `key` whose filter fields hold `id`, ascending: the group's records' ranks
 * put in order, rather than the whole collection filtered once per value (a pass over 100,000 records for
 * each of dozens of values, every build).
 */
function filteredIndexes(catalogue: Catalogue, key: string, filter: FilterSpec, id: string): number[] {
  const rank = catalogue.rank(key);
  const matched = new Set(filter.fields.flatMap((field) => catalogue.groups(key, field).get(id) ?? []));
  return [...matched].flatMap((record) => rank.get(record.file) ?? []).sort((a, b) => a - b);
}

/**
 * The filters of `key` with their values' records, by position: facts of every record, so a steady build
 * (output-tracker.ts) takes the previous build's, where each build grouped and ordered every record again.
 */
const appliedFilters = (catalogue: Catalogue, key: string): AppliedFilters[] =>
  catalogue.track.steadyKept(`list page filters\n${key}`, () =>
    pageFilters(catalogue, key).map((filter) => filterValuesInUse(catalogue, key, filter)),
  );

/**
 * The pages of a list that hold one of `reached` (records of its collection, found in it by their positions,
 * the list being in order); every page when `reached` is undefined.
 */
function pagesHolding(spec: ListSpec, pages: number, rank: ReadonlyMap<string, number>, reached: readonly AnyEntry[] | undefined) {
  if (!reached) return Array.from({ length: pages }, (_, at) => at + 1);
  const held = new Set<number>();
  for (const record of reached) {
    const index = rank.get(record.file)!;
    const at = spec.indexes ? firstAtOrAfter(spec.indexes, index) : index;
    if ((spec.indexes ? spec.indexes[at] : at) === index) held.add(Math.floor(at / PAGE_SIZE) + 1);
  }
  return [...held].sort((a, b) => a - b);
}

/** Every list page of every collection with record pages, made one at a time as the emit step writes them. */
export function* buildListPages(catalogue: Catalogue): Generator<OutputFile> {
  const context = createContext(catalogue);
  const specs = pagedCollections(catalogue).flatMap((key): ListSpec[] => {
    const label = humanize(catalogue.collection(key).api?.label ?? key);
    const filters = appliedFilters(catalogue, key);
    const all = catalogue.records[key]!;
    return [
      { key, all, heading: label, filters },
      ...filters.flatMap(({ filter, values }) =>
        values.map(([id, name, indexes]) => ({
          key,
          all,
          indexes,
          heading: `${label}: ${name}`,
          filter: { param: filter.param, value: id },
          filters,
        })),
      ),
    ];
  });
  const navs = new Map<readonly AppliedFilters[], string>();
  const steady = catalogue.track.steady();
  for (const spec of specs) {
    if (!navs.has(spec.filters))
      navs.set(
        spec.filters,
        JSON.stringify(spec.filters.map(({ filter, values }) => [filter.param, values.map(([id, name]) => [id, name])])),
      );
    const pages = Math.max(1, Math.ceil(sizeOf(spec) / PAGE_SIZE));
    const collectionPath = catalogue.collection(spec.key).page.path;
    // In a steady build that names only what its edit reached, the other pages are carried over unnamed.
    const reached = reachedRecords(catalogue, spec.key);
    for (const page of pagesHolding(spec, pages, reached ? ranksByFile(catalogue, spec.key) : new Map(), reached)) {
      const path = `${listPath(collectionPath, spec.filter, page).slice(1)}index.html`;
      const shown = shownOn(spec, page);
      yield catalogue.track.file(
        path,
        () => listInputs(context, spec, navs.get(spec.filters)!, page),
        () => renderListPage(context, spec, page),
        steady && !shown.some((record) => catalogue.track.touched(record.file)),
      );
    }
  }
}
