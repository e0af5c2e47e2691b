/**
 * Texts to quantized vectors: the cached ones from the cache, the others embedded by the sentence model in
 * worker threads (one per core, two on the build machine), in batches taken as each thread frees up. A text's
 * vector does not depend on its batch or thread (the model embeds no padding: sentence-model.ts), so the output
 * is the same however the work is split and whatever the cache held.
 * Build side: Node only.
 */
import { availableParallelism } from 'node:os';
import { quantize, type QuantizedVector } from '../../../semantic/vector-part.ts';
import { askThread } from '../../thread-requests.ts';
import { startTypeScriptWorker } from '../../typescript-worker.ts';
import type { VectorCache } from './vector-cache.ts';
import { MODEL_PACKAGE } from './sentence-model.ts';

const BATCH = 32;

/** Embeds `texts` in one thread, a batch at a time as `next()` gives them, until it gives none. */
async function runThread(
  modelPackage: string,
  next: () => { id: number; texts: string[] } | undefined,
  done: (id: number, vectors: Float32Array[]) => void,
) {
  const worker = startTypeScriptWorker(new URL('./embed-thread.ts', import.meta.url), { modelPackage });
  const thread = askThread<{ texts: string[] }>(worker, 'the embedding thread');
  try {
    for (let batch = next(); batch; batch = next()) done(batch.id, await thread.ask({ texts: batch.texts }));
  } finally {
    await worker.terminate();
  }
}

/** Each text's vector, in order; embeds those the cache lacks and adds them to it. */
export async function makeVectors(
  texts: readonly string[],
  cache: VectorCache,
  { threads = availableParallelism(), modelPackage = MODEL_PACKAGE } = {},
): Promise<QuantizedVector[]> {
  // Shortest first: the thread splits a batch by token count (sentence-model.ts), and texts of one length in
  // characters mostly have one in tokens, so the batches stay whole. The order changes no vector.
  const missing = [...new Set(texts.filter((text) => !cache.get(text)))].sort((a, b) => a.length - b.length);
  const batches: string[][] = [];
  for (let i = 0; i < missing.length; i += BATCH) batches.push(missing.slice(i, i + BATCH));
  let taken = 0;
  const next = () => (taken < batches.length ? { id: taken, texts: batches[taken++]! } : undefined);
  const done = (id: number, vectors: Float32Array[]) => {
    for (const [i, vector] of vectors.entries()) cache.set(batches[id]![i]!, quantize(vector));
  };
  const count = Math.max(1, Math.min(threads, 2, batches.length));
  if (batches.length > 0) await Promise.all(Array.from({ length: count }, () => runThread(modelPackage, next, done)));
  return texts.map((text) => cache.get(text)!);
}
