/**
 * A worker thread that embeds texts with the sentence model (vector-maker.ts starts one per core). Loads the
 * model once, answers each batch of texts with their vectors (thread-requests.ts).
 */
import { workerData } from 'node:worker_threads';
import { answerRequests } from '../../thread-requests.ts';
import { loadSentenceModel } from './sentence-model.ts';

const model = loadSentenceModel(workerData.modelPackage);
// A load failure is answered per request below; it must not end the thread first.
model.catch(() => {});

answerRequests(async ({ texts }: { texts: string[] }) => {
  const vectors = await (await model).embed(texts);
  return { result: vectors, transfer: vectors.map((vector) => vector.buffer as ArrayBuffer) };
});
