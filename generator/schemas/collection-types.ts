/**
 * What a collections table is made of (schemas/collections.ts holds the site's table): the shape of each kind
 * of collection and of what it declares, the records and terms it yields, and helpers to walk a table.
 */
import type { z } from 'zod';
import type { ResourceFeedFields } from './feed.ts';

/** One YAML document (site.yaml); its schema is an object's, whose fields are the document's keys. */
export interface DocumentCollection<S extends z.ZodObject = z.ZodObject> {
  kind: 'document';
  name: string;
  file: string;
  schema: S;
  /** A file the content folder may leave out (the document is then absent). */
  optional?: boolean;
}

/** A YAML file holding a list of small records (terms), each with an `id`. */
export interface ListCollection<S extends z.ZodType = z.ZodType> {
  kind: 'list';
  name: string;
  /** One record, in problem messages: "unknown category". */
  noun: string;
  file: string;
  schema: S;
  /** How a term of this list is answered by a taxonomy route (its keys, in order; `count` is derived). */
  item: z.ZodObject;
  /** The ids the list must hold, when the content model fixes them. */
  exactly?: readonly string[];
}

/**
 * Where a reference field's ids must exist: the ids of these collections, a file under `images/`, or a
 * list in site.yaml.
 */
export type Reference = readonly string[] | 'images' | `site.${string}`;

/**
 * Records in contract order: `order` then title; newest first by the date role (`fields.date`, which a
 * collection ordered so must name); newest `updated` first.
 */
export type RecordOrder = 'order' | 'date' | 'updated';

/** A list filter: the query parameter, the record fields it matches and the taxonomies its values come from. */
export interface FilterSpec {
  param: string;
  /** An item matches when one of these fields is the value or, for a list, holds it. */
  fields: readonly string[];
  /** Allowed values: these taxonomies' ids, in order, each once. */
  taxonomies: readonly string[];
  /** The name the allowed values go under in the manifest; filters with the same values share it. */
  source: string;
  description: string;
}

/** What a field of a get route's `related` object holds. */
type RelationKind =
  /** The term one field names, `{ id, name }` (null when the field is empty). */
  | { kind: 'term'; field: string; taxonomies: readonly string[] }
  /** The terms a list field names. */
  | { kind: 'terms'; field: string; taxonomies: readonly string[] }
  /** Records of `collection` whose `field` has this record's value of the same field. */
  | { kind: 'same'; collection: string; field: string; max?: number }
  /** Records of `collection` whose list `field` holds this record's id. */
  | { kind: 'referencing'; collection: string; field: string }
  /** Other records of this collection that share a value of the list `field`, in collection order. */
  | { kind: 'sharing'; field: string; max: number };

/**
 * A field of a get route's `related` object, computed from the catalogue; its answer schema is derived from
 * it (schemas/api.ts, `relatedSchema`), with `description` as the field's description in the OpenAPI document.
 */
export type Relation = RelationKind & { description?: string };

/** The names of an operation in the OpenAPI document. */
export interface OperationNames {
  operationId: string;
  summary: string;
}

/** A route beside a collection's list and get. */
export type ExtraRoute = OperationNames & { path: string } /** A taxonomy's terms with the number of published records that use each. */ & (
    | { kind: 'terms'; taxonomy: string; counts: readonly { collection: string; field: string }[] }
    /** The collection's items whose fields have these values. */
    | { kind: 'subset'; where: Readonly<Record<string, string | boolean>> }
    /** The first `count` items (1 to `max`, default `default`). */
    | { kind: 'latest'; max: number; default: number }
  );

/** A route of a taxonomy's terms, each counted over the published records of these collection fields. */
export const termsRoute = (
  names: OperationNames & { path: string },
  taxonomy: string,
  ...counts: [collection: string, field: string][]
): ExtraRoute => ({
  ...names,
  kind: 'terms',
  taxonomy,
  counts: counts.map(([collection, field]) => ({ collection, field })),
});

/** What the API serves of a collection. */
export interface ApiSpec {
  /** Routes live under `/v1/<path>/`: `list`, `get` and the extra routes. */
  path: string;
  /** What a list of these records is called in prose ("search over services, expertise and articles"). */
  label: string;
  /** The OpenAPI tag of its operations, and what the tag covers. */
  tag: string;
  about: string;
  /** A list item and a get route's record; their keys, in order, are the answer's keys. */
  item: z.ZodObject;
  record: z.ZodObject;
  list: OperationNames;
  get: OperationNames;
  filters: readonly FilterSpec[];
  relations?: Readonly<Record<string, Relation>>;
  routes?: readonly ExtraRoute[];
  /** Searchable: `tags` fields are indexed as they are, `terms` fields by the names of the terms they hold. */
  search?: { tags: readonly string[]; terms: readonly string[] };
}

