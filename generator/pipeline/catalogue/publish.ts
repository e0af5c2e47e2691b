/**
 * What is published: no drafts anywhere, and no record dated after the build, unless a preview build asks for
 * them (`--drafts`, `--future`).
 */
import { markdownCollections, type AnyEntry, type CollectionTable, type MarkdownCollection } from '../../schemas/collections.ts';
import { type Content, type ContentByKey, entriesOf } from '../../schemas/content.ts';
import { withField } from '../validate/check-record.ts';

/** What a preview build includes besides what is published: drafts, scheduled records, or both. */
export interface Preview {
  drafts: boolean;
  future: boolean;
}

export const NO_PREVIEW: Preview = { drafts: false, future: false };

/** The day a record is published on, for collections that date their records (the table's date role). */
const dateOf = (record: AnyEntry, collection: MarkdownCollection) => (collection.fields.date ? record[collection.fields.date] : undefined);

/** A record dated after the build's day: it goes live with the first build on or after that day. */
export const isScheduled = (record: AnyEntry, collection: MarkdownCollection, buildDate: string) => {
  const day = dateOf(record, collection);
  return typeof day === 'string' && day > buildDate;
};

/** Per Markdown collection: records published, drafts, scheduled, and the next scheduled date. */
export interface PublicationCount {
  key: string;
  name: string;
  published: number;
  drafts: number;
  scheduled: number;
  nextDate?: string;
}

/** How many records of each collection a build publishes and leaves out (a draft that is also scheduled counts as a draft). */
export function countPublication(
  content: Content,
  collections: CollectionTable,
  published: Content,
  buildDate: string,
): PublicationCount[] {
  return markdownCollections(collections).map(([key, collection]) => {
    const records = entriesOf(content, key);
    const scheduled = records.filter((record) => !record.draft && isScheduled(record, collection, buildDate));
    const nextDate = scheduled.map((record) => dateOf(record, collection) as string).sort()[0];
    return {
      key,
      name: collection.name,
      published: entriesOf(published, key).length,
      drafts: records.filter((record) => record.draft).length,
      scheduled: scheduled.length,
      ...(nextDate ? { nextDate } : {}),
    };
  });
}

/**
 * `buildDate` is the build's calendar day (YYYY-MM-DD, UTC); a record whose `date` is after it is scheduled.
 * A reference to an unpublished record would name a record the API answers 404 for, so it goes too.
 */

export function selectPublished(content: Content, collections: CollectionTable, buildDate: string, preview = NO_PREVIEW): Content {
  return publishedWith(content, collections, buildDate, preview).content;
}

/** Whether `record` of `collection` is published by a build of `buildDate` with `preview`. */
export const isPublished = (record: AnyEntry, collection: MarkdownCollection, buildDate: string, preview: Preview): boolean =>
  (preview.drafts || !record.draft) && (preview.future || !isScheduled(record, collection, buildDate));

/**
 * The fields of each collection that name records of a Markdown collection, and the ids they may name: the
 * published records' (and the terms') of the collections each names.
 */
export type UsableIds = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

/** `record` with each field in `usable` naming only the ids it may: the record itself when it names none other. */
export function withUsable(record: AnyEntry, usable: ReadonlyMap<string, ReadonlySet<string>> | undefined): AnyEntry {
  let value = record;
  for (const [field, ids] of usable ?? []) {
    const named = value[field] as string[];
    // Copied only when it names an unpublished record: a copy of every record, every build, was most of this.
    if (!named.every((id) => ids.has(id)))
      value = withField(
        value,
        field,
        named.filter((id) => ids.has(id)),
      );
  }
  return value;
}

/** The published content, and the ids each reference field may name (for a later build to patch: kept-publication.ts). */
export function publishedWith(
  content: Content,
  collections: CollectionTable,
  buildDate: string,
  preview: Preview,
): { content: Content; usable: UsableIds } {
  const byKey: ContentByKey = content;
  const published: Record<string, AnyEntry[]> = {};
  for (const [key, collection] of markdownCollections(collections)) {
    published[key] = entriesOf(content, key).filter((record) => isPublished(record, collection, buildDate, preview));
  }
  const ids = (keys: readonly string[]) =>
    new Set(keys.flatMap((key) => (published[key] ?? (byKey[key] as { id: string }[] | undefined) ?? []).map((record) => record.id)));
  const usable = new Map<string, Map<string, ReadonlySet<string>>>();
  for (const [key, collection] of markdownCollections(collections)) {
    const fields = new Map<string, ReadonlySet<string>>();
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      if (Array.isArray(reference) && reference.some((target) => target in published)) fields.set(field, ids(reference));
    }
    if (fields.size === 0) continue;
    usable.set(key, fields);
    published[key] = published[key]!.map((record) => withUsable(record, fields));
  }
  return { content: { ...content, ...published } as Content, usable };
}
