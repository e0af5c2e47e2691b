/**
 * Search over the index the generator wrote (index-format.ts). Web APIs only: each query reads the parts it
 * needs through the runtime's file access (index-reader.ts), so a fresh isolate's first search costs what
 * that query touches, not what the index holds. Ranking is MiniSearch's (scoring.ts) with the query the
 * ranking options define (ranking.ts).
 */
import type { SearchResult } from '../schemas/api.ts';
import { lookupPrefix, lookupTerm } from './dictionary.ts';
import { type PostingsLocation, postingsPath, type SearchMeta, type TermEntry } from './index-format.ts';
import { createIndexParts, DEFAULT_CACHE_BYTES, type IndexParts, type IndexSource, partError } from './index-reader.ts';
import { readRecordFields } from './postings-codec.ts';
import { expansionsFor, MAX_EXPANDED_POSTINGS, type prefixFor, searchOptions, selectAffordableTerms, TYPO_FIELDS } from './ranking.ts';
import { Accumulator, fuzzyWeight, prefixWeight } from './scoring.ts';
import { processQuery } from './text-analysis.ts';
import { findTypos } from './typo-dictionary.ts';

export interface SearchQuery {
  /** Trimmed and validated by the handler: 1 to 200 characters. */
  q: string;
  /** `all`, or the API path of one searchable collection. */
  type: string;
  limit: number;
  offset: number;
}

export interface SearchAnswer {
  /** Every match, not only the window. */
  total: number;
  items: SearchResult[];
}

export interface Search {
  search(query: SearchQuery): Promise<SearchAnswer>;
}

/** A result with its score before rounding, for comparing the ranking with MiniSearch's (test/search). */
export type RankedResult = SearchResult & { raw: number };

export interface RankingSearch extends Search {
  rank(query: SearchQuery): Promise<{ total: number; items: RankedResult[] }>;
}

/** A term a query word scores, with MiniSearch's weight for how it was found. */
interface Derived {
  term: string;
  weight: number;
  location: PostingsLocation;
}

/** The terms one query word scores in each subquery: exact, prefix and typo matches, in MiniSearch's order. */
interface WordPlan {
  shortFields: Derived[];
  body: Derived[];
}

/**
 * The terms each kept word scores (ranking.ts `createQuery`): in the short fields its exact term, the longer
 * terms it prefixes and those one edit away; in bodies its exact term and prefixes only.
 */
async function planWords(parts: IndexParts, meta: SearchMeta, run: string[], entries: Map<string, TermEntry | undefined>) {
  const common = new Set(run.filter((term) => (entries.get(term)?.postings ?? 0) > MAX_EXPANDED_POSTINGS));
  const { fuzzy, prefix } = expansionsFor(common) as {
    fuzzy: (term: string, index: number, terms: string[]) => unknown;
    prefix: typeof prefixFor;
  };
  return Promise.all(
    run.map(async (word, index): Promise<WordPlan> => {
      const exact = entries.get(word);
      const exacts: Derived[] = exact ? [{ term: word, weight: 1, location: exact.location }] : [];
      const prefixes = prefix(word, index, run) ? await lookupPrefix(parts, meta.blocks, word) : [];
      const byPrefix = prefixes.map(({ term, location }): Derived => ({ term, weight: prefixWeight(term, word), location }));
      const typos = fuzzy(word, index, run) ? await findTypos(word, (key) => parts.typos(key)) : [];
      const prefixed = new Set(prefixes.map(({ term }) => term));
      const byTypo = typos
        .filter(({ term }) => !prefixed.has(term))
        .map(({ term, location }): Derived => ({ term, weight: fuzzyWeight(term), location }));
      return { shortFields: [...exacts, ...byPrefix, ...byTypo], body: [...exacts, ...byPrefix] };
    }),
  );
}

/** Reads every postings shard the plan needs, in parallel. */
async function readShards(parts: IndexParts, plans: WordPlan[]): Promise<Map<number, Uint8Array>> {
  const shards = [...new Set(plans.flatMap(({ shortFields, body }) => [...shortFields, ...body].map(({ location }) => location[0])))];
  return new Map(await Promise.all(shards.map(async (shard) => [shard, await parts.shard(shard)] as const)));
}

const SUBQUERIES = [
  { fields: TYPO_FIELDS as readonly string[], plan: (word: WordPlan) => word.shortFields },
  { fields: ['body'] as readonly string[], plan: (word: WordPlan) => word.body },
] as const;

