/**
 * The search index in a worker thread (search-file.ts `buildSearchIndexInWorker`): writes the parts of the
 * documents it is given, checks the budget, and sends the files back, their bytes transferred, not copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchDocument } from '../../../search/index-format.ts';
import { writeSearchIndex } from '../../../search/index-writer.ts';
import { checkSearchBudget } from './search-file.ts';

const { documents, budgetMb } = workerData as { documents: SearchDocument[]; budgetMb: number };
try {
  const files = writeSearchIndex(documents);
  checkSearchBudget(files, budgetMb);
  const transfer = files.flatMap(({ body }) => (typeof body === 'string' ? [] : [body.buffer as ArrayBuffer]));
  parentPort!.postMessage({ files }, transfer);
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
