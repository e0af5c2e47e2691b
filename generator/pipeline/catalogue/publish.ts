/** What is published: no drafts anywhere, and no record dated after the build. */
import { markdownCollections, type AnyEntry, type CollectionTable } from '../../schemas/collections.ts';
import type { Content } from '../../schemas/content.ts';

/**
 * `buildDate` is the build's calendar day (YYYY-MM-DD, UTC); a record whose `date` is after it is scheduled.
 * A reference to an unpublished record would name a record the API answers 404 for, so it goes too.
 */
export function selectPublished(content: Content, collections: CollectionTable, buildDate: string): Content {
  const all = content as unknown as Record<string, AnyEntry[]>;
  const published: Record<string, AnyEntry[]> = {};
  for (const [key] of markdownCollections(collections)) {
    published[key] = all[key]!.filter((record) => !record.draft && !(typeof record.date === 'string' && record.date > buildDate));
  }
  const ids = (keys: readonly string[]) =>
    new Set(keys.flatMap((key) => (published[key] ?? (all[key] as { id: string }[] | undefined) ?? []).map((record) => record.id)));
  for (const [key, collection] of markdownCollections(collections)) {
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      if (!Array.isArray(reference) || !reference.some((target) => target in published)) continue;
      const usable = ids(reference);
      published[key] = published[key]!.map((record) => ({
        ...record,
        [field]: (record[field] as string[]).filter((id) => usable.has(id)),
      }));
    }
  }
  return { ...content, ...published } as Content;
}
