/**
 * The builder's priority in `npm run dev` follows how busy the server is (dev-priority.ts): at the server's
 * own while the server is idle, lowered while it is busy, raised again when it is idle, and left lowered
 * where raising is not allowed. On Linux, setting it by the thread id the builder reports changes that
 * thread only.
 */
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBuilderPriority, LOWERED, NORMAL, ownThreadId } from '../../generator/server/dev/dev-priority.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A priority following a server whose use the test sets; `calls` lists each nice value set. */
function followed(options: { raise?: boolean } = {}) {
  vi.useFakeTimers();
  let use = 0;
  const calls: number[] = [];
  const priority = createBuilderPriority({
    sampleMs: 100,
    utilization: () => use,
    set: (tid, nice) => {
      expect(tid).toBe(4242);
      if (options.raise === false && calls.length && nice < calls.at(-1)!) throw new Error('EACCES');
      calls.push(nice);
    },
  });
  return {
    priority,
    calls,
    serve(share: number) {
      use = share;
      vi.advanceTimersByTime(100);
    },
  };
}

describe("npm run dev's builder priority", () => {
  it('is lowered while the server is busy and raised again once it is idle', () => {
    const { priority, calls, serve } = followed();
    priority.attach(4242);
    serve(0.95);
    // Nothing before it is told to follow: the first build and the warm-up run at the server's priority.
    expect(calls).toEqual([]);
    priority.follow();
    serve(0.2);
    expect(priority.current()).toBe(NORMAL);
    serve(0.95);
    expect(priority.current()).toBe(LOWERED);
    serve(0.9);
    serve(0.1);
    expect(priority.current()).toBe(NORMAL);
    expect(calls).toEqual([LOWERED, NORMAL]);
    priority.stop();
  });

  it('stays lowered where raising a priority is not allowed, and tries no more', () => {
    const { priority, calls, serve } = followed({ raise: false });
    priority.attach(4242);
    priority.follow();
    serve(0.95);
    serve(0.1);
    serve(0.95);
    serve(0.1);
    expect(priority.current()).toBe(LOWERED);
    expect(calls).toEqual([LOWERED]);
    priority.stop();
  });

  it.runIf(process.platform === 'linux')('sets the priority of the thread that reported its id, not the server’s', async () => {
    const niceOf = (tid: number) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const { readlinkSync } = require('node:fs');
       parentPort.postMessage(Number(readlinkSync('/proc/thread-self').split('/').at(-1)));
       setInterval(() => {}, 1000);`,
      { eval: true },
    );
    try {
      const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
      const own = ownThreadId()!;
      expect(own).toBeGreaterThan(0);
      expect(tid).not.toBe(own);
      const before = niceOf(own);
      setPriority(tid, LOWERED);
      expect(niceOf(tid)).toBe(LOWERED);
      expect(niceOf(own)).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
