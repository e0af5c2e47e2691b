/**
 * A get route's `related` object: one field per relation the collections table declares for the
 * collection, computed from the catalogue's indexes (see `Relation` in schemas/collections.ts).
 */
import type { RecordRef, TermRef } from '../../../schemas/api.ts';
import type { AnyEntry, Relation } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';

/** The ids a reference field holds: one id, a list of them, or none. */
export const asIds = (value: unknown): string[] => (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []);

/** Terms by id; ids without a published name (a draft technology) are left out rather than shown half. */
function termRefs(ids: readonly string[], names: ReadonlyMap<string, string>): TermRef[] {
  return ids.flatMap((id) => {
    const name = names.get(id);
    return name === undefined ? [] : [{ id, name }];
  });
}

/** What a relation prints of a record of collection `key`. */
export function recordRef(record: AnyEntry, key: string, catalogue: Catalogue): RecordRef {
  return { id: record.id, title: String(record[catalogue.collection(key).fields.title]), url: catalogue.recordUrl(key, record) };
}

function recordRefs(records: readonly AnyEntry[], key: string, catalogue: Catalogue, max = Infinity): RecordRef[] {
  return records.slice(0, max).map((record) => recordRef(record, key, catalogue));
}

/**
 * Up to `max` other records of the collection that share a value of `field`, in collection order: merges the
 * (already ordered) groups of the record's values, taking no more than needed from each.
 */
function sharing(record: AnyEntry, key: string, field: string, max: number, catalogue: Catalogue): AnyEntry[] {
  const candidates = new Set<AnyEntry>();
  const groups = catalogue.groups(key, field);
  for (const value of asIds(record[field])) {
    let taken = 0;
    for (const other of groups.get(value) ?? []) {
      if (taken > max) break;
      if (other !== record) {
        candidates.add(other);
        taken++;
      }
    }
  }
  const rank = catalogue.rank(key);
  return [...candidates].sort((a, b) => rank.get(a.file)! - rank.get(b.file)!).slice(0, max);
}

function relate(relation: Relation, record: AnyEntry, key: string, catalogue: Catalogue): unknown {
  switch (relation.kind) {
    case 'term': {
      const [id] = asIds(record[relation.field]);
      return id === undefined ? null : { id, name: catalogue.names(relation.taxonomies).get(id) ?? id };
    }
    case 'terms':
      return termRefs(asIds(record[relation.field]), catalogue.names(relation.taxonomies));
    case 'same': {
      const [value] = asIds(record[relation.field]);
      const records = value === undefined ? [] : (catalogue.groups(relation.collection, relation.field).get(value) ?? []);
      return recordRefs(records, relation.collection, catalogue, relation.max);
    }
    case 'referencing':
      return recordRefs(catalogue.groups(relation.collection, relation.field).get(record.id) ?? [], relation.collection, catalogue);
    case 'sharing':
      return recordRefs(sharing(record, key, relation.field, relation.max, catalogue), key, catalogue);
  }
}

/** The `related` object of `record` (a record of collection `key`). */
export function createRelated(record: AnyEntry, key: string, catalogue: Catalogue): Record<string, unknown> {
  const related: Record<string, unknown> = {};
  for (const [name, relation] of Object.entries(catalogue.collection(key).api?.relations ?? {}))
    related[name] = relate(relation, record, key, catalogue);
  return related;
}
