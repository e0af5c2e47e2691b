/**
 * The vector cache: a vector is found again by its text, and only under the same model, way of running it,
 * quantization and form of record text; a cache of another form is never read, and the next save removes it.
 */
import { readdirSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_WORDS, RECORD_TEXT_FORM } from '../../generator/pipeline/outputs/semantic/record-text.ts';
import { EMBEDDING_FORM } from '../../generator/pipeline/outputs/semantic/sentence-model.ts';
import { cacheForm, openVectorCache } from '../../generator/pipeline/outputs/semantic/vector-cache.ts';
import { QUANTIZATION, quantize } from '../../generator/semantic/vector-part.ts';
import { scratchDir } from '../helpers/scratch.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const vector = quantize([0.5, -0.25, 0.125, 1]);

describe('the vector cache', () => {
  it('is keyed by how the model is run, the quantization and the form of the record text as well as the model', () => {
    expect(cacheForm()).toContain(EMBEDDING_FORM);
    expect(cacheForm()).toContain(QUANTIZATION);
    expect(cacheForm()).toContain(RECORD_TEXT_FORM);
    expect(RECORD_TEXT_FORM).toContain(String(BODY_WORDS));
  });

  it('gives a vector back under the same form only, and a save under a new form removes the old file', () => {
    const dir = scratchDir('vector-cache');
    dirs.push(dir);
    const first = openVectorCache('model-1', 4, dir, 'form-a');
    first.set('a record', vector);
    first.save();
    expect(openVectorCache('model-1', 4, dir, 'form-a').get('a record')).toEqual(vector);
    expect(openVectorCache('model-2', 4, dir, 'form-a').get('a record')).toBeUndefined();
    const other = openVectorCache('model-1', 4, dir, 'form-b');
    expect(other.get('a record')).toBeUndefined();
    other.set('another record', vector);
    other.save();
    expect(readdirSync(dir).sort()).toEqual(['model-1.form-b.bin']);
    expect(openVectorCache('model-1', 4, dir, 'form-a').get('a record')).toBeUndefined();
  });
});
