/**
 * Each record's `related` object, kept from one build to the next (npm run dev) and made again only for the
 * records whose relations an edit may have changed. A record's related object reads, besides its own fields,
 * only these of the catalogue (relations.ts): groups of records that share a value of a field (a topic, a
 * category, a referenced id), of which it prints each member's id, title and address in collection order,
 * the first few members only when the relation has a `max`; and the names of terms, from taxonomies (in the
 * tracker's scope) or from Markdown collections. Two records' order is a function of their own fields
 * (order.ts). So each build notes, per group, what may be read of it (those facts of the members read, and the
 * fields that order them), and a record whose file, groups and names sources are all as in the build before
 * keeps its related object. A body edit relates one record again; a title edit of a recent article, the
 * articles whose short lists show it; an old article's, none but its own.
 */
import type { AnyEntry, Relation } from '../../../schemas/collections.ts';
import { apiCollections, markdownCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { orderFields } from '../../catalogue/order.ts';
import { asIds, createRelated, recordRef } from './relations.ts';

/**
 * A record's related object, its JSON, and (once asked) what its envelope and its page are made from
 * (shape-records.ts, record-pages.ts): kept with it, since they change only when it or the record's file does,
 * or where a term links (a names source, which relates the record again).
 */
export interface KeptRelated {
  related: Record<string, unknown>;
  json: string;
  inputs?: string;
  pageInputs?: string;
}

interface RelationState {
  /** Every published record of each Markdown collection: its file's digest, by id. */
  records: Map<string, Map<string, string>>;
  /** Each related object made or kept by the build, by collection and id. */
  related: Map<string, Map<string, KeptRelated>>;
  /** What a relation may read of each group (groupHeads below), by group. */
  heads: Map<string, string>;
}

const KEPT = 'relations';
const groupKey = (collection: string, field: string, value: string) => `${collection}\n${field}\n${value}`;

/**
 * How far into its groups each grouped field is read, by collection and field: a relation with a `max` reads
 * only the first members of each group it merges (relations.ts takes up to max + 1 others from each, so at
 * most max + 2 members), the others read the whole group (Infinity).
 */
function groupReads(catalogue: Catalogue): Map<string, Map<string, number>> {
  const reads = new Map<string, Map<string, number>>();
  const add = (collection: string, field: string, length: number) => {
    const fields = reads.get(collection) ?? new Map<string, number>();
    fields.set(field, Math.max(fields.get(field) ?? 0, length));
    reads.set(collection, fields);
  };
  for (const [key, collection] of apiCollections(catalogue.collections)) {
    for (const relation of Object.values(collection.api.relations ?? {})) {
      if (relation.kind === 'sharing') add(key, relation.field, relation.max + 2);
      if (relation.kind === 'same') add(relation.collection, relation.field, relation.max ?? Infinity);
      if (relation.kind === 'referencing') add(relation.collection, relation.field, Infinity);
    }
  }
  return reads;
}

/**
 * What a relation may read of each group, by group: what it prints of each member read (relations.ts) and
 * what orders the members (order.ts), of the first members for a group read in part, of all for the others.
 */
function groupHeads(catalogue: Catalogue, reads: ReturnType<typeof groupReads>): Map<string, string> {
  const heads = new Map<string, string>();
  for (const [key, fields] of reads) {
    const order = orderFields(catalogue.collection(key));
    const facts = (member: AnyEntry) => JSON.stringify([recordRef(member, key, catalogue), order.map((field) => member[field])]);
    for (const [field, length] of fields) {
      for (const [value, members] of catalogue.groups(key, field)) {
        heads.set(groupKey(key, field, value), members.slice(0, length).map(facts).join('\n'));
      }
    }
  }
  return heads;
}

/**
 * What changed since the build before, as the relations read it: the collections with a record added, removed
 * or edited (names are read from them), and the groups whose part that is read changed.
 */
function findChanges(catalogue: Catalogue, previous: RelationState | undefined, now: RelationState) {
  const groups = new Set<string>();
  const collections = new Set<string>();
  for (const [key] of markdownCollections(catalogue.collections)) {
    const before = previous?.records.get(key);
    const digests = new Map<string, string>();
    for (const record of catalogue.records[key] ?? []) {
      const digest = catalogue.track.digest(record.file);
      digests.set(record.id, digest);
      if (!digest || before?.get(record.id) !== digest) collections.add(key);
    }
    if (before?.size !== digests.size) collections.add(key);
    now.records.set(key, digests);
  }
  now.heads = groupHeads(catalogue, groupReads(catalogue));
  for (const [group, head] of now.heads) if (previous?.heads.get(group) !== head) groups.add(group);
  for (const group of previous?.heads.keys() ?? []) if (!now.heads.has(group)) groups.add(group);
  return { groups, collections };
}

/** True when a relation of `record` may read something that changed. */
function readsChange(relation: Relation, record: AnyEntry, key: string, changes: ReturnType<typeof findChanges>): boolean {
  switch (relation.kind) {
    case 'term':
    case 'terms':
      return relation.taxonomies.some((taxonomy) => changes.collections.has(taxonomy));
    case 'same':
      return asIds(record[relation.field]).some((value) => changes.groups.has(groupKey(relation.collection, relation.field, value)));
    case 'referencing':
      return changes.groups.has(groupKey(relation.collection, relation.field, record.id));
    case 'sharing':
      return asIds(record[relation.field]).some((value) => changes.groups.has(groupKey(key, relation.field, value)));
  }
}

/**
 * The state of a steady build (output-tracker.ts: no record's facts changed, none added or removed): the one
 * before, with the edited records' digests set in place. Every group reads as before, so no related object but
 * the edited records' own is made, and those of the records this build does not visit stay kept for the next.
 * Only the records the edit reached are visited when the build names them (a copy of every record's digest and
 * related object, and a pass over every record, cost more than the edit's own relations); the state stays
 * whole if the build fails after this, since each related object is set with the digest it was made from, and
 * a build that fails once its outputs began is followed by one that keeps nothing (dev-builds.ts).
 */
function carriedState(catalogue: Catalogue, previous: RelationState): RelationState {
  const reached = catalogue.track.reached();
  const touched = reached
    ? reached.map(({ record, collection = '' }) => ({ record: record as AnyEntry, key: collection }))
    : Object.entries(catalogue.records).flatMap(([key, list]) =>
        list.flatMap((record) => (catalogue.track.touched(record.file) ? [{ record, key }] : [])),
      );
  for (const { record, key } of touched) previous.records.get(key)?.set(record.id, catalogue.track.digest(record.file));
  return previous;
}

const NO_CHANGES = { groups: new Set<string>(), collections: new Set<string>() };

/** This build's related objects: each kept from the build before when nothing it reads changed, else made. */
function openRelations(catalogue: Catalogue): (record: AnyEntry, key: string) => KeptRelated {
  const previous = catalogue.track.previousKept<RelationState>(KEPT);
  const steady = previous !== undefined && catalogue.track.steady();
  const state: RelationState = steady ? carriedState(catalogue, previous) : { records: new Map(), related: new Map(), heads: new Map() };
  // With nothing kept from the build before, every related object is made: what changed is found only for the next build, if one keeps it.
  const changes = previous && !steady ? findChanges(catalogue, previous, state) : NO_CHANGES;
  catalogue.track.keep(KEPT, () => {
    if (!previous) findChanges(catalogue, undefined, state);
    return state;
  });
  return (record, key) => {
    const digest = state.records.get(key)?.get(record.id);
    const old = previous?.related.get(key)?.get(record.id);
    const relations = Object.values(catalogue.collection(key).api?.relations ?? {});
    // In a steady build, a record the edit touched prints an edited title: made again whatever its digest says.
    const same =
      old !== undefined &&
      !(steady && catalogue.track.touched(record.file)) &&
      !!digest &&
      previous!.records.get(key)?.get(record.id) === digest &&
      !relations.some((relation) => readsChange(relation, record, key, changes));
    let kept = same ? old : undefined;
    if (!kept) {
      const related = createRelated(record, key, catalogue);
      kept = { related, json: JSON.stringify(related) };
    }
    const collection = state.related.get(key) ?? new Map<string, KeptRelated>();
    state.related.set(key, collection.set(record.id, kept));
    return kept;
  };
}

/** Each build's related objects by record, and how to make or keep one. */
const opened = new WeakMap<Catalogue, { of: (record: AnyEntry, key: string) => KeptRelated; made: WeakMap<AnyEntry, KeptRelated> }>();

/** `record`'s related object (a record of collection `key`), once per build, kept across builds when unchanged. */
export function keptRelated(record: AnyEntry, key: string, catalogue: Catalogue): KeptRelated {
  const build = opened.get(catalogue) ?? { of: openRelations(catalogue), made: new WeakMap() };
  opened.set(catalogue, build);
  const kept = build.made.get(record) ?? build.of(record, key);
  build.made.set(record, kept);
  return kept;
}