/** The schema.org types a record page can describe its record as (see pipeline/outputs/pages/json-ld.ts). */
export type PageSchema = 'Service' | 'DefinedTerm' | 'SoftwareApplication' | 'Article';

/** What every Markdown collection declares. Its schema is an object's: the front matter's fields. */
interface MarkdownCollectionFields<S extends z.ZodObject> {
  kind: 'markdown';
  name: string;
  /** One record: "No service has the id", "unknown technology". */
  noun: string;
  pattern: string;
  schema: S;
  /**
   * The fields that play a role every output knows, by name: what names a record (`title`, or `name` for
   * technologies), its one-line summary, and the day it was published, for collections that have one
   * (bylines, feed dates, schedules; `updated` defaults to it).
   */
  fields: { title: string; summary: string; date?: string };
  order: RecordOrder;
  /**
   * A record's page, `{site_url}/<path>/<slug or id>/`: its `url`. `schema` is the schema.org type the page
   * describes its record as (JSON-LD), for collections whose pages the record pages write.
   */
  page: { path: string; key: 'slug' | 'id'; schema?: PageSchema };
  /** Fields that hold ids of other collections, checked in this order. */
  references?: Readonly<Record<string, Reference>>;
  api?: ApiSpec;
}

/**
 * The site feed made of a collection's records, if any, and what that feed needs of its schema: the article
 * feeds (RSS, Atom, JSON Feed) read through the field roles; the resource feed and the hub copy the fields of
 * the resources' front matter by name, so the collection flagged for them must validate those fields.
 */
type FeedFlag = { feed?: undefined } | { feed: 'articles' } | { feed: 'resources'; schema: z.ZodType<FeedFields<'resources'>> };

/** What a site feed reads of its collection's records by name, beyond the roles: the resource feed's fields. */
export type FeedFields<F extends Feed> = F extends 'resources' ? ResourceFeedFields : unknown;

/** Newest first by the day a record was published: only a collection whose roles name that day. */
type OrderFlag = { order: Exclude<RecordOrder, 'date'> } | { order: 'date'; fields: { date: string } };

/** One Markdown file per record; the file name is the slug. */
export type MarkdownCollection<S extends z.ZodObject = z.ZodObject> = MarkdownCollectionFields<S> & FeedFlag & OrderFlag;

export type Collection = DocumentCollection | ListCollection | MarkdownCollection;

/** A collections table: the site's own (below), or a test's with one more. */
export type CollectionTable = Readonly<Record<string, Collection>>;

/** What the loader adds to a Markdown record's front matter. */
export interface EntryMeta {
  /** Defaults to the slug. */
  id: string;
  /** The file name without `.md`. */
  slug: string;
  /** Markdown after the front matter. */
  body: string;
  /** Path relative to the content folder, with `/`. */
  file: string;
}

/** A record of any Markdown collection, for code that reads fields by the table's names. */
export type AnyEntry = EntryMeta & { updated: string; order?: number; draft?: boolean } & Record<string, unknown>;

/** A term of any list collection. */
export type AnyTerm = { id: string; name: string; order: number } & Record<string, unknown>;

/** The Markdown collections of a table, with their keys, in table order. */
export function markdownCollections(table: CollectionTable): [string, MarkdownCollection][] {
  return Object.entries(table).filter((entry): entry is [string, MarkdownCollection] => entry[1].kind === 'markdown');
}

export type Feed = 'articles' | 'resources';
/** Each table's feed sources, found once: the resource feed asks for its key once per entry. */
const feedSources = new WeakMap<CollectionTable, Map<Feed, string>>();

/** The key of the Markdown collection a site feed is made of (the table's `feed` flag); one per feed. */
export function feedSource(table: CollectionTable, feed: Feed): string {
  const known = feedSources.get(table)?.get(feed);
  if (known !== undefined) return known;
  const keys = markdownCollections(table).filter(([, collection]) => collection.feed === feed);
  if (keys.length !== 1) throw new Error(`the collections table must flag one collection as the ${feed} feed's, not ${keys.length}`);
  feedSources.set(table, (feedSources.get(table) ?? new Map<Feed, string>()).set(feed, keys[0]![0]));
  return keys[0]![0];
}

/** A Markdown collection the API serves. */
export type ApiCollection = MarkdownCollection & { api: ApiSpec };

/** The collections the API serves, with their keys, in table order (the order of routes and of health's `resources`). */
export function apiCollections(table: CollectionTable): [string, ApiCollection][] {
  return markdownCollections(table).filter((entry): entry is [string, ApiCollection] => entry[1].api !== undefined);
}
