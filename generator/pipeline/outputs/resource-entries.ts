/**
 * The resource feed's entries (spec "Resource feed document"), which the feed (feed/feed-files.ts) publishes
 * and the resources hub (pages/resource-pages.ts) shows: which records they are, in which order, and each as
 * the feed spells it.
 */
import { feedSource } from '../../schemas/collections.ts';
import { feedEntriesOf, type Resource } from '../../schemas/content.ts';
import type { FeedEntry } from '../../schemas/feed.ts';
import { estimateReadingTime } from '../../shared/reading-time.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';

/** The collection the table flags as the feed's: its records are the entries, in its order. */
const feedKey = (catalogue: Catalogue) => feedSource(catalogue.collections, 'resources');

/** Published resources in feed order (the collection's order: newest `updated` first, then id). */
export function feedResources(catalogue: Catalogue): Resource[] {
  return feedEntriesOf(catalogue.records, catalogue.collections, 'resources');
}

/** The taxonomies an entry's `category` draws from: what the feed's collection says the field references. */
function categoryTaxonomies(catalogue: Catalogue): readonly string[] {
  const reference = catalogue.collection(feedKey(catalogue)).references?.category;
  return Array.isArray(reference) ? reference : [];
}

/** The practice categories an entry's `category` draws from, in display order. */
export function feedCategories(catalogue: Catalogue) {
  return categoryTaxonomies(catalogue).flatMap((key) => catalogue.terms[key] ?? []);
}

/** An entry's category as a reader sees it: its term's name (its id, should none name it). */
export const categoryName = (catalogue: Catalogue, id: string) => catalogue.names(categoryTaxonomies(catalogue)).get(id) ?? id;

/** One feed entry, fields in the order of the spec's table. */
export function toFeedEntry(resource: Resource, catalogue: Catalogue): FeedEntry {
  return {
    id: resource.id,
    type: resource.type,
    title: resource.title,
    category: resource.category,
    url: catalogue.recordUrl(feedKey(catalogue), resource),
    excerpt: resource.excerpt,
    topics: resource.topics,
    reading_time: resource.reading_time ?? estimateReadingTime(resource.body),
    author: resource.author,
    updated: resource.updated,
    image: resource.image,
  };
}
