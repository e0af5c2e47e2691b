/**
 * Nearest documents to a query vector: the centroids ranked, the nearest clusters read, their documents in
 * the type's range scored against the quantized vectors. `probes: all clusters` is the exact search the
 * approximate one is measured against. Runtime-neutral.
 */
import type { EnabledMeta, SemanticParts } from './semantic-reader.ts';
import { SEMANTIC } from './semantic-ranking.ts';
import { similarity } from './vector-part.ts';

export interface Neighbour {
  document: number;
  similarity: number;
}

export interface NeighbourOptions {
  range: readonly [number, number];
  /** Clusters read; SEMANTIC.probes by default. */
  probes?: number;
  /** Neighbours returned; SEMANTIC.candidates by default. */
  count?: number;
  /** Neighbours below it are left out; SEMANTIC.minSimilarity by default. */
  minSimilarity?: number;
}

/** Best first, ties by document number, so every runtime orders them the same. */
const byNearness = (a: Neighbour, b: Neighbour) => b.similarity - a.similarity || a.document - b.document;

/** The `probes` clusters whose centroids are nearest the query. */
async function nearestClusters(parts: SemanticParts, query: Float64Array, probes: number): Promise<number[]> {
  const { header, scales, codes } = await parts.centroids();
  const ranked: Neighbour[] = [];
  for (let i = 0; i < header.count; i++) ranked.push({ document: i, similarity: similarity(query, codes, scales[i]!, i) });
  return ranked
    .sort(byNearness)
    .slice(0, probes)
    .map(({ document }) => document);
}

export async function nearestDocuments(
  parts: SemanticParts,
  meta: EnabledMeta,
  query: Float64Array,
  options: NeighbourOptions,
): Promise<Neighbour[]> {
  const [first, end] = options.range;
  const count = options.count ?? SEMANTIC.candidates;
  const floor = options.minSimilarity ?? SEMANTIC.minSimilarity;
  if (meta.clusters === 0 || count === 0) return [];
  const clusters = await nearestClusters(parts, query, options.probes ?? SEMANTIC.probes);
  const found: Neighbour[] = [];
  for (const cluster of await Promise.all(clusters.map((index) => parts.cluster(index)))) {
    const { header, scales, codes } = cluster;
    header.documents.forEach((document, i) => {
      if (document < first || document >= end) return;
      const value = similarity(query, codes, scales[i]!, i);
      if (value >= floor) found.push({ document, similarity: value });
    });
  }
  return found.sort(byNearness).slice(0, count);
}
