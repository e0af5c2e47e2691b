/**
 * The sentence model loads only once its runtime has started. The runtime starts when its package is
 * imported, and the library's own loader reads the model beside it; a model read first (a loaded machine)
 * found no runtime: "Backend 'wasm' has not yet been initialized", a failed build. Here the runtime is reset
 * to not started, and the model's source makes a tensor the moment it is called: that order, every time.
 */
import { fileURLToPath } from 'node:url';
import * as core from '@energetic-ai/core';
import { describe, expect, it } from 'vitest';
import { DIMENSIONS, loadSentenceModel } from '../../generator/pipeline/outputs/semantic/sentence-model.ts';

/** What is used of the model's runtime (its own types name a package it does not install). */
const runtime = core as unknown as { ready(): Promise<void>; engine(): { reset(): void } };
const eagerSource = fileURLToPath(new URL('../helpers/eager-model-source.mjs', import.meta.url));

describe('loadSentenceModel', () => {
  it('waits for the runtime before the model is read', async () => {
    await runtime.ready();
    runtime.engine().reset();
    const model = await loadSentenceModel(eagerSource);
    const [vector] = await model.embed(['agentic commerce']);
    expect(vector).toHaveLength(DIMENSIONS);
    expect(vector!.some((value) => value !== 0)).toBe(true);
  });
});
