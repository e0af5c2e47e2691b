/**
 * The projection's axes (projection.ts) kept between builds. They are found from the model's own words'
 * vectors, which depend on the model only, so a build after an edit finds them here instead of spending
 * seconds on a covariance and its subspace iteration. Keyed by the digest of those vectors, the writer's
 * knobs and the form of the arithmetic (`PROJECTION_FORM`): other vectors, knobs or arithmetic find nothing
 * and compute the axes again, and their save removes the other axes files (the model's words' vectors change
 * only with the model or the way it is run, and the old axes would never be read again). A file that does
 * not read back whole is ignored; a write goes to a partial file first (whole-file.ts). Build side: Node only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECTION_FORM, projectionFor, type Projection } from '../../../semantic/projection.ts';
import { SEMANTIC, writerKnobs } from '../../../semantic/semantic-ranking.ts';
import { dequantize, type QuantizedVector } from '../../../semantic/vector-part.ts';
import { isLeftPartial, writeWhole } from '../../whole-file.ts';

const remembered = new Map<string, Projection | null>();

function keyOf(vectors: readonly QuantizedVector[]): string {
  const hash = createHash('sha256').update(PROJECTION_FORM).update(writerKnobs());
  for (const { codes, scale } of vectors) hash.update(new Uint8Array(codes.buffer, codes.byteOffset, codes.length)).update(String(scale));
  return hash.digest('hex').slice(0, 32);
}

function readAxes(file: string, size: number, dimensions: number): Projection | null {
  try {
    const bytes = readFileSync(file);
    if (bytes.byteLength !== 8 * size * dimensions) return null;
    const axes = new Float64Array(size * dimensions);
    new Uint8Array(axes.buffer).set(bytes);
    return { size, dimensions, axes };
  } catch {
    return null;
  }
}

/** The axes of `training` (the model's words' vectors), from memory, from `dir`, or found and saved there. */
export function cachedProjection(training: readonly QuantizedVector[], dir: string | null): Projection | null {
  const key = keyOf(training);
  if (remembered.has(key)) return remembered.get(key)!;
  const file = dir === null ? null : path.join(dir, `projection-${key}.axes`);
  const size = training[0]?.codes.length ?? 0;
  let projection = file ? readAxes(file, size, Math.min(size, SEMANTIC.projectedDimensions)) : null;
  if (!projection) {
    projection = projectionFor(training.map(({ codes, scale }) => dequantize(codes, scale)));
    if (projection && file) saveAxes(file, projection);
  }
  remembered.set(key, projection);
  return projection;
}

function saveAxes(file: string, { axes }: Projection) {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeWhole(file, new Uint8Array(axes.buffer, axes.byteOffset, axes.byteLength));
    const dir = path.dirname(file);
    for (const name of readdirSync(dir))
      if ((/^projection-[0-9a-f]+\.axes$/.test(name) && name !== path.basename(file)) || isLeftPartial(name))
        rmSync(path.join(dir, name), { force: true });
  } catch {
    // A read-only cache folder: the next build finds the axes again.
  }
}
