/**
 * A text's vector does not depend on what the vector cache held: the model pads a batch to its longest text,
 * and padding moved the last bits of three-token words' vectors, so a build whose cache held the longer texts
 * already (which then embedded the words without them) wrote other bytes than a build with an empty cache.
 */
import { describe, expect, it } from 'vitest';
import { DIMENSIONS, loadSentenceModel, modelIdentity } from '../../generator/pipeline/outputs/semantic/sentence-model.ts';
import { openVectorCache } from '../../generator/pipeline/outputs/semantic/vector-cache.ts';
import { makeVectors } from '../../generator/pipeline/outputs/semantic/vector-maker.ts';

/** Words of three tokens each, whose vectors came out otherwise beside a longer text than alone. */
const WORDS = ['a2a', 'oauth', 'hipaa', 'coupon'];
const LONGER = 'Agents that shop for people need product data they can read, kept fresh as the catalogue changes.';

describe('the vectors the build makes', () => {
  it('are the same whether the cache held the longer texts of their batch or nothing', async () => {
    const texts = [LONGER, ...WORDS];
    const fresh = () => openVectorCache(modelIdentity(), DIMENSIONS, null);
    const cold = await makeVectors(texts, fresh(), { threads: 1 });
    const warmCache = fresh();
    warmCache.set(LONGER, cold[0]!);
    const warm = await makeVectors(texts, warmCache, { threads: 1 });
    expect(warm).toEqual(cold);
  }, 60_000);

  it('are each text alone in whatever batch it is embedded', async () => {
    const model = await loadSentenceModel();
    const together = await model.embed([LONGER, ...WORDS, 'checkout']);
    for (const [i, text] of [LONGER, ...WORDS, 'checkout'].entries()) expect(together[i]).toEqual((await model.embed([text]))[0]);
  }, 60_000);
});
