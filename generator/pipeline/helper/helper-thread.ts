/**
 * The build's second thread (build-helper.ts): renders the Markdown bodies it is sent and builds the search
 * index, with the same functions the build runs in its own thread, so the bytes are the same either way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchDocument } from '../../search/index-format.ts';
import { writeSearchIndex } from '../../search/index-writer.ts';
import type { SynonymTable } from '../../search/synonyms.ts';
import { renderMarkdown } from '../outputs/render-markdown.ts';
import { checkSearchBudget, toSearchText } from '../outputs/search/search-file.ts';
import { writeIndexKeeping } from '../outputs/search/stored-search.ts';
import type { HelperAnswer, HelperTask, KeepFor } from './build-helper.ts';

/** Each body's HTML, or null where rendering failed: the build renders that one again to report it with its file. */
function render(bodies: string[]): (string | null)[] {
  return bodies.map((body) => {
    try {
      return renderMarkdown(body);
    } catch {
      return null;
    }
  });
}

/** The ArrayBuffer of `bytes` when they are all of it (transferred, not copied); none for a view of a larger one. */
const whole = (bytes: ArrayBufferView): ArrayBuffer[] =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];

/**
 * The index's parts from documents whose bodies are still Markdown, with what a build's store keeps of it
 * when asked (`keep`); their bytes are transferred, not copied.
 */
function searchIndex(
  documents: SearchDocument[],
  budgetMb: number,
  synonyms: SynonymTable | null,
  keep: KeepFor | undefined,
): { result: unknown; transfer: ArrayBuffer[] } {
  // The documents are this thread's own copies: each body's Markdown is let go as its search text is made.
  for (const document of documents) document.body = toSearchText(document.body);
  const written = keep
    ? writeIndexKeeping(documents, keep.keys, synonyms, keep)
    : { files: writeSearchIndex(documents, undefined, synonyms) };
  checkSearchBudget(written.files, budgetMb);
  const transfer = written.files.flatMap(({ body }) => (typeof body === 'string' ? [] : whole(body)));
  if (!('kept' in written)) return { result: written.files, transfer };
  const { kept } = written;
  transfer.push(...whole(kept.numbers), ...whole(kept.lengths));
  return { result: written, transfer };
}

parentPort!.on('message', (task: HelperTask) => {
  try {
    if (task.kind === 'render') {
      parentPort!.postMessage({ id: task.id, result: render(task.bodies) } satisfies HelperAnswer);
    } else {
      const { result, transfer } = searchIndex(task.documents, task.budgetMb, task.synonyms, task.keep);
      parentPort!.postMessage({ id: task.id, result } satisfies HelperAnswer, transfer);
    }
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) } satisfies HelperAnswer);
  }
  // Answered, the thread ends: an answer posted is delivered before the thread's end (build-helper.ts startBuildHelper).
  if (task.kind === 'search' && workerData.endAfterSearch) process.exit(0);
});
