/**
 * Lexical and semantic results fused into one ranking, within the contract's rules:
 *
 * 1. Records that hold every word of the query (in some form under the words rule; each exactly in a longer
 *    query, ranking.ts) come first, in their lexical order and with their lexical scores: meaning never
 *    pushes a record that has every word down.
 * 2. Then the fused band: the next `lexicalDepth` lexical results and the semantic neighbours, by a blend
 *    of their scores, each list's scaled by its best (blend). Their scores sit between the first band's and
 *    any record with fewer words (fusedScore).
 * 3. Then the other lexical matches, in lexical order, with their lexical scores.
 *
 * So scores still descend down the list, ties go by document number (type, then id), and `total` counts
 * every lexical match and every neighbour that is not one. Pure: the runner (hybrid-rank.ts) gives it the
 * lists. Runtime-neutral.
 */
import { roundScore, wordsRuleFor } from '../search/ranking.ts';
import type { Ranked } from '../search/scoring.ts';
import { SEMANTIC } from './semantic-ranking.ts';
import type { Neighbour } from './vector-search.ts';

export interface FusionInput {
  /** Distinct words of the query, as the lexical ranking counts them. */
  words: number;
  /** The lexical ranking's first results, best first (at least offset + limit + lexicalDepth of them, or all). */
  lexical: readonly Ranked[];
  /** Every lexical match's count. */
  lexicalTotal: number;
  /** Semantic neighbours, nearest first. */
  semantic: readonly Neighbour[];
  /** Whether a neighbour not among `lexical` is a lexical match (asked only when lexicalTotal > lexical.length). */
  isLexicalMatch(document: number): boolean;
  /** The similarity floor the neighbours were taken above (a neighbour at it blends as 0). */
  floor: number;
  offset: number;
  limit: number;
}

const FUSED_FLOOR = 89;
const FUSED_SPAN = 10.99;

/** Lexical results needed for a page ending at `end`. */
export const lexicalNeeded = (end: number) => end + SEMANTIC.lexicalDepth;

const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.document - b.document;

/**
 * The fused band's score for a blend `fused` in [0, 1]: above every lexical score of a record with fewer
 * words than the query's n. Under the words rule (ranking.ts) that is `[100 (n - 1) + 89, 100 n)`; for a
 * longer query, whose lexical scores short of a complete match (100 n and more) are sums of n parts below 1,
 * `[n, n + 1)`.
 */
export function fusedScore(words: number, fused: number): number {
  const n = Math.max(words, 1);
  return wordsRuleFor(n) ? 100 * (n - 1) + FUSED_FLOOR + FUSED_SPAN * fused : n + 0.99 * fused;
}

/**
 * Each list's scores scaled to [0, 1] by the list's best, blended with weight `lexicalShare` on the lexical
 * side: a record absent from a list scores 0 there. Unlike rank fusion this keeps a lead: a lexical result
 * far ahead of the next one stays ahead of a record only meaning found (docs/semantic-search.md).
 */
export function blend(lexical: ReadonlyMap<number, number>, semantic: ReadonlyMap<number, number>, floor: number) {
  const top = (scores: ReadonlyMap<number, number>) => Math.max(0, ...scores.values());
  const [lexicalTop, semanticTop] = [top(lexical), top(semantic)];
  const share = SEMANTIC.lexicalShare;
  return (document: number) => {
    const words = lexicalTop > 0 ? (lexical.get(document) ?? 0) / lexicalTop : 0;
    const near = semantic.has(document) && semanticTop > floor ? (semantic.get(document)! - floor) / (semanticTop - floor) : 0;
    return share * words + (1 - share) * Math.max(0, near);
  };
}

export function fuse(input: FusionInput): { total: number; page: Ranked[] } {
  const { words, lexical, semantic } = input;
  const everyWord = lexical.filter(({ raw }) => Math.floor(raw / 100) >= words && words > 0);
  const below = lexical.slice(everyWord.length);
  const inFirstBand = new Set(everyWord.map(({ document }) => document));
  const neighbours = semantic.filter(({ document }) => !inFirstBand.has(document));
  const lexicalScores = new Map(below.slice(0, SEMANTIC.lexicalDepth).map(({ document, raw }) => [document, raw]));
  const semanticScores = new Map(neighbours.map(({ document, similarity }) => [document, similarity]));
  const blended = blend(lexicalScores, semanticScores, input.floor);
  const fused = [...new Set([...lexicalScores.keys(), ...semanticScores.keys()])].map((document): Ranked => {
    const raw = fusedScore(words, blended(document));
    return { document, raw, score: roundScore(raw) };
  });
  const rest = below.filter(({ document }) => !semanticScores.has(document) && !lexicalScores.has(document));
  const known = new Set(lexical.map(({ document }) => document));
  const complete = input.lexicalTotal <= lexical.length;
  const added = neighbours.filter(({ document }) => !known.has(document) && (complete || !input.isLexicalMatch(document))).length;
  const ranked = [...everyWord, ...fused.sort(byScore), ...rest];
  return { total: input.lexicalTotal + added, page: ranked.slice(input.offset, input.offset + input.limit) };
}
