/**
 * The vector index's parts from the documents' quantized vectors: spherical k-means (deterministic seeds,
 * a fixed number of rounds, sums in document order) groups the documents into clusters of about
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

/** Each document's cluster after `rounds` of spherical k-means, and the centroids. */
export function clusterVectors(vectors: readonly Float64Array[], clusters: number, rounds = SEMANTIC.kmeansRounds) {
  const dimensions = vectors[0]?.length ?? 0;
  // Seeds spread evenly over the documents: no randomness, so the same documents give the same clusters.
  let centroids = Array.from({ length: clusters }, (_, c) => vectors[Math.floor((c * vectors.length) / clusters)]!);
  let assignment = vectors.map((vector) => nearest(centroids, vector));
  for (let round = 0; round < rounds; round++) {
    const sums = Array.from({ length: clusters }, () => new Float64Array(dimensions));
    vectors.forEach((vector, d) => {
      const sum = sums[assignment[d]!]!;
      for (let i = 0; i < dimensions; i++) sum[i]! += vector[i]!;
    });
    // An emptied cluster keeps its centroid.
    centroids = sums.map((sum, c) => (sum.some((value) => value !== 0) ? normalize(sum) : centroids[c]!));
    assignment = vectors.map((vector) => nearest(centroids, vector));
  }
  return { assignment, centroids };
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
