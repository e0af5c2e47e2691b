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
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Gate } from '../thread-gate.ts';
import { startTypeScriptWorker } from '../typescript-worker.ts';
import { digestsFile } from './previous-output.ts';

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
}

/** Starts the check of the output folder `outDir`; with a `gate`, its stats wait until the gate opens (thread-gate.ts). */
export function startDamageCheck(outDir: string, gate?: Gate): DamageCheck {
  const target = path.resolve(outDir);
  // No record, nothing to check (a cold build): the thread would cost its start, about 0.15 s of CPU.
  if (!existsSync(digestsFile(target))) return { answer: Promise.resolve(undefined), stop: () => {} };
  let worker: ReturnType<typeof startTypeScriptWorker> | undefined;
  const answer = new Promise<Damage | undefined>((resolve) => {
    try {
      worker = startTypeScriptWorker(new URL('./damage-thread.ts', import.meta.url), { target, gate });
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
  });
  return { answer, stop: () => void worker?.terminate() };
}
