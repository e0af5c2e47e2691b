/**
 * The catalogue: the published content, sorted once in contract order and indexed for the lookups the
 * outputs need (names by id, records by the values of a field), so shaping a record never scans. Every
 * output is a function of the catalogue; it carries the collections table that says what each collection is.
 */
import type { Site } from '../../schemas/site.ts';
import type { AnyEntry, AnyTerm, CollectionTable, MarkdownCollection } from '../../schemas/collections.ts';
import { type Content, entriesOf, termsOf } from '../../schemas/content.ts';
import { memoize } from '../../shared/memoize.ts';
import { recordPageFolder } from '../../shared/data-paths.ts';
import type { BuildCache } from '../build-cache.ts';
import { type OutputTracker, UNTRACKED } from '../output-tracker.ts';
import { byOrderThen } from './order.ts';
import { type Ordered, orderRecords, type PreviousOrders } from './kept-order.ts';
import { groupPositions, groupsOver, positionsByFile } from './kept-groups.ts';

export interface Catalogue {
  collections: CollectionTable;
  site: Site;
  /** The editors' synonyms for search; null when the folder has none. */
  synonyms: Content['synonyms'] | null;
  siteUrl: string;
  builtAt: string;
  /**
   * The newest date in the published content, as an ISO time: the time files that are not about the build
   * (the precomputed envelopes, the OpenAPI examples) carry, so they change when the content does, not the clock.
   */
  contentTime: string;
  /** Published records of each Markdown collection, in contract order. */
  records: Readonly<Record<string, AnyEntry[]>>;
  /** Terms of each list collection: by `order`, then name. */
  terms: Readonly<Record<string, AnyTerm[]>>;
  /** Display names of the terms or records of these collections, by id; a later collection wins a shared id. */
  names(keys: readonly string[]): ReadonlyMap<string, string>;
  /** Records of `collection` by each value of `field` (one entry per value of a list field), in contract order. */
  groups(collection: string, field: string): ReadonlyMap<string, AnyEntry[]>;
  /** Each record's position in its collection's order, by its file. */
  rank(collection: string): ReadonlyMap<string, number>;
  /**
   * The records of a Markdown collection whose objects are not the previous build's (kept-order.ts), in its
   * order, when the same files are published as then; undefined when that is not known (then any may differ).
   */
  edited(collection: string): readonly AnyEntry[] | undefined;
  /** The Markdown collection of a key; throws for a key the table does not have. */
  collection(key: string): MarkdownCollection;
  /** A record's page, `{site_url}/<path>/<slug or id>/`: its `url` everywhere. */
  recordUrl(key: string, record: AnyEntry): string;
  /** A record's body as HTML (rendered once per body, and across builds when the build keeps a cache). */
  render(record: { body: string; file: string }): string;
  /** Values computed from text, kept across builds when the build keeps a cache (see pipeline/build-cache.ts). */
  memo: BuildCache['memo'];
  /**
   * A value computed from one record and the rest of this build's catalogue (its API shape, with relations),
   * made once per build and shared by every output that needs it. Never kept across builds: it depends on
   * other records too.
   */
  perRecord<T>(table: string, record: AnyEntry, make: () => T): T;
  /** Outputs made from what they name, carried over from the previous build when that is unchanged (output-tracker.ts). */
  track: OutputTracker;
}

/** Each Markdown collection's records in contract order, patched from the previous build's (kept-order.ts), and each list's terms. */
function inOrder(content: Content, collections: CollectionTable, previous?: PreviousOrders) {
  const records: Record<string, AnyEntry[]> = {};
  const orders = new Map<string, Ordered>();
  const terms: Record<string, AnyTerm[]> = {};
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind === 'markdown') {
      const stored = previous?.stored?.order(key);
      const ordered = orderRecords(
        entriesOf(content, key),
        collection,
        previous?.kept(key),
        stored && { order: stored, changed: previous!.stored!.changed },
      );
      orders.set(key, ordered);
      records[key] = ordered.sorted;
    }
    if (collection.kind === 'list') terms[key] = [...termsOf(content, key)].sort(byOrderThen<AnyTerm>((term) => term.name));
  }
  return { records, terms, orders };
}

