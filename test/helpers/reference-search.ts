/**
 * The reference the sharded index is measured against: a plain in-memory MiniSearch over the same documents
 * with the site's options (ranking.ts), queried exactly as the site queries (the same analysed words, term
 * budget, expansions and subqueries), as the edge did before the index was split into parts.
 */
import MiniSearch from 'minisearch';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import {
  byRank,
  createQuery,
  expansionsFor,
  MAX_EXPANDED_POSTINGS,
  miniSearchOptions,
  selectAffordableTerms,
} from '../../generator/search/ranking.ts';
import type { RankedResult, SearchQuery } from '../../generator/search/search.ts';
import { processQuery } from '../../generator/search/text-analysis.ts';
import { roundScore } from '../../generator/search/ranking.ts';

type Postings = Map<string, Map<number, Map<number, number>>>;

export function createReferenceSearch(documents: readonly SearchDocument[]) {
  const index = new MiniSearch<SearchDocument>(miniSearchOptions);
  index.addAll(documents);
  const terms = (index as unknown as { _index: Postings })._index;
  const countPostings = (term: string) => [...(terms.get(term)?.values() ?? [])].reduce((sum, postings) => sum + postings.size, 0);

  return ({ q, type, limit, offset }: SearchQuery): { total: number; items: RankedResult[] } => {
    const words = processQuery(q);
    if (words.length === 0) return { total: 0, items: [] };
    const run = selectAffordableTerms(words, countPostings);
    const common = new Set(run.filter((term) => countPostings(term) > MAX_EXPANDED_POSTINGS));
    const results = index.search(createQuery(run.join(' ')), {
      filter: type === 'all' ? undefined : (result) => result.id.startsWith(`${type}:`),
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      ...expansionsFor(common),
    });
    const ranked = results.map((result) => {
      const raw = (result.score * result.queryTerms.length) / run.length;
      return { ...result, raw, score: roundScore(raw) };
    });
    ranked.sort(byRank);
    return {
      total: ranked.length,
      items: ranked.slice(offset, offset + limit).map((result) => {
        const [slug, title, summary, url] = (result as unknown as { stored: SearchDocument['stored'] }).stored;
        const separator = result.id.indexOf(':');
        return {
          type: result.id.slice(0, separator),
          id: result.id.slice(separator + 1),
          slug,
          title,
          summary,
          url,
          score: result.score,
          raw: result.raw,
        };
      }),
    };
  };
}
