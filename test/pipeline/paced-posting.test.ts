/** The pacing of the search index's slices to the build's helper thread (paced-posting.ts), with a recording stand-in for the worker. */
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { pacedPosting, SLICES_AHEAD } from '../../generator/pipeline/helper/paced-posting.ts';

function recording() {
  const posted: unknown[] = [];
  const posting = pacedPosting(() => ({ postMessage: (message: unknown) => posted.push(message) }) as unknown as Worker);
  const take = (slices: number) => Atomics.add(new Int32Array(posting.taken), 0, slices);
  return { posted, posting, take };
}

/** More slices than may be posted ahead. */
const SLICES = SLICES_AHEAD + 6;
const names = (count: number) => Array.from({ length: count }, (_, slice) => `slice ${slice}`);

describe('posting slices to the build’s helper', () => {
  it('keeps at most SLICES_AHEAD slices posted and untaken, in order, while this thread never turns its event loop', () => {
    const { posted, posting, take } = recording();
    posting.post('start');
    for (let slice = 0; slice < SLICES; slice++) posting.post(`slice ${slice}`, true);
    posting.post('ask for the index');
    expect(posted).toEqual(['start', ...names(SLICES_AHEAD)]);
    posting.pump();
    expect(posted).toHaveLength(1 + SLICES_AHEAD);
    take(2);
    posting.pump();
    expect(posted.slice(1)).toEqual(names(SLICES_AHEAD + 2));
    take(1);
    posting.pump();
    // The question after the slices waits for them: it is posted right after the last slice.
    expect(posted.at(-1)).toBe(`slice ${SLICES_AHEAD + 2}`);
    take(SLICES - SLICES_AHEAD - 3);
    posting.pump();
    expect(posted.slice(-2)).toEqual([`slice ${SLICES - 1}`, 'ask for the index']);
    expect(posted).toHaveLength(SLICES + 2);
  });

  it('posts whatever is left the first time the event loop turns, so an answer is never awaited with its question unsent', async () => {
    const { posted, posting } = recording();
    for (let slice = 0; slice < SLICES; slice++) posting.post(`slice ${slice}`, true);
    posting.post('ask for the index');
    expect(posted).toHaveLength(SLICES_AHEAD);
    await new Promise(setImmediate);
    expect(posted).toEqual([...names(SLICES), 'ask for the index']);
    // Messages other than slices are never held back behind nothing.
    posting.post('render these');
    expect(posted.at(-1)).toBe('render these');
  });
});
