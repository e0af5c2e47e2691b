/**
 * What a build publishes, patched from the previous build's rather than selected again (npm run dev keeps it in
 * memory between builds). A record is the same object from one build to the next while its file is unchanged
 * (kept-order.ts), so the records an edit changed are found by comparing the validated lists pointer by pointer.
 * When each kept its file, its id, its draft flag and whether it is published, and none is scheduled, the same
 * ids are published as before: the published lists are the previous ones with the changed records put at their
 * places (each with the references it may name), and the counts are the same. Anything else is selected and
 * counted again from every record, as a build without a previous one does.
 */
import { type AnyEntry, type CollectionTable, type MarkdownCollection, markdownCollections } from '../../schemas/collections.ts';
import { type Content, type ContentByKey, entriesOf } from '../../schemas/content.ts';
import {
  countPublication,
  isPublished,
  isScheduled,
  type Preview,
  type PublicationCount,
  publishedWith,
  type UsableIds,
  withUsable,
} from './publish.ts';

/** What a build published, for the next build to patch. */
export interface KeptPublication {
  buildDate: string;
  preview: Preview;
  collections: CollectionTable;
  /** The validated content it was published from. */
  content: Content;
  published: Content;
  publication: PublicationCount[];
  usable: UsableIds;
  /** Per Markdown collection, each validated record's position among the published ones (-1: not published). */
  places: ReadonlyMap<string, Int32Array>;
}

/** Past this many changed records, selecting again costs no more than patching. */
const MAX_EDITED = 256;

/** Each validated record's position among the published records of its collection (-1: not published). */
function placesOf(content: Content, collections: CollectionTable, buildDate: string, preview: Preview): Map<string, Int32Array> {
  const places = new Map<string, Int32Array>();
  for (const [key, collection] of markdownCollections(collections)) {
    const given = entriesOf(content, key);
    const at = new Int32Array(given.length).fill(-1);
    let place = 0;
    given.forEach((record, index) => {
      if (isPublished(record, collection, buildDate, preview)) at[index] = place++;
    });
    places.set(key, at);
  }
  return places;
}

/**
 * The published content and its counts, patched from `before` (the previous build's) where the edit allows,
 * and what the next build patches from.
 */
export function publish(
  content: Content,
  collections: CollectionTable,
  buildDate: string,
  preview: Preview,
  before?: KeptPublication,
): { published: Content; publication: PublicationCount[]; kept: KeptPublication } {
  const patched = before && patchPublication(content, collections, buildDate, preview, before);
  if (patched) return { published: patched.published, publication: patched.publication, kept: patched };
  const { content: published, usable } = publishedWith(content, collections, buildDate, preview);
  const publication = countPublication(content, collections, published, buildDate);
  const places = placesOf(content, collections, buildDate, preview);
  return { published, publication, kept: { buildDate, preview, collections, content, published, publication, usable, places } };
}

/** Whether the terms and other entries a reference may name are the same objects as before. */
function sameOthers(content: Content, before: Content, collections: CollectionTable): boolean {
  const now: ContentByKey = content;
  const then: ContentByKey = before;
  return Object.entries(collections).every(([key, collection]) => {
    if (collection.kind !== 'list') return true;
    const [a, b] = [now[key] as unknown[] | undefined, then[key] as unknown[] | undefined];
    return a === b || (!!a && !!b && a.length === b.length && a.every((entry, index) => entry === b[index]));
  });
}

function patchPublication(
  content: Content,
  collections: CollectionTable,
  buildDate: string,
  preview: Preview,
  before: KeptPublication,
): KeptPublication | undefined {
  const samePreview = before.preview.drafts === preview.drafts && before.preview.future === preview.future;
  if (before.buildDate !== buildDate || !samePreview || before.collections !== collections) return undefined;
  if (!sameOthers(content, before.content, collections)) return undefined;
  const published: Record<string, AnyEntry[]> = {};
  let edited = 0;
  for (const [key, collection] of markdownCollections(collections)) {
    const given = entriesOf(content, key);
    const was = entriesOf(before.content, key);
    const places = before.places.get(key)!;
    if (given.length !== was.length) return undefined;
    let list: AnyEntry[] | undefined;
    for (let index = 0; index < given.length; index++) {
      const now = given[index]!;
      const then = was[index]!;
      if (now === then) continue;
      if (++edited > MAX_EDITED || !samePlace(now, then, collection, buildDate)) return undefined;
      const place = places[index]!;
      if (place < 0) continue;
      list ??= entriesOf(before.published, key).slice();
      list[place] = withUsable(now, before.usable.get(key));
    }
    published[key] = list ?? entriesOf(before.published, key);
  }
  return { ...before, content, published: { ...content, ...published } as Content };
}

/** Whether a changed record publishes and counts as the one it replaces: the same file, id and draft flag, and neither scheduled. */
function samePlace(now: AnyEntry, then: AnyEntry, collection: MarkdownCollection, buildDate: string): boolean {
  return (
    now.file === then.file &&
    now.id === then.id &&
    !!now.draft === !!then.draft &&
    !isScheduled(now, collection, buildDate) &&
    !isScheduled(then, collection, buildDate)
  );
}
