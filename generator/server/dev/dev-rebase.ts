/**
 * A new base for `npm run dev`, written in the background once the files changed since the base add up: the
 * newest build, as a folder, from the old base's unchanged files (hard links) and the changed ones' bytes.
 * It is written after the build that crossed the limit has been served, with asynchronous calls a few at a
 * time, between and beside the next builds, never on an edit's path: at 100,000 articles an edit that
 * changed 88,000 files made the next edit write and link the whole tree (233,788 files, six minutes under
 * load) before it was served. Until the new base is in place, edits are served over the old one as before.
 */
import { link, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** File calls in flight at once: a few, so that the server's own reads from the thread pool never queue behind them. */
const CONCURRENCY = 2;

/** The build a new base is written from: its files' digests, and the bytes of those that differ from the old base. */
export interface RebaseSource {
  /** The old base folder, whose files are linked where the build did not change them. */
  from: string;
  /** Every file of the build, by path. */
  digests: ReadonlyMap<string, string>;
  /** What differs from the old base: a changed file's bytes (null for a removed one). */
  changed: ReadonlyMap<string, Uint8Array | null>;
}

/** Writes the build `source` describes into `to` (which must not exist). Rejects on the first failure. */
export async function writeRebase(source: RebaseSource, to: string): Promise<void> {
  const made = new Set<string>();
  const calls = fewAtATime(CONCURRENCY);
  for (const file of source.digests.keys()) {
    const target = path.join(to, file);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const bytes = source.changed.get(file);
    await calls.run(bytes ? () => writeFile(target, bytes) : () => link(path.join(source.from, file), target));
  }
  await calls.drain();
}

/**
 * File calls run at most `concurrency` at a time: `run` resolves once another may start, and rejects with the
 * first failure of any; `drain` waits for the last.
 */
function fewAtATime(concurrency: number) {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  return {
    async run(job: () => Promise<void>): Promise<void> {
      const tracked: Promise<void> = job().then(
        () => {
          pending.delete(tracked);
        },
        (error: unknown) => {
          pending.delete(tracked);
          failure ??= error;
        },
      );
      pending.add(tracked);
      if (pending.size >= concurrency) await Promise.race(pending);
      if (failure) throw failure;
    },
    async drain(): Promise<void> {
      await Promise.all(pending);
      if (failure) throw failure;
    },
  };
}
