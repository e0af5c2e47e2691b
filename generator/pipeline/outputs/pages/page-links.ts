/**
 * Where the pages of a collection live: its list pages (all records, and one per value of each filter,
 * paginated) and the link for a term or record a page names. All from the collections table.
 */
import type { FilterSpec, Relation } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { basePathOf } from '../render-markdown.ts';

/** The site-relative path of an address on the site (`https://x.test/folder/a/` -> `/a/` when the site is in `/folder`). */
export const sitePath = (catalogue: Catalogue, url: string) => new URL(url).pathname.slice(basePathOf(catalogue.siteUrl).length);

/** Records a list page shows. */
export const PAGE_SIZE = 20;

/** `/services/`, `/services/category/seo/`, and their later pages `.../page/2/` (site-relative, no base). */
export function listPath(collectionPath: string, filter?: { param: string; value: string }, page = 1): string {
  const root = filter ? `/${collectionPath}/${filter.param}/${encodeURIComponent(filter.value)}/` : `/${collectionPath}/`;
  return page > 1 ? `${root}page/${page}/` : root;
}

/** The filters of a collection that have list pages: those over taxonomy fields. */
export function pageFilters(catalogue: Catalogue, key: string): readonly FilterSpec[] {
  return catalogue.collection(key).api?.filters ?? [];
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
