/**
 * A cold build's files written by a thread of their own (file-writer-thread.ts), while the build's thread
 * makes the next ones. Creating a file is the kernel's work (an `open` that makes an inode, a folder's
 * `mkdir`): a cold build at 4,000 articles spent more of its build thread's time there than in making the
 * files, with the second core idle much of it. Used only where nothing is linked from a previous output
 * (a cold build, `--force`), so the writer alone makes every folder and file of the staging folder.
 *
 * The build's thread never turns to its event loop while it makes files, so it cannot hear the writer: the
 * writer counts what it has written in memory both threads share (each body's `postedSize`), and the build's
 * thread waits on that count when more than `AHEAD_BYTES` are posted and not written yet, so at most that much
 * sits in messages.
 */
import type { OutputFile } from '../outputs/output-file.ts';
import { startTypeScriptWorker } from '../typescript-worker.ts';
import type { FileRecord } from './previous-output.ts';

/** Bytes posted and not yet written, at most: the memory the queue can hold. */
const AHEAD_BYTES = 16 * 1024 * 1024;
/** Files per message: one message per file cost more than the write it asks for. */
const BATCH_FILES = 64;
/** A writer that writes nothing for this long is taken as stopped. */
const STALL_MS = 120_000;

/** One file to write: its target path, and its text or bytes or the file to copy. */
export type WriteJob = [target: string, body: string | Uint8Array | null, copyFrom: string | null];

/** What a body counts for against `AHEAD_BYTES`, the same in both threads: a text's length, or its bytes. */
export const postedSize = (body: string | Uint8Array | null) =>
  body === null ? 0 : typeof body === 'string' ? body.length : body.byteLength;

/** What the writer thread answers once it has written everything, or the first error. */
export type WriterAnswer = { digests: string[]; sizes: number[]; times: number[]; inodes: number[] } | { error: string };

/** Shared counters: [bytes written (in KiB), failed (0 or 1)]. */
export const WRITTEN_KIB = 0;
export const FAILED = 1;

export interface FileWriter {
  /** Makes the file and queues it, to be hashed and written by the writer. */
  write(target: string, file: OutputFile): void;
  /** Every queued file written: each one's record (digest, size, time, inode), in the order queued. */
  finish(): Promise<FileRecord[]>;
  /** Ends the writer without waiting for what is queued (a build that failed). */
  stop(): Promise<void>;
}

export function startFileWriter(): FileWriter {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const worker = startTypeScriptWorker(new URL('./file-writer-thread.ts', import.meta.url), { shared });
  const answer = new Promise<WriterAnswer>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve({ error: error.message }));
    worker.once('exit', () => resolve({ error: 'the file writer thread ended early' }));
  });
  let batch: WriteJob[] = [];
  let postedKib = 0;
  let batchBytes = 0;
  const post = () => {
    if (batch.length === 0) return;
    worker.postMessage(batch);
    postedKib += Math.ceil(batchBytes / 1024);
    batch = [];
    batchBytes = 0;
    waitForRoom();
  };
  const waitForRoom = () => {
    let seen = Atomics.load(shared, WRITTEN_KIB);
    let since = Date.now();
    while ((postedKib - seen) * 1024 > AHEAD_BYTES && Atomics.load(shared, FAILED) === 0) {
      Atomics.wait(shared, WRITTEN_KIB, seen, 100);
      const now = Atomics.load(shared, WRITTEN_KIB);
      if (now !== seen) since = Date.now();
      else if (Date.now() - since > STALL_MS) return;
      seen = now;
    }
  };
  return {
    write(target, file) {
      // A page's text goes as it is, encoded by the writer: copying a text into a message costs this thread
      // half of encoding it (the 10,113 files of 4,000 articles: 50 to 60 ms against 110 to 210 ms).
      const body = 'copyFrom' in file ? null : 'body' in file ? file.body : file.make();
      batch.push([target, body, 'copyFrom' in file ? file.copyFrom : null]);
      batchBytes += postedSize(body);
      if (batch.length >= BATCH_FILES) post();
    },
    async finish() {
      post();
      worker.postMessage(null);
      const answered = await answer;
      void worker.terminate();
      if ('error' in answered) throw new Error(`writing the output failed: ${answered.error}`);
      return answered.digests.map((digest, n) => [digest, answered.sizes[n]!, answered.times[n]!, answered.inodes[n]!]);
    },
    async stop() {
      await worker.terminate();
    },
  };
}
