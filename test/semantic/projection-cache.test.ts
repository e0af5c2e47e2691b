/**
 * The projection's axes kept between builds: saved under the digest of the vectors they were found from,
 * read back as the same axes, and found again for other vectors, whose save removes the axes no build reads and
 * what a killed build left half-written.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedProjection } from '../../generator/pipeline/outputs/semantic/projection-cache.ts';
import { principalAxes } from '../../generator/semantic/projection.ts';
import { SEMANTIC } from '../../generator/semantic/semantic-ranking.ts';
import { dequantize, quantize } from '../../generator/semantic/vector-part.ts';
import { createRandom } from '../helpers/synthetic-content.ts';
import { scratchDir } from '../helpers/scratch.ts';

const dir = scratchDir('projection-cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function training(seed: number) {
  const random = createRandom(seed);
  return Array.from({ length: 160 }, () => quantize(Float64Array.from({ length: 160 }, () => random() - 0.5)));
}

describe('the projection cache', () => {
  it('saves the axes under the digest of their vectors, the axes the projection finds, and other vectors get their own in their place', () => {
    const vectors = training(1);
    const first = cachedProjection(vectors, dir)!;
    const expected = principalAxes(
      vectors.map(({ codes, scale }) => dequantize(codes, scale)),
      SEMANTIC.projectedDimensions,
      SEMANTIC.projectionSample,
      SEMANTIC.projectionRounds,
    );
    expect([...first.axes]).toEqual([...expected.axes]);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^projection-[0-9a-f]{32}\.axes$/);
    expect(new Float64Array(new Uint8Array(readFileSync(path.join(dir, file!))).buffer)).toEqual(first.axes);
    expect(cachedProjection(vectors, dir)).toBe(first);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(path.join(dir, `${file}.partial-${dead}-0-1`), 'half');
    cachedProjection(training(2), dir);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe(file);
  });
});
