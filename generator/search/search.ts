/**
 * Search over the index the generator wrote (index-format.ts). Web APIs only: each query reads the parts it
 * needs through the runtime's file access (index-reader.ts), so a fresh isolate's first search costs what
 * that query touches, not what the index holds. The query's words (query-plan.ts) are scored with exact
 * skipping (scoring.ts) by the rules of ranking.ts.
 */
import type { SearchResult } from '../schemas/api.ts';
import type { SearchMeta } from './index-format.ts';
import { createIndexParts, DEFAULT_CACHE_BYTES, type IndexSource } from './index-reader.ts';
import { planQuery } from './query-plan.ts';
import { rank as rankUnits } from './scoring.ts';
import type { WordExplanation } from './explain.ts';
import { processQuery } from './text-analysis.ts';
import { rankHybrid } from '../semantic/hybrid-rank.ts';

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

/** A result with its score before rounding (test/search compares skipping with scoring every document), and why. */
export type RankedResult = SearchResult & { raw: number; explanation?: WordExplanation[] };

export interface RankOptions {
  /** Score every block (the reference skipping is tested against). */
  exhaustive?: boolean;
  /** Say, per query word, how each result's score is made (explain.ts). */
  explain?: boolean;
}

export interface RankingSearch extends Search {
  rank(query: SearchQuery, options?: RankOptions): Promise<{ total: number; items: RankedResult[] }>;
  /** Bytes of index parts (and their decoded records) the isolate's cache holds now. */
  cachedBytes(): number;
}

export interface SearchOptions {
  /** Bytes of index parts kept per isolate (index-reader.ts). */
  cacheBytes?: number;
}

/** Search over the index `source` reads. A part that fails to read fails that search and is read again by the next. */
export function createSearch(source: IndexSource, options: SearchOptions = {}): RankingSearch {
  const parts = createIndexParts(source, options.cacheBytes ?? DEFAULT_CACHE_BYTES);

  async function rank(query: SearchQuery, rankOptions: RankOptions = {}) {
    try {
      return await rankOnce(query, rankOptions);
    } catch (error) {
      // A part may have been read whole and found broken only when decoded: read everything again next time.
      parts.clear();
      throw error;
    }
  }

  async function rankOnce({ q, type, limit, offset }: SearchQuery, { exhaustive, explain }: RankOptions) {
    // Only stop words or punctuation: nothing to look for, and no reason to read the index.
    if (processQuery(q).length === 0) return { total: 0, items: [] };
    const meta = await parts.meta();
    const typeIndex = meta.types.findIndex(([name]) => name === type);
    if (type !== 'all' && typeIndex < 0) return { total: 0, items: [] };
    const range: [number, number] = type === 'all' ? [0, meta.documents] : [meta.types[typeIndex]![1], meta.types[typeIndex]![2]];
    const units = await planQuery(parts, meta, q);
    const options = { range, offset, limit, exhaustive, explain };
    // Meaning as well as words (generator/semantic): null when the build left it out or no word is known to it.
    const hybrid = await rankHybrid(parts, meta, units, q, options);
    if (!hybrid && units.length === 0) return { total: 0, items: [] };
    const { total, page } = hybrid ?? rankUnits(units, meta, options);
    const items = await Promise.all(
      page.map(async ({ document, score, raw, explanation }) => ({
        ...(await toItem(parts, meta, document, score, raw)),
        ...(explanation ? { explanation } : {}),
      })),
    );
    return { total, items };
  }

  return {
    rank,
    cachedBytes: () => parts.cachedBytes(),
    async search(query) {
      const { total, items } = await rank(query);
      return { total, items: items.map(({ raw: _, ...item }) => item) };
    },
  };
}

async function toItem(
  parts: ReturnType<typeof createIndexParts>,
  meta: SearchMeta,
  document: number,
  score: number,
  raw: number,
): Promise<RankedResult> {
  const card = await parts.card(Math.floor(document / meta.cardsPerFile), document % meta.cardsPerFile);
  const type = meta.types.find(([, first, end]) => document >= first && document < end)?.[0];
  if (!card || !type) throw new Error(`search index: no result card for document ${document}; rebuild the site`);
  const [id, slug, title, summary, url] = card;
  return { type, id, slug, title, summary, url, score, raw };
}
