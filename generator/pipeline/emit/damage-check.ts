/**
 * Which files of the output were changed or removed by hand since its record was written (previous-output.ts),
 * found in a second thread (damage-thread.ts) started when the build starts, so that the stat of every file of
 * the output (233,000 at 100,000 articles) runs beside the build's own work instead of inside its emit step.
 * The answer is taken only for the very record the emit step reads (by its digest); without an answer, or for
 * another record, the emit step stats each file itself. A file damaged after the check but before the build
 * ends keeps its old witness in the new record, so the next build notices it. The check also reads every
 * part of the tracked outputs' record (tracked-outputs.ts), which the build's own thread reads only where its
 * edit falls: the build keeps files it never names only when each part is whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTypeScriptWorker } from '../typescript-worker.ts';
import { damageOf, digestsFile } from './previous-output.ts';

/** The output's record's digest and the damaged files; `tracked`, the digest of the tracked outputs' record when every part of it is whole. */
export interface Damage {
  record: string;
  damaged: ReadonlySet<string>;
  tracked?: string | undefined;
}

export interface DamageCheck {
  /** The answer, or undefined when the check could not answer. */
  readonly answer: Promise<Damage | undefined>;
  /** Ends the check when its answer will not be asked for (an edit built into a new folder). */
  stop(): void;
  /**
   * Checks the parts of the output the thread has not taken yet in this thread too, until none is left: for a
   * build that has nothing to do but wait for the answer (one whose content did not change). The answer then
   * holds both threads' findings, and not whether the tracked outputs' record is whole, which only a build
   * that makes outputs asks.
   */
  help(): void;
}

/** Starts the check of the output folder `outDir`. */
export function startDamageCheck(outDir: string): DamageCheck {
  const target = path.resolve(outDir);
  // No record, nothing to check (a cold build): the thread would cost its start, about 0.15 s of CPU.
  if (!existsSync(digestsFile(target))) return { answer: Promise.resolve(undefined), stop: () => {}, help: () => {} };
  // The next part of the record to check, taken by either thread, and whether this thread helps (help).
  const claims = new Int32Array(new SharedArrayBuffer(8));
  // What this thread found when it helped: null before it helps, undefined when its check could not answer.
  let helped: { record: string; damaged: string[] } | undefined | null = null;
  let worker: ReturnType<typeof startTypeScriptWorker> | undefined;
  const answer = new Promise<Damage | undefined>((resolve) => {
    try {
      worker = startTypeScriptWorker(new URL('./damage-thread.ts', import.meta.url), { target, claims });
    } catch {
      resolve(undefined);
      return;
    }
    const started = worker;
    started.once('message', (found: { record: string; damaged: string[]; tracked?: string } | null) => {
      resolve(found ? { record: found.record, damaged: new Set(found.damaged), tracked: found.tracked } : undefined);
      void started.terminate();
    });
    started.once('error', () => resolve(undefined));
    started.once('exit', () => resolve(undefined));
  }).then((found) => {
    // The parts this thread checked (help) join the thread's answer, for the same record only.
    if (!found || helped === null) return found;
    if (helped?.record !== found.record) return undefined;
    return { ...found, damaged: new Set([...found.damaged, ...helped.damaged]) };
  });
  return {
    answer,
    stop: () => void worker?.terminate(),
    help() {
      if (helped !== null) return;
      Atomics.store(claims, 1, 1);
      try {
        helped = damageOf(target, readFileSync(digestsFile(target)), () => Atomics.add(claims, 0, 1));
      } catch {
        helped = undefined;
      }
    },
  };
}
