/**
 * The vector index's parts from the documents' quantized vectors: spherical k-means (deterministic seeds,
 * a fixed number of rounds on an even sample, sums in document order) groups the documents into clusters of about
 * SEMANTIC.clusterSize; each cluster is one part, the centroids another. Runtime-neutral, pure.
 */
import { CENTROIDS_PATH, clusterPath } from './semantic-format.ts';
import { SEMANTIC } from './semantic-ranking.ts';
import { dequantize, encodeVectorPart, normalize, type QuantizedVector, quantize } from './vector-part.ts';

export interface VectorFile {
  path: string;
  body: Uint8Array;
}

/** Index of the centroid nearest `vector` (ties: the lower index). */
function nearest(centroids: readonly Float64Array[], vector: Float64Array): number {
  let best = 0;
  let bestValue = Number.NEGATIVE_INFINITY;
  centroids.forEach((centroid, c) => {
    let sum = 0;
    for (let i = 0; i < vector.length; i++) sum += centroid[i]! * vector[i]!;
    if (sum > bestValue) {
      bestValue = sum;
      best = c;
    }
  });
  return best;
}

/** Every `step`-th vector, so that at most `size` remain (all of them when there are fewer). */
function evenSample(vectors: readonly Float64Array[], size: number): readonly Float64Array[] {
  if (vectors.length <= size) return vectors;
  return Array.from({ length: size }, (_, i) => vectors[Math.floor((i * vectors.length) / size)]!);
}

/**
 * Each document's cluster and the centroids: spherical k-means trained for `rounds` on an even sample of
 * SEMANTIC.kmeansSample documents per cluster, then one pass that gives every document its nearest centroid.
 * Training on a sample keeps the cost at documents x clusters once, not once per round (at 100,000 documents
 * the rounds would cost minutes); a cluster keeps its centroid's documents, so the search stays exact within it.
 */
export function clusterVectors(vectors: readonly Float64Array[], clusters: number, rounds = SEMANTIC.kmeansRounds) {
  const dimensions = vectors[0]?.length ?? 0;
  const sample = evenSample(vectors, clusters * SEMANTIC.kmeansSample);
  // Seeds spread evenly over the documents: no randomness, so the same documents give the same clusters.
  let centroids = Array.from({ length: clusters }, (_, c) => sample[Math.floor((c * sample.length) / clusters)]!);
  for (let round = 0; round < rounds; round++) {
    const sums = Array.from({ length: clusters }, () => new Float64Array(dimensions));
    for (const vector of sample) {
      const sum = sums[nearest(centroids, vector)]!;
      for (let i = 0; i < dimensions; i++) sum[i]! += vector[i]!;
    }
    // An emptied cluster keeps its centroid.
    centroids = sums.map((sum, c) => (sum.some((value) => value !== 0) ? normalize(sum) : centroids[c]!));
  }
  return { assignment: vectors.map((vector) => nearest(centroids, vector)), centroids };
}

/** The centroids part and one part per cluster, for documents numbered in `vectors`' order. */
export function writeVectorIndex(vectors: readonly QuantizedVector[], dimensions: number): { files: VectorFile[]; clusters: number } {
  if (vectors.length === 0) return { files: [], clusters: 0 };
  const clusters = Math.ceil(vectors.length / SEMANTIC.clusterSize);
  const floats = vectors.map(({ codes, scale }) => dequantize(codes, scale));
  const { assignment, centroids } = clusterVectors(floats, clusters);
  const members = Array.from({ length: clusters }, () => [] as number[]);
  for (const [document, cluster] of assignment.entries()) members[cluster]!.push(document);
  const files: VectorFile[] = [{ path: CENTROIDS_PATH, body: encodeVectorPart({ count: clusters }, centroids.map(quantize), dimensions) }];
  members.forEach((documents, cluster) => {
    const part = encodeVectorPart(
      { documents },
      documents.map((document) => vectors[document]!),
      dimensions,
    );
    files.push({ path: clusterPath(cluster), body: part });
  });
  return { files, clusters };
}
