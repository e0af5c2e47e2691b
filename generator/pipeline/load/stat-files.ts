/**
 * The stats of many files, taken by this thread and a second one at once: the nothing-changed check stats
 * every content file (100,000 at 100,000 articles, about 0.3 s of one thread), and a stat in Node costs its
 * call more than its system call, so the only way to take them sooner is two threads. The files are cut in
 * chunks: this thread takes them from the first on, in order, the second from the last back, each chunk
 * claimed by one of them in a shared array; where this thread reaches a chunk the other claimed, it waits for
 * it. The second thread is plain JavaScript with no module of the build's to load, so it starts within a
 * few hundredths of a second; a short list is not worth its start, and is statted here alone.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type FileStats, keptStats, statsOf } from './file-stats.ts';

/** Files per chunk claimed at once. */
const CHUNK = 512;
/** Below this many files, the second thread's start costs about what it would save. */
export const MIN_PARALLEL_FILES = 8192;
/** Numbers kept per file: dev, ino, size, mtimeMs, ctimeMs and mode (-1: not statted there, this thread stats it). */
const FIELDS = 6;
/** A chunk's state: unclaimed, this thread's, the other's being statted, the other's done. */
const FREE = 0;
const MINE = 1;
const THEIRS = 2;
const DONE = 3;
/** How long to wait for a chunk of the other thread before statting it here instead (it should take a millisecond or two). */
const WAIT_MS = 5_000;

/** The second thread: the chunks from the last back, until one is claimed already. Any failure leaves -1 for this thread to redo. */
const SECOND_THREAD = `
const { workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const { joined, state, values, count } = workerData;
const paths = joined.split('\\0');
const claims = new Int32Array(state);
const out = new Float64Array(values);
for (let chunk = claims.length - 1; chunk >= 0; chunk--) {
  if (Atomics.compareExchange(claims, chunk, ${FREE}, ${THEIRS}) !== ${FREE}) break;
  try {
    for (let file = chunk * ${CHUNK}; file < Math.min(count, (chunk + 1) * ${CHUNK}); file++) {
      const at = file * ${FIELDS};
      out[at + 5] = -1;
      const stats = statSync(paths[file], { throwIfNoEntry: false });
      if (!stats) continue;
      out[at] = stats.dev;
      out[at + 1] = stats.ino;
      out[at + 2] = stats.size;
      out[at + 3] = stats.mtimeMs;
      out[at + 4] = stats.ctimeMs;
      out[at + 5] = stats.mode;
    }
  } catch {
    // The files not statted keep -1: this thread stats them, and says what failed.
  } finally {
    Atomics.store(claims, chunk, ${DONE});
    Atomics.notify(claims, chunk);
  }
}
`;

/** The stats of `paths`, in their order, as statSync gives them (a missing file throws, as it would). */
export function statFiles(paths: readonly string[]): FileStats[] {
  if (paths.length < MIN_PARALLEL_FILES) return paths.map((file) => keptStats(statSync(file)));
  const chunks = Math.ceil(paths.length / CHUNK);
  const claims = new Int32Array(new SharedArrayBuffer(chunks * 4));
  const values = new Float64Array(new SharedArrayBuffer(paths.length * FIELDS * 8));
  const worker = new Worker(SECOND_THREAD, {
    eval: true,
    // One string, not an array of 100,000 to copy: a path holds no NUL.
    // One string, not an array of 100,000 to copy: no path holds a NUL.
    workerData: { joined: paths.join('\0'), state: claims.buffer, values: values.buffer, count: paths.length },
  });
  // It ends by itself once it meets this thread's chunks; nothing waits for its exit.
  worker.unref();
  worker.on('error', () => {});
  const stats: FileStats[] = new Array(paths.length);
  for (let chunk = 0; chunk < chunks; chunk++) {
    const end = Math.min(paths.length, (chunk + 1) * CHUNK);
    const theirs =
      Atomics.compareExchange(claims, chunk, FREE, MINE) !== FREE && Atomics.wait(claims, chunk, THEIRS, WAIT_MS) !== 'timed-out';
    for (let file = chunk * CHUNK; file < end; file++) {
      const at = file * FIELDS;
      const mode = values[at + 5]!;
      stats[file] =
        theirs && Atomics.load(claims, chunk) === DONE && mode !== -1
          ? statsOf(values[at]!, values[at + 1]!, values[at + 2]!, values[at + 3]!, values[at + 4]!, mode)
          : keptStats(statSync(paths[file]!));
    }
  }
  return stats;
}
