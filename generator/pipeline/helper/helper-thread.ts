/**
 * The build's second thread (build-helper.ts): renders the Markdown bodies it is sent and builds the search
 * index, with the same functions the build runs in its own thread, so the bytes are the same either way; on a
 * cold build, it also hashes the content files its load did not read, for the build's record.
 */
import { workerData } from 'node:worker_threads';
import type { SearchDocument } from '../../search/index-format.ts';
import { type SearchIndexFile, startIndexWrite } from '../../search/index-writer.ts';
import { renderMarkdown } from '../outputs/render-markdown.ts';
import { checkSearchBudget } from '../outputs/search/search-file.ts';
import { toSearchText } from '../outputs/search-documents.ts';
import type { KeptWhole } from '../outputs/search/search-store.ts';
import { startIndexKeeping } from '../outputs/search/stored-search.ts';
import { filesReadAhead, type ReadAhead, readAhead, termUpdate } from '../outputs/search/term-update.ts';
import { type Answered, answerRequests } from '../thread-requests.ts';
import { digestFile } from '../content-digests.ts';
import type { HelperTask, HelperTold } from './build-helper.ts';

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

/** The index being written from the slices told so far, or why a slice failed (the answer to the index's task). */
interface Writing {
  add(document: SearchDocument, key: string | undefined): void;
  finish(): { files: SearchIndexFile[]; kept?: KeptWhole };
  failed?: Error;
}
let writing: Writing | undefined;
/** Slices taken, counted where the build's thread reads it to post more (paced-posting.ts). */
const slicesTaken = workerData.slicesTaken ? new Int32Array(workerData.slicesTaken as SharedArrayBuffer) : undefined;

function startSearch(task: Extract<HelperTold, { kind: 'search-start' }>): Writing {
  if (task.keep) {
    const keeping = startIndexKeeping(task.synonyms, task.keep);
    return { add: (document, key) => keeping.add(document, key!), finish: () => keeping.finish() };
  }
  const write = startIndexWrite(undefined, task.synonyms);
  return {
    add: (document) => write.add(document),
    finish: () => ({ files: [...write.finish().files].map(([path, body]) => ({ path, body })) }),
  };
}

/** A slice's documents, bodies still Markdown: each body becomes search text and is let go once analysed. */
function addSlice({ documents, keys }: Extract<HelperTold, { kind: 'search-slice' }>): void {
  if (!writing || writing.failed) return;
  try {
    for (const [index, document] of documents.entries()) {
      document.body = toSearchText(document.body);
      writing.add(document, keys?.[index]);
      document.body = '';
    }
  } catch (error) {
    writing.failed = error instanceof Error ? error : new Error(String(error));
  }
}

/** The index's parts, with what a build's store keeps of it when asked; their bytes are transferred, not copied. */
function finishSearch(budgetMb: number): { result: unknown; transfer: ArrayBuffer[] } {
  const done = writing;
  writing = undefined;
  if (!done) throw new Error('the search index was asked before its documents');
  if (done.failed) throw done.failed;
  const written = done.finish();
  checkSearchBudget(written.files, budgetMb);
  const transfer = written.files.flatMap(({ body }) => (typeof body === 'string' ? [] : whole(body)));
  if (!written.kept) return { result: written.files, transfer };
  transfer.push(...whole(written.kept.numbers), ...whole(written.kept.lengths));
  return { result: written, transfer };
}

/** The index's parts read ahead of an update by term (search-parts), taken by the next one. */
let ahead: ReadAhead | undefined;

/** What each task is answered with. */
function answer(task: HelperTask): Answered {
  if (task.kind === 'render') return { result: render(task.bodies) };
  if (task.kind === 'digests') return { result: task.files.map(digestFile) };
  if (task.kind === 'term-update') {
    const files = filesReadAhead(task.task, ahead);
    ahead = undefined;
    const update = termUpdate(task.task, files);
    return { result: update ?? null, transfer: update?.written.flatMap(({ body }) => (typeof body === 'string' ? [] : whole(body))) ?? [] };
  }
  return finishSearch(task.budgetMb);
}

answerRequests<HelperTask, HelperTold>(
  answer,
  // Answered, the thread ends: an answer posted is delivered before the thread's end (build-helper.ts startBuildHelper).
  (task) => {
    if (task.kind === 'search' && workerData.endAfterSearch) process.exit(0);
  },
  (told) => {
    if (told.kind === 'search-start') {
      // The index is written whole: the parts read ahead for an update by term (41 MB at 100,000 documents) are not
      // asked for, and would sit beside the whole write's own heap.
      ahead = undefined;
      writing = startSearch(told);
    } else if (told.kind === 'search-parts') ahead = readAhead(told.outDir);
    else {
      addSlice(told);
      if (slicesTaken) Atomics.add(slicesTaken, 0, 1);
    }
  },
);
