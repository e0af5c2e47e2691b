/**
 * The thread that writes a cold build's files (file-writer.ts): each message is a batch of files, written in
 * order, each folder made the first time a file needs it; `null` ends the queue, and the answer is every
 * file's size, time and inode as written, or the first error. Once a batch is written, how far into the ring
 * its bytes went is counted in the shared memory the build's thread waits on.
 */
import { hash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { makeDirOnce } from './settle-file.ts';
import { FAILED, type WriteJob, type WriterAnswer, WRITTEN_KIB } from './file-writer.ts';

const { shared, ring: ringMemory } = workerData as { shared: Int32Array; ring: SharedArrayBuffer };
const ring = Buffer.from(ringMemory);
const made = new Set<string>();
const digests: string[] = [];
const sizes: number[] = [];
const times: number[] = [];
const inodes: number[] = [];
let failure: string | undefined;

/**
 * One buffer that a text posted outside the ring (file-writer.ts `LARGEST_IN_RING`) is encoded into, in turn:
 * its bytes are hashed and written before the next text is encoded.
 */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
function encodeText(text: string): Buffer {
  // UTF-8 takes at most three bytes for each UTF-16 unit, so the text always fits.
  if (text.length * 3 > scratch.length) scratch = Buffer.allocUnsafeSlow(text.length * 3);
  return scratch.subarray(0, scratch.write(text));
}

/** The job's bytes: from the ring, its body (a text encoded as the build's thread would), or the file it copies. */
function bytesOf(job: WriteJob): Uint8Array {
  if (job.length === 4) return ring.subarray(job[1], job[1] + job[2]);
  if (job.length === 3) return readFileSync(job[2]);
  return typeof job[1] === 'string' ? encodeText(job[1]) : job[1];
}

function writeBatch(batch: WriteJob[]): void {
  let end = -1;
  for (const job of batch) {
    const target = job[0];
    makeDirOnce(made, path.dirname(target));
    // Hashed here rather than in the build's thread, which makes the next files meanwhile (settle-file.ts
    // hashes and writes a text's UTF-8 the same way where there is no writer).
    const bytes = bytesOf(job);
    digests.push(hash('sha1', bytes, 'base64'));
    if (job.length === 3) copyFileSync(job[2], target);
    else writeFileSync(target, bytes);
    const stats = statSync(target);
    sizes.push(stats.size);
    times.push(stats.mtimeMs);
    inodes.push(stats.ino);
    if (job.length === 4) end = job[3];
  }
  if (end === -1) return;
  Atomics.store(shared, WRITTEN_KIB, Math.floor(end / 1024));
  Atomics.notify(shared, WRITTEN_KIB);
}

parentPort?.on('message', (batch: WriteJob[] | null) => {
  if (batch === null) {
    const answer: WriterAnswer = failure === undefined ? { digests, sizes, times, inodes } : { error: failure };
    parentPort?.postMessage(answer);
    return;
  }
  if (failure !== undefined) return;
  try {
    writeBatch(batch);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    Atomics.store(shared, FAILED, 1);
    Atomics.notify(shared, WRITTEN_KIB);
  }
});
