/**
 * Messages to the build's helper thread, posted in order, with the search index's slices paced: at most
 * SLICES_AHEAD of them posted and not yet taken by the helper. A posted message is a serialized copy held
 * outside both heaps until the helper reads it; posted all at once, a whole build's slices (0.5 GB of
 * Markdown at 100,000 articles) sat there while the helper worked through them. The build's thread does
 * not turn to its event loop while it makes files, so it cannot hear the helper ask for more: it calls
 * `pump` as it goes (each file it makes), which reads how many slices the helper has taken from memory
 * both threads share. Whatever is left is posted at once the first time this thread's event loop turns
 * (it waits for an answer, or is idle), so an answer is never waited for with its question unsent.
 */
import type { Worker } from 'node:worker_threads';

/** Slices posted ahead of the helper: enough that it never waits for the next, few enough that their copies stay small. */
export const SLICES_AHEAD = 8;

export interface PacedPosting {
  /** Posts `message` after those queued before it; a slice waits while SLICES_AHEAD are posted and untaken. */
  post(message: unknown, slice?: boolean): void;
  /** Posts what the helper has room for now (cheap: one read of shared memory when nothing is due). */
  pump(): void;
  /** The counter the helper adds one to as it takes each slice (workerData.slicesTaken). */
  readonly taken: SharedArrayBuffer;
}

export function pacedPosting(worker: () => Worker): PacedPosting {
  const taken = new SharedArrayBuffer(4);
  const takenCount = new Int32Array(taken);
  const queue: { message: unknown; slice: boolean }[] = [];
  let next = 0;
  let slicesPosted = 0;
  let flushing = false;
  const send = (all: boolean) => {
    while (next < queue.length && (all || !queue[next]!.slice || slicesPosted - Atomics.load(takenCount, 0) < SLICES_AHEAD)) {
      const { message, slice } = queue[next]!;
      queue[next++] = { message: undefined, slice };
      if (slice) slicesPosted++;
      worker().postMessage(message);
    }
    if (next === queue.length) {
      queue.length = 0;
      next = 0;
    }
  };
  return {
    post(message, slice = false) {
      queue.push({ message, slice });
      send(false);
      if (next < queue.length && !flushing) {
        flushing = true;
        setImmediate(() => {
          flushing = false;
          send(true);
        });
      }
    },
    pump: () => {
      if (next < queue.length) send(false);
    },
    taken,
  };
}
