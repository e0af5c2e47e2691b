/**
 * The search index: published services, expertise and articles in one MiniSearch index, serialized to
 * SEARCH_INDEX_PATH for the edge handler to load, bodies pruned to their most distinctive terms
 * (prune-search-body.ts). A pure function of the catalogue, like the other routes.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { SEARCH_INDEX_PATH } from '../../../shared/data-paths.ts';
import {
  miniSearchOptions,
  SEARCH_INDEX_FORMAT,
  type SearchDocument,
  type SearchType,
  type SerializedDocument,
  type SerializedSearchIndex,
  type SerializedTerm,
  type StoredResult,
} from '../../../search/search-options.ts';
import type { Article, Expertise, Service } from '../../../schemas/collections.ts';
import type { RecordRef } from '../../../schemas/api.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { BODY_PRUNING, createTermCache, pruneSearchBodies, type BodyPruning } from '../../../search/body-pruning.ts';
import * as shape from '../api/shape-records.ts';

/** Default budget for the serialized index. The edge parses it on a cold start, so size is latency. */
export const DEFAULT_SEARCH_INDEX_BUDGET_MB = 20;
const MB = 1024 * 1024;

/** SEARCH_INDEX_BUDGET_MB, a positive number of megabytes; the default when unset. */
export function resolveSearchIndexBudget(env: Record<string, string | undefined>): number {
  const value = env.SEARCH_INDEX_BUDGET_MB;
  if (value === undefined || value === '') return DEFAULT_SEARCH_INDEX_BUDGET_MB;
  const budget = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(budget > 0)) {
    throw new Error(`SEARCH_INDEX_BUDGET_MB must be a positive number of megabytes, not "${value}"`);
  }
  return budget;
}

/**
 * Markdown to the words a reader sees: link and image targets, HTML tags and bare addresses go, so that
 * "https", "www" and file names do not become search terms. Punctuation is left to the tokenizer.
 */
export function toSearchText(markdown: string): string {
  return markdown
    .replace(/^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm, ' ') // reference definitions: [id]: https://...
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](target) and ![alt](src) keep the text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const namesOf = (ids: readonly (string | null | undefined)[], names: Map<string, string>) =>
  ids.flatMap((id) => (id ? [names.get(id) ?? id] : [])).join(' ');

/** `item` is the record as its list answers it, so a result's url and summary match the list's exactly. */
function toDocument(type: SearchType, record: Service | Expertise | Article, item: RecordRef & { slug: string; summary: string }, terms: string): SearchDocument {
  const tags = 'topics' in record ? [...record.tags, ...record.topics] : record.tags;
  return {
    id: `${type}:${record.id}`,
    title: record.title,
    tags: tags.join(' '),
    terms,
    summary: record.summary,
    body: toSearchText(record.body),
    stored: [item.slug, item.title, item.summary, item.url],
  };
}

/** One document per published service, expertise area and article, in catalogue order (so builds match). */
export function createSearchDocuments(catalogue: Catalogue): SearchDocument[] {
  const { categories, industries } = catalogue.names;
  const termsOf = (record: Service | Expertise) => `${namesOf([record.category], categories)} ${namesOf(record.industries, industries)}`;
  return [
    ...catalogue.services.map((record) => toDocument('services', record, shape.toServiceItem(record, catalogue), termsOf(record))),
    ...catalogue.expertise.map((record) => toDocument('expertise', record, shape.toExpertiseItem(record, catalogue), termsOf(record))),
    ...catalogue.articles.map((record) =>
      toDocument('intelligence', record, shape.toArticleItem(record, catalogue), namesOf([record.category], categories)),
    ),
  ];
}

/** MiniSearch's postings of one term in one field, `{ shortId: tf }`, as SerializedTerm's gaps. */
function toPostings(entry: Record<string, number>): number[] {
  const postings: number[] = [];
  let previous = -1;
  // Integer keys enumerate in ascending order.
  for (const key of Object.keys(entry)) {
    const shortId = Number(key);
    postings.push(shortId - previous);
    if (entry[key] !== 1) postings.push(-entry[key]!);
    previous = shortId;
  }
  return postings;
}

/** MiniSearch's JSON of a freshly built index (short ids 0 to n - 1, nothing removed) in the site's format. */
export function toSerializedSearchIndex(index: AsPlainObject): SerializedSearchIndex {
  const documents: SerializedDocument[] = [];
  for (let shortId = 0; shortId < index.nextId; shortId++) {
    const id = index.documentIds[shortId] as string | undefined;
    if (id === undefined || index.dirtCount !== 0) throw new Error('search index: short ids must run from 0 without gaps');
    const { stored } = index.storedFields[shortId] as { stored: StoredResult };
    documents.push([id, index.fieldLength[shortId]!, stored]);
  }
  const terms = index.index.map(([term, fields]): SerializedTerm => {
    const row: SerializedTerm = [term];
    for (const fieldId of Object.keys(fields)) row.push(Number(fieldId), toPostings(fields[fieldId]!));
    return row;
  });
  return { format: SEARCH_INDEX_FORMAT, fieldIds: index.fieldIds, averageFieldLength: index.averageFieldLength, documents, terms };
}

/**
 * The serialized index of `documents` (SerializedSearchIndex), bodies pruned (see prune-search-body.ts): what
 * the build writes, and what bench/search.ts measures. `pruning` is for measuring other settings (null: whole
 * bodies); the build uses the default.
 */
export function serializeSearchIndex(documents: readonly SearchDocument[], pruning: BodyPruning | null = BODY_PRUNING): string {
  // The cache changes no term, only how often the stemmer runs: the edge loads the index with the plain options.
  const index = new MiniSearch<SearchDocument>({ ...miniSearchOptions, processTerm: createTermCache() });
  index.addAll(pruning ? pruneSearchBodies(documents, pruning) : documents);
  return JSON.stringify(toSerializedSearchIndex(index.toJSON()));
}

/** Builds and serializes the index; throws when it is larger than the budget (in megabytes). */
export function buildSearchIndex(
  catalogue: Catalogue,
  budgetMb = DEFAULT_SEARCH_INDEX_BUDGET_MB,
): { file: OutputFile; documents: number } {
  const documents = createSearchDocuments(catalogue);
  const body = serializeSearchIndex(documents);
  const size = new TextEncoder().encode(body).byteLength / MB;
  if (size > budgetMb) {
    throw new Error(
      `search index is ${size < 0.1 ? size.toPrecision(2) : size.toFixed(1)} MB, over the budget of ${budgetMb} MB (SEARCH_INDEX_BUDGET_MB); ` +
        'the edge parses the whole index on a cold start, so unpublish stale records, shorten long titles, tags or ' +
        'summaries (bodies are already cut to their most distinctive terms), or raise SEARCH_INDEX_BUDGET_MB if the ' +
        'slower first search is acceptable',
    );
  }
  return { file: { path: SEARCH_INDEX_PATH, body }, documents: documents.length };
}
