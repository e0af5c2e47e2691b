/**
 * The Markdown bodies a build renders: those of the published records, or, for a cold build whose helper
 * starts rendering before the content is validated (build-site.ts), those of every record read.
 */
import { type CollectionTable, markdownCollections } from '../schemas/collections.ts';
import { type Content, entriesOf } from '../schemas/content.ts';
import type { RawContent } from './load/load-content.ts';

/** The bodies of every published record. */
export function* markdownBodies(published: Content, collections: CollectionTable): Generator<string> {
  for (const [key] of markdownCollections(collections)) {
    for (const record of entriesOf(published, key)) yield record.body;
  }
}

/** The bodies of every Markdown record read, published or not (drafts are few; the helper renders them unused). */
export function* rawBodies(raw: RawContent, collections: CollectionTable): Generator<string> {
  for (const [key] of markdownCollections(collections)) {
    for (const record of raw.records[key] ?? []) if (record.body !== undefined) yield record.body;
  }
}
