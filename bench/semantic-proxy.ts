/**
 * Distractor vectors for the semantic bench at sizes the model cannot embed in a bench run (it embeds a few
 * records a second a core here: 100,000 would take hours). Each distractor's vector is the sum of the model's
 * own vectors of its record text's words, less their mean (a bag of words in the model's space), written to
 * the vector cache under the text's digest, so the build takes it as a cached vector and does all the rest as
 * it would. Sizes, bytes, times and recall are the index's own; relevance among such distractors is an
 * estimate, printed as such. Also measures the model's own throughput on a sample of the same texts.
 */
import { availableParallelism } from 'node:os';
import { recordText } from '../generator/pipeline/outputs/semantic/record-text.ts';
import { DIMENSIONS, modelIdentity } from '../generator/pipeline/outputs/semantic/sentence-model.ts';
import { openVectorCache } from '../generator/pipeline/outputs/semantic/vector-cache.ts';
import { makeVectors } from '../generator/pipeline/outputs/semantic/vector-maker.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { tokenize } from '../generator/search/text-analysis.ts';
import { dequantize, quantize } from '../generator/semantic/vector-part.ts';
import { compareText } from '../generator/shared/compare-text.ts';

const THROUGHPUT_SAMPLE = 64;

/** Records a second the model embeds on every core, on a sample of `texts` (none of them cached). */
async function modelThroughput(texts: readonly string[]): Promise<number> {
  const sample = texts.slice(0, THROUGHPUT_SAMPLE).map((text) => `${text} (throughput sample)`);
  const started = performance.now();
  await makeVectors(sample, openVectorCache(modelIdentity(), DIMENSIONS, null));
  return sample.length / ((performance.now() - started) / 1000);
}

/** Writes the distractors' proxy vectors into the cache in `cacheDir`; the words are embedded by the model. */
export async function prefillProxyVectors(distractors: readonly SearchDocument[], cacheDir: string) {
  const texts = distractors.map((document) => recordText(document));
  const perSecond = await modelThroughput(texts);
  const cache = openVectorCache(modelIdentity(), DIMENSIONS, cacheDir);
  const tokens = texts.map((text) => tokenize(text).map((token) => token.toLowerCase()));
  const words = [...new Set(tokens.flat())].sort(compareText);
  const started = performance.now();
  const embedded = await makeVectors(words, cache);
  const wordMs = performance.now() - started;
  const vectors = new Map(words.map((word, i) => [word, dequantize(embedded[i]!.codes, embedded[i]!.scale)]));
  const mean = new Float64Array(DIMENSIONS);
  for (const vector of vectors.values()) for (let i = 0; i < DIMENSIONS; i++) mean[i]! += vector[i]! / vectors.size;
  texts.forEach((text, d) => {
    const sum = new Float64Array(DIMENSIONS);
    for (const token of tokens[d]!) {
      const vector = vectors.get(token)!;
      for (let i = 0; i < DIMENSIONS; i++) sum[i]! += vector[i]! - mean[i]!;
    }
    cache.set(text, quantize(sum));
  });
  cache.save();
  return { perSecond, cores: Math.min(2, availableParallelism()), words: words.length, wordMs };
}