/** The newest `updated` or publication date of any record, as `YYYY-MM-DDT00:00:00Z`. */
function newestDate(orders: ReadonlyMap<string, Ordered>): string | undefined {
  const newest = [...orders.values()].reduce((day, { kept }) => (kept.newest > day ? kept.newest : day), '');
  return newest ? `${newest}T00:00:00Z` : undefined;
}

export function createCatalogue(
  content: Content,
  collections: CollectionTable,
  options: {
    siteUrl: string;
    builtAt: string;
    render: (record: { body: string; file: string }) => string;
    cache: BuildCache;
    /** The orders the previous build kept, to patch (kept-order.ts); with `stored`, this build stores its own beside the output. */
    previousOrder?: PreviousOrders | undefined;
    /** The build's tracker, made once the content's newest date is known: every envelope prints it. */
    track?: (contentTime: string, catalogue: Catalogue) => OutputTracker;
  },
): Catalogue {
  const { records, terms, orders } = inOrder(content, collections, options.previousOrder);
  const collection = (key: string): MarkdownCollection => {
    const found = collections[key];
    if (found?.kind !== 'markdown') throw new Error(`the collections table has no Markdown collection "${key}"`);
    return found;
  };
  const namesOf = memoize((key: string) => {
    if (key in terms) return terms[key]!.map((term) => [term.id, term.name] as const);
    const { fields } = collection(key);
    return records[key]!.map((record) => [record.id, String(record[fields.title])] as const);
  });
  // By position, kept between builds whose records have the same facts (kept-groups.ts); a title is no fact
  // where it does not order its collection (edit-reach.ts), so groups by it are made each build.
  const groups = memoize((spec: string) => {
    const [key, field] = spec.split('\n') as [string, string];
    const list = records[key] ?? [];
    const kept = key in records && field !== collection(key).fields.title;
    return groupsOver(
      kept ? catalogue.track.steadyKept(`groups\n${spec}`, () => groupPositions(list, field)) : groupPositions(list, field),
      list,
    );
  });
  const ranks = memoize((key: string) => catalogue.track.steadyKept(`ranks\n${key}`, () => positionsByFile(records[key] ?? [])));
  const names = memoize((joined: string) => new Map(joined.split('\n').flatMap((key) => namesOf(key))));

  const perRecord = new Map<string, WeakMap<AnyEntry, unknown>>();
  const contentTime = newestDate(orders) ?? options.builtAt;
  const catalogue: Catalogue = {
    collections,
    site: content.site,
    synonyms: content.synonyms ?? null,
    siteUrl: options.siteUrl,
    builtAt: options.builtAt,
    contentTime,
    track: UNTRACKED,
    records,
    terms,
    names: (keys) => names(keys.join('\n')),
    groups: (key, field) => groups(`${key}\n${field}`),
    rank: ranks,
    edited: (key) => orders.get(key)?.edited,
    collection,
    render: options.render,
    memo: options.cache.memo,
    perRecord<T>(table: string, record: AnyEntry, make: () => T): T {
      let values = perRecord.get(table);
      if (!values) {
        values = new WeakMap();
        perRecord.set(table, values);
      }
      if (!values.has(record)) values.set(record, make());
      return values.get(record) as T;
    },
    recordUrl(key, record) {
      const spec = collection(key);
      const slug = String(record[spec.page.key]);
      // Records the API serves are spread over folders (data-paths.ts); the resource pages' address is fixed.
      return `${options.siteUrl}/${spec.api ? recordPageFolder(spec.page.path, slug) : `${spec.page.path}/${slug}`}/`;
    },
  };
  // Made once the catalogue is: what an edit reaches is read from its groups (edit-reach.ts).
  if (options.track) catalogue.track = options.track(contentTime, catalogue);
  for (const [key, { kept, store }] of orders) {
    if (!options.previousOrder?.stored) catalogue.track.keep(`order\n${key}`, () => kept);
    else if (store) catalogue.track.steadyKept(`stored order\n${key}`, store);
  }
  return catalogue;
}
