/**
 * Which collections have pages, and which of their filters have list pages: read by the page outputs, which
 * make them, and by the records' title readers (records/title-readers.ts), which must know where a title is
 * printed. From the collections table only.
 */
import type { FilterSpec } from '../../schemas/collections.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';

/** The keys of the collections whose records get pages: those with a page schema and an API. */
export const pagedCollections = (catalogue: Catalogue) =>
  Object.keys(catalogue.records).filter(
    (key) => catalogue.collections[key]?.kind === 'markdown' && catalogue.collection(key).page.schema && catalogue.collection(key).api,
  );

/** The filters of a collection that have list pages: those over taxonomy fields. */
export function pageFilters(catalogue: Catalogue, key: string): readonly FilterSpec[] {
  return catalogue.collection(key).api?.filters ?? [];
}
