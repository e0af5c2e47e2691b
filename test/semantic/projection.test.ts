/**
 * The projection to fewer dimensions: orthonormal axes that find the directions the vectors vary along,
 * the same axes every time, and similarities kept where the vectors live in those directions.
 */
import { describe, expect, it } from 'vitest';
import { principalAxes, project } from '../../generator/semantic/projection.ts';
import { normalize } from '../../generator/semantic/vector-part.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const SIZE = 24;

/** Vectors that vary mostly along `directions` (random unit vectors), with a little noise in every dimension. */
function vectorsAlong(count: number, directions: number, seed: number) {
  const random = createRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const axes = Array.from({ length: directions }, () => normalize(Float64Array.from({ length: SIZE }, gaussian)));
  const vectors = Array.from({ length: count }, () => {
    const vector = Float64Array.from({ length: SIZE }, () => 0.02 * gaussian());
    for (const axis of axes) {
      const weight = gaussian();
      for (let i = 0; i < SIZE; i++) vector[i]! += weight * axis[i]!;
    }
    return vector;
  });
  return { axes, vectors };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('the projection', () => {
  const { axes, vectors } = vectorsAlong(400, 4, 3);
  const projection = principalAxes(vectors, 4, 1000, 30);
  const found = Array.from({ length: 4 }, (_, k) => projection.axes.subarray(k * SIZE, (k + 1) * SIZE));

  it('finds orthonormal axes spanning the directions the vectors vary along', () => {
    for (let k = 0; k < 4; k++) for (let j = 0; j < 4; j++) expect(dot(found[k]!, found[j]!)).toBeCloseTo(k === j ? 1 : 0, 9);
    // Each true direction lies (almost) wholly in the span of the axes found.
    for (const axis of axes) expect(Math.sqrt(found.reduce((sum, one) => sum + dot(axis, one) ** 2, 0))).toBeGreaterThan(0.999);
  });

  it('keeps the similarities of vectors that live in those directions, and gives the same axes again', () => {
    const [a, b] = [vectors[0]!, vectors[1]!];
    const cosine = (x: ArrayLike<number>, y: ArrayLike<number>) => dot(normalize(x), normalize(y));
    expect(cosine(project(projection, a), project(projection, b))).toBeCloseTo(cosine(a, b), 2);
    expect([...principalAxes(vectors, 4, 1000, 30).axes]).toEqual([...projection.axes]);
    // A sample of the vectors (every other one) finds the same directions.
    const sampled = principalAxes(vectors, 4, 200, 30);
    for (const axis of axes) {
      const share = Array.from({ length: 4 }, (_, k) => dot(axis, sampled.axes.subarray(k * SIZE, (k + 1) * SIZE)) ** 2);
      expect(Math.sqrt(share.reduce((sum, value) => sum + value, 0))).toBeGreaterThan(0.99);
    }
  });
});
