/**
 * The build's second thread (build-helper.ts): renders the Markdown bodies it is sent and builds the search
 * index, with the same functions the build runs in its own thread, so the bytes are the same either way.
 */
import { parentPort } from 'node:worker_threads';
import type { SearchDocument } from '../../../search/index-format.ts';
import { writeSearchIndex } from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import { renderMarkdown } from '../render-markdown.ts';
import { checkSearchBudget, toSearchText } from '../search/search-file.ts';
import type { HelperAnswer, HelperTask } from './build-helper.ts';

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

/** The index's parts from documents whose bodies are still Markdown; their bytes are transferred, not copied. */
function searchIndex(
  documents: SearchDocument[],
  budgetMb: number,
  synonyms: SynonymTable | null,
): { files: unknown; transfer: ArrayBuffer[] } {
  const files = writeSearchIndex(
    documents.map((document) => ({ ...document, body: toSearchText(document.body) })),
    undefined,
    synonyms,
  );
  checkSearchBudget(files, budgetMb);
  return { files, transfer: files.flatMap(({ body }) => (typeof body === 'string' ? [] : [body.buffer as ArrayBuffer])) };
}

parentPort!.on('message', (task: HelperTask) => {
  try {
    if (task.kind === 'render') {
      parentPort!.postMessage({ id: task.id, result: render(task.bodies) } satisfies HelperAnswer);
    } else {
      const { files, transfer } = searchIndex(task.documents, task.budgetMb, task.synonyms);
      parentPort!.postMessage({ id: task.id, result: files } satisfies HelperAnswer, transfer);
    }
  } catch (error) {
    parentPort!.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) } satisfies HelperAnswer);
  }
});
