/**
 * Where the pages of a collection live: its list pages (all records, and one per value of each filter,
 * paginated) and the link for a term or record a page names. All from the collections table.
 */
import type { Relation } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { basePathOf } from '../html.ts';
import { pageFilters } from '../paged-collections.ts';

/** A path of plain segments, which an address parser leaves as it is (no dot segments, nothing to escape). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)*\/?$/;

/** The site-relative path of an address on the site (`https://x.test/folder/a/` -> `/a/` when the site is in `/folder`). */
export function sitePath(catalogue: Catalogue, url: string): string {
  // Every record's page is asked for: a plain path after the site's own address is taken as it is, unparsed.
  const rest = url.startsWith(`${catalogue.siteUrl}/`) ? url.slice(catalogue.siteUrl.length) : undefined;
  if (rest !== undefined && PLAIN_PATH.test(rest)) return rest;
  return new URL(url).pathname.slice(basePathOf(catalogue.siteUrl).length);
}

/** Records a list page shows. */
export const PAGE_SIZE = 20;

/** Pages from this number on sit in a folder of their thousand: `page/12k/12345/`. */
const PAGES_PER_FOLDER = 1000;

/**
 * `/services/`, `/services/category/seo/`, and their later pages `.../page/2/` (site-relative, no base).
 * From page 1,000 on (a list of 20,000 records) a page sits in the folder of its thousand, `.../page/12k/12345/`,
 * so that `page/` holds at most 999 pages and one folder per thousand: under 10,000 entries below 180 million records.
 */
export function listPath(collectionPath: string, filter?: { param: string; value: string }, page = 1): string {
  const root = filter ? `/${collectionPath}/${filter.param}/${encodeURIComponent(filter.value)}/` : `/${collectionPath}/`;
  if (page <= 1) return root;
  return page < PAGES_PER_FOLDER ? `${root}page/${page}/` : `${root}page/${Math.floor(page / PAGES_PER_FOLDER)}k/${page}/`;
}

/**
 * The site-relative link for term `id` named by `relation` on a page of collection `key`: the record page
 * when the term is a record with a page (a technology), else the list page of the filter over that field,
 * else none.
 */
export function termLink(
  catalogue: Catalogue,
  key: string,
  relation: Extract<Relation, { kind: 'term' | 'terms' }>,
  id: string,
): string | undefined {
  for (const taxonomy of relation.taxonomies) {
    const target = catalogue.collections[taxonomy];
    if (target?.kind !== 'markdown') continue;
    const record = catalogue.records[taxonomy]?.find((candidate) => candidate.id === id);
    if (record) return sitePath(catalogue, catalogue.recordUrl(taxonomy, record));
  }
  const filter = pageFilters(catalogue, key).find((candidate) => candidate.fields.includes(relation.field));
  return filter ? listPath(catalogue.collection(key).page.path, { param: filter.param, value: id }) : undefined;
}
