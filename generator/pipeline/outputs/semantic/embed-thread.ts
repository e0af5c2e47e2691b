/**
 * A worker thread that embeds texts with the sentence model (vector-maker.ts starts one per core). Loads the
 * model once, answers `{ id, texts }` with `{ id, vectors }` or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadSentenceModel } from './sentence-model.ts';

const model = loadSentenceModel(workerData.modelPackage);
// A load failure is answered per request below; it must not end the thread first.
model.catch(() => {});

parentPort!.on('message', async ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    const vectors = await (await model).embed(texts);
    parentPort!.postMessage(
      { id, vectors },
      vectors.map((vector) => vector.buffer as ArrayBuffer),
    );
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
