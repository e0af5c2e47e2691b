/**
 * A cold build's files written by a thread of their own (file-writer-thread.ts), while the build's thread
 * makes the next ones. Creating a file is the kernel's work (an `open` that makes an inode, a folder's
 * `mkdir`): a cold build at 4,000 articles spent more of its build thread's time there than in making the
 * files, with the second core idle much of it. Used only where nothing is linked from a previous output
 * (a cold build, `--force`), so the writer alone makes every folder and file of the staging folder.
 *
 * Each file's bytes go through a ring of memory both threads share: the build's thread encodes a text (or
 * copies bytes) into it and posts only where they lie, and the writer hashes and writes them from there.
 * Posted as text, each page was copied into a message, out of it into a string of the writer's, and encoded
 * there into a buffer of its own. The build's thread never turns to its event loop while it makes files, so
 * it cannot hear the writer: the writer counts what it has written in the shared memory, and the build's
 * thread waits on that count before it reuses a stretch of the ring the writer has not written yet.
 */
import type { OutputFile } from '../outputs/output-file.ts';
import { startTypeScriptWorker } from '../typescript-worker.ts';
import type { FileRecord } from './previous-output.ts';

/** The ring's size: at most this many bytes are encoded and not yet written, the memory the queue holds. */
const RING_BYTES = 16 * 1024 * 1024;
/** A body that may take more than this is posted as it is (a text or its bytes), outside the ring. */
const LARGEST_IN_RING = RING_BYTES / 4;
/** Files per message: one message per file cost more than the write it asks for. */
const BATCH_FILES = 64;
/** A writer that writes nothing for this long is taken as stopped: the ring is no longer used. */
const STALL_MS = 120_000;

/**
 * One file to write: its target path, then its bytes in the ring (`at`, `length`, and `end`, the ring's
 * count of bytes once this file's are taken), or its body posted as it is, or the file to copy.
 */
export type WriteJob =
  | [target: string, at: number, length: number, end: number]
  | [target: string, body: string | Uint8Array]
  | [target: string, copyFrom: null, from: string];

/** What the writer thread answers once it has written everything, or the first error. */
export type WriterAnswer = { digests: string[]; sizes: number[]; times: number[]; inodes: number[] } | { error: string };

/** Shared counters: [the ring's bytes written (`end` of the last file written, in KiB), failed (0 or 1)]. */
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

/** Waits until the writer has written enough of the ring for `bytes` more past `produced`; false if it failed or stalled. */
function waitForRoom(shared: Int32Array, produced: number, bytes: number): boolean {
  let seen = Atomics.load(shared, WRITTEN_KIB);
  let since = Date.now();
  while (produced + bytes - seen * 1024 > RING_BYTES) {
    if (Atomics.load(shared, FAILED) !== 0) return false;
    Atomics.wait(shared, WRITTEN_KIB, seen, 100);
    const now = Atomics.load(shared, WRITTEN_KIB);
    if (now !== seen) since = Date.now();
    else if (Date.now() - since > STALL_MS) return false;
    seen = now;
  }
  return true;
}

/**
 * The build thread's end of the ring: `place` puts a file's bytes in it and says where, or undefined when
 * the body goes outside it (too large, or the writer failed or stalled). `post` posts the batch not yet
 * posted, which may hold what the writer must write before the ring has room.
 */
function ringOf(shared: Int32Array, post: () => void) {
  const ring = Buffer.from(new SharedArrayBuffer(RING_BYTES));
  /** Bytes put in the ring so far, the stretches skipped at its end included: `produced % RING_BYTES` is where the next go. */
  let produced = 0;
  let stalled = false;
  const place = (target: string, body: string | Uint8Array): WriteJob | undefined => {
    // UTF-8 takes at most three bytes for each UTF-16 unit: the room a text is given.
    const most = typeof body === 'string' ? body.length * 3 : body.byteLength;
    if (stalled || most > LARGEST_IN_RING) return undefined;
    const skipped = (produced % RING_BYTES) + most > RING_BYTES ? RING_BYTES - (produced % RING_BYTES) : 0;
    if (produced + skipped + most - Atomics.load(shared, WRITTEN_KIB) * 1024 > RING_BYTES) {
      post();
      stalled = !waitForRoom(shared, produced, skipped + most);
      if (stalled) return undefined;
    }
    produced += skipped;
    const at = produced % RING_BYTES;
    let length = body.length;
    if (typeof body === 'string') length = ring.write(body, at);
    else ring.set(body, at);
    produced += length;
    return [target, at, length, produced];
  };
  return { memory: ring.buffer, place };
}

export function startFileWriter(): FileWriter {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  let batch: WriteJob[] = [];
  const ring = ringOf(shared, () => post());
  const worker = startTypeScriptWorker(new URL('./file-writer-thread.ts', import.meta.url), { shared, ring: ring.memory });
  const answer = new Promise<WriterAnswer>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve({ error: error.message }));
    worker.once('exit', () => resolve({ error: 'the file writer thread ended early' }));
  });
  const post = () => {
    if (batch.length === 0) return;
    worker.postMessage(batch);
    batch = [];
  };
  return {
    write(target, file) {
      if ('copyFrom' in file) batch.push([target, null, file.copyFrom]);
      else {
        const body = 'body' in file ? file.body : file.make();
        // Placed before `batch` is read: placing it may post the batch and start a new one.
        const job = ring.place(target, body) ?? [target, body];
        batch.push(job);
      }
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
