/**
 * Which records print another record's title, read backwards from the relations (relations.ts): what a title
 * edit reaches besides the record's own outputs and the list windows that hold it (edit-reach.ts). A record's
 * title is printed by another record's `related` object, and so its envelope and page, through:
 * - `sharing` a value of a field: the members of each group the record is among the first max + 2 of
 *   (a relation takes at most max + 1 others from each group, in collection order);
 * - `same`: the records of the relation's collection that hold a value of the field the record is among the
 *   first `max` of;
 * - `referencing`: the records the record's field names by id;
 * - `term` and `terms` whose taxonomies include its collection (a technology's name): the records that name it.
 * A collection that is a list page filter's taxonomy has its titles in every list page's filter links: the reach
 * of such an edit is not found (undefined), and every output is keyed.
 */
import type { AnyEntry } from '../../../schemas/collections.ts';
import { apiCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { pageFilters, pagedCollections } from '../paged-collections.ts';
import { asIds } from './relations.ts';
import { recordsByFile } from '../reached-records.ts';

/** The files of the records that print the title of a record of `key`; undefined when the reach cannot be said. */
function readersOf(catalogue: Catalogue, key: string, record: AnyEntry, into: Set<string>): boolean {
  for (const paged of pagedCollections(catalogue)) {
    if (pageFilters(catalogue, paged).some((filter) => filter.taxonomies.includes(key))) return false;
  }
  const add = (records: readonly AnyEntry[] | undefined) => {
    for (const reader of records ?? []) into.add(reader.file);
  };
  const leads = (group: readonly AnyEntry[] | undefined, length: number) =>
    (group ?? []).indexOf(record) < Math.min(length, group?.length ?? 0);
  for (const [reader, collection] of apiCollections(catalogue.collections)) {
    for (const relation of Object.values(collection.api.relations ?? {})) {
      if (relation.kind === 'sharing' && reader === key) {
        for (const value of asIds(record[relation.field])) {
          const group = catalogue.groups(key, relation.field).get(value);
          if (leads(group, relation.max + 2)) add(group);
        }
      } else if (relation.kind === 'same' && relation.collection === key) {
        for (const value of asIds(record[relation.field])) {
          if (leads(catalogue.groups(key, relation.field).get(value), relation.max ?? Infinity))
            add(catalogue.groups(reader, relation.field).get(value));
        }
      } else if (relation.kind === 'referencing' && relation.collection === key) {
        for (const id of asIds(record[relation.field])) add(catalogue.groups(reader, 'id').get(id));
      } else if ((relation.kind === 'term' || relation.kind === 'terms') && relation.taxonomies.includes(key)) {
        add(catalogue.groups(reader, relation.field).get(record.id));
      }
    }
  }
  return true;
}

/** The files of the records whose outputs print a title of the records read from `files`; undefined when that cannot be said. */
export function titleReaders(catalogue: Catalogue, files: ReadonlySet<string>): Set<string> | undefined {
  const readers = new Set<string>();
  for (const key of Object.keys(catalogue.records)) {
    for (const record of recordsByFile(catalogue, key, files)) if (!readersOf(catalogue, key, record, readers)) return undefined;
  }
  return readers;
}
