/**
 * A thread with time to spare (the output's damage check) gives way to the build's own thread
 * (pipeline/thread-priority.ts): on Linux its niceness rises by 10, and only its own.
 */
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startTypeScriptWorker } from '../../generator/pipeline/typescript-worker.ts';

describe('a thread that gives way to the build', () => {
  it.skipIf(process.platform !== 'linux')(
    'takes a niceness of 10 more, and leaves the process and its other threads as they were',
    async () => {
      const process_ = getPriority();
      const worker = startTypeScriptWorker(new URL('../helpers/thread-priority-worker.ts', import.meta.url), {});
      const { before, after } = await new Promise<{ before: number; after: number }>((resolve) => worker.once('message', resolve));
      await worker.terminate();
      expect(after).toBe(Math.min(19, before + 10));
      expect(getPriority(), 'the thread that started it').toBe(process_);
    },
  );
});
