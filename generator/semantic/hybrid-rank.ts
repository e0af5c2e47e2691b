/**
 * The hybrid runner search.ts calls: the query's vector (query-encoder.ts), its nearest documents in the
 * type's range (vector-search.ts), the lexical ranking deep enough for the page, fused (hybrid.ts).
 * Answers null when the build left semantic search out or no word of the query is in the encoder's
 * vocabulary: the lexical ranking alone then answers. Runtime-neutral.
 */
import type { IndexParts } from '../search/index-reader.ts';
import type { SearchMeta } from '../search/index-format.ts';
import { ALL_FIELDS } from '../search/postings-codec.ts';
import { findBlock, PreparedForm, type Unit } from '../search/prepared-form.ts';
import { RANKING } from '../search/ranking.ts';
import { rank, type Ranked, type RankOptions } from '../search/scoring.ts';
import { fuse, lexicalNeeded } from './hybrid.ts';
import { encodeQuery } from './query-encoder.ts';
import { SEMANTIC } from './semantic-ranking.ts';
import { createSemanticParts, type SemanticParts } from './semantic-reader.ts';
import { type Neighbour, nearestDocuments } from './vector-search.ts';

const semanticOf = new WeakMap<IndexParts, SemanticParts>();

/** The semantic parts read through `parts` (one reader per isolate cache). */
export function semanticParts(parts: IndexParts): SemanticParts {
  let semantic = semanticOf.get(parts);
  if (!semantic) {
    semantic = createSemanticParts(parts);
    semanticOf.set(parts, semantic);
  }
  return semantic;
}

/** Whether any form of any word has `document` among its postings (as match-count.ts counts it). */
export function isLexicalMatch(units: readonly Unit[], meta: SearchMeta, document: number): boolean {
  const block = Math.floor(document / RANKING.blockSize);
  for (const { forms } of units) {
    for (const form of forms) {
      const prepared = new PreparedForm(form, meta);
      const at = findBlock(prepared.blocks, block);
      if (at < 0) continue;
      const { docs, scores } = prepared.postingsAt(at);
      const i = docs.indexOf(document);
      if (i >= 0 && (form.fields === ALL_FIELDS || scores[i]! > 0)) return true;
    }
  }
  return false;
}

export async function rankHybrid(
  parts: IndexParts,
  meta: SearchMeta,
  units: Unit[],
  q: string,
  options: RankOptions,
): Promise<{ total: number; page: Ranked[] } | null> {
  const semantic = semanticParts(parts);
  const semanticMeta = await semantic.meta();
  if (!semanticMeta) return null;
  if (semanticMeta.documents !== meta.documents) throw new Error('semantic index: written for another search index; rebuild the site');
  const vector = await encodeQuery(semantic, semanticMeta, q);
  if (!vector) return null;
  const neighbours = await nearestDocuments(semantic, semanticMeta, vector, { range: options.range });
  return fuseWithLexical(meta, units, neighbours, options);
}

/** The lexical ranking deep enough for the page, fused with `neighbours` (bench/semantic-lab.ts gives its own). */
export function fuseWithLexical(meta: SearchMeta, units: Unit[], neighbours: readonly Neighbour[], options: RankOptions) {
  const needed = lexicalNeeded(options.offset + options.limit);
  const lexical = units.length > 0 ? rank(units, meta, { ...options, offset: 0, limit: needed }) : { total: 0, page: [] };
  return fuse({
    words: units.length,
    lexical: lexical.page,
    lexicalTotal: lexical.total,
    semantic: neighbours,
    isLexicalMatch: (document) => isLexicalMatch(units, meta, document),
    floor: SEMANTIC.minSimilarity,
    offset: options.offset,
    limit: options.limit,
  });
}
