/**
 * Fewer dimensions for the vector index and the query encoder: the principal axes of the vectors (found by
 * subspace iteration on their covariance, from an even sample), and every vector projected onto them at
 * build time. A query's vector is a mean of the encoder's (projected) term vectors, so the edge never
 * projects anything; it reads a quarter of the bytes and scores a quarter of the products.
 * Runtime-neutral, pure, deterministic: no randomness, sums in a fixed order.
 */
import { SEMANTIC } from './semantic-ranking.ts';

/**
 * The form of `projectionFor`'s arithmetic. Axes kept between builds are keyed by it, so a change to how the
 * axes are found (not only to the knobs or the vectors) never reads axes an older form found: change it
 * whenever the arithmetic changes.
 */
export const PROJECTION_FORM = 'subspace-iteration/1';

export interface Projection {
  /** Input dimensions, and output dimensions (axes). */
  size: number;
  dimensions: number;
  /** The unit axes, most variance first, one after another (`dimensions` x `size`). */
  axes: Float64Array;
}

/** The covariance (about the mean) of an even sample of at most `sampleSize` vectors, as a `size` x `size` matrix. */
function covariance(vectors: readonly ArrayLike<number>[], sampleSize: number): Float64Array {
  const size = vectors[0]?.length ?? 0;
  const count = Math.min(vectors.length, sampleSize);
  const sample = Array.from({ length: count }, (_, i) => vectors[Math.floor((i * vectors.length) / count)]!);
  const mean = new Float64Array(size);
  for (const vector of sample) for (let i = 0; i < size; i++) mean[i]! += vector[i]! / count;
  const matrix = new Float64Array(size * size);
  const centred = new Float64Array(size);
  for (const vector of sample) {
    for (let i = 0; i < size; i++) centred[i] = vector[i]! - mean[i]!;
    for (let i = 0; i < size; i++) {
      const value = centred[i]!;
      const row = i * size;
      for (let j = i; j < size; j++) matrix[row + j]! += value * centred[j]!;
    }
  }
  for (let i = 0; i < size; i++) for (let j = 0; j < i; j++) matrix[i * size + j] = matrix[j * size + i]!;
  return matrix;
}

/** The rows of `basis` (`count` x `size`) made orthonormal in place: modified Gram-Schmidt, in order. */
function orthonormalize(basis: Float64Array, count: number, size: number): void {
  for (let k = 0; k < count; k++) {
    const at = k * size;
    for (let j = 0; j < k; j++) {
      let dot = 0;
      for (let i = 0; i < size; i++) dot += basis[at + i]! * basis[j * size + i]!;
      for (let i = 0; i < size; i++) basis[at + i]! -= dot * basis[j * size + i]!;
    }
    let norm = 0;
    for (let i = 0; i < size; i++) norm += basis[at + i]! * basis[at + i]!;
    norm = Math.sqrt(norm);
    for (let i = 0; i < size; i++) basis[at + i] = norm > 0 ? basis[at + i]! / norm : 0;
  }
}

/** The `dimensions` principal axes of `vectors` (at most `sampleSize` of them, evenly taken), by `rounds` of subspace iteration. */
export function principalAxes(vectors: readonly ArrayLike<number>[], dimensions: number, sampleSize: number, rounds: number): Projection {
  const size = vectors[0]?.length ?? 0;
  const matrix = covariance(vectors, sampleSize);
  // Start from the coordinate axes with the most variance: deterministic, and rarely orthogonal to the answer.
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => matrix[b * size + b]! - matrix[a * size + a]! || a - b);
  let basis = new Float64Array(dimensions * size);
  order.slice(0, dimensions).forEach((axis, k) => {
    basis[k * size + axis] = 1;
  });
  for (let round = 0; round < rounds; round++) {
    const next = new Float64Array(dimensions * size);
    for (let k = 0; k < dimensions; k++) {
      for (let r = 0; r < size; r++) {
        let sum = 0;
        for (let i = 0; i < size; i++) sum += matrix[r * size + i]! * basis[k * size + i]!;
        next[k * size + r] = sum;
      }
    }
    orthonormalize(next, dimensions, size);
    basis = next;
  }
  return { size, dimensions, axes: basis };
}

/** The projection the writer's knobs ask for, from `vectors`; null when it keeps every dimension. */
export function projectionFor(vectors: readonly ArrayLike<number>[]): Projection | null {
  const dimensions = SEMANTIC.projectedDimensions;
  if (dimensions <= 0 || vectors.length === 0 || dimensions >= vectors[0]!.length) return null;
  return principalAxes(vectors, dimensions, SEMANTIC.projectionSample, SEMANTIC.projectionRounds);
}

/** `vector` in the projection's coordinates (not normalized: quantize() does that). */
export function project({ size, dimensions, axes }: Projection, vector: ArrayLike<number>): Float64Array {
  const out = new Float64Array(dimensions);
  for (let k = 0; k < dimensions; k++) {
    let sum = 0;
    for (let i = 0; i < size; i++) sum += axes[k * size + i]! * vector[i]!;
    out[k] = sum;
  }
  return out;
}