/** Scores every planned term of every word into `accumulator`, decoding only the segments of the types in `types` (`[first, end)`). */
function scorePlans(
  accumulator: Accumulator,
  meta: SearchMeta,
  plans: WordPlan[],
  shards: Map<number, Uint8Array>,
  types: [number, number],
) {
  accumulator.startQuery(meta.documents);
  SUBQUERIES.forEach(({ fields, plan }, subquery) => {
    const boosts = new Map(fields.map((field) => [meta.fields.indexOf(field), searchOptions.boost?.[field] || 1]));
    plans.forEach((word, wordIndex) => {
      accumulator.startWord();
      for (const { weight, location } of plan(word)) {
        const bytes = shards.get(location[0])!;
        try {
          // Fields in id order, which is the subquery's field order (SEARCH_FIELDS).
          for (const { fieldId, df, segments } of readRecordFields(bytes, location[1], location[2], meta.types.length)) {
            const boost = boosts.get(fieldId);
            if (boost === undefined) continue;
            const wanted = segments.slice(types[0], types[1]).map(([start, end], i) => [start, end, meta.types[types[0] + i]![1]] as const);
            accumulator.addField({ bytes, segments: wanted, df, averageLength: meta.averageFieldLength[fieldId]!, weight: weight * boost });
          }
        } catch (error) {
          throw partError(postingsPath(location[0]), (error as Error).message);
        }
      }
      accumulator.endWord(subquery as 0 | 1, wordIndex);
    });
  });
}

export interface SearchOptions {
  /** Bytes of index parts kept per isolate (index-reader.ts). */
  cacheBytes?: number;
}

/** Search over the index `source` reads. A part that fails to read fails that search and is read again by the next. */
export function createSearch(source: IndexSource, options: SearchOptions = {}): RankingSearch {
  const parts = createIndexParts(source, options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  let accumulator: Accumulator | undefined;

  async function rank(query: SearchQuery): Promise<{ total: number; items: RankedResult[] }> {
    try {
      return await rankOnce(query);
    } catch (error) {
      // A part may have been read whole and found broken only when decoded: read everything again next time.
      parts.clear();
      throw error;
    }
  }

  async function rankOnce({ q, type, limit, offset }: SearchQuery): Promise<{ total: number; items: RankedResult[] }> {
    const words = processQuery(q);
    // Only stop words or punctuation: nothing to look for, and no reason to read the index.
    if (words.length === 0) return { total: 0, items: [] };
    const meta = await parts.meta();
    const typeIndex = meta.types.findIndex(([name]) => name === type);
    if (type !== 'all' && typeIndex < 0) return { total: 0, items: [] };
    const types: [number, number] = type === 'all' ? [0, meta.types.length] : [typeIndex, typeIndex + 1];
    const entries = new Map(await Promise.all(words.map(async (word) => [word, await lookupTerm(parts, meta.blocks, word)] as const)));
    const run = selectAffordableTerms(words, (word) => entries.get(word)?.postings ?? 0);
    const plans = await planWords(parts, meta, run, entries);
    const shards = await readShards(parts, plans);
    if (accumulator?.size !== meta.documents) accumulator = new Accumulator(meta.documents);
    scorePlans(accumulator, meta, plans, shards, types);
    // The accumulator is shared by the isolate's queries: read everything from it before the next await.
    const total = accumulator.count;
    const window = accumulator.window(run.length, offset, limit);
    const items = await Promise.all(window.map(({ document, score, raw }) => toItem(parts, meta, document, score, raw)));
    return { total, items };
  }

  return {
    rank,
    async search(query) {
      const { total, items } = await rank(query);
      return { total, items: items.map(({ raw: _, ...item }) => item) };
    },
  };
}

async function toItem(parts: IndexParts, meta: SearchMeta, document: number, score: number, raw: number): Promise<RankedResult> {
  const cards = await parts.cards(Math.floor(document / meta.cardsPerFile));
  const card = cards[document % meta.cardsPerFile];
  const type = meta.types.find(([, first, end]) => document >= first && document < end)?.[0];
  if (!card || !type) throw new Error(`search index: no result card for document ${document}; rebuild the site`);
  const [id, slug, title, summary, url] = card;
  return { type, id, slug, title, summary, url, score, raw };
}
