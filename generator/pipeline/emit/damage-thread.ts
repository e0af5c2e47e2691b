/**
 * The damage check of an output updated in place (damage-check.ts), in a thread of its own: it reads the
 * output's record and stats every file it names, while the build's own thread loads the content and makes
 * the outputs. Answers the record's digest (so the build takes the answer only for the record it read
 * itself) and the files changed or removed since that record was written.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { damageOf, digestsFile } from './previous-output.ts';
import { wholeTrackedOutputs } from './tracked-outputs.ts';
import { yieldToTheBuild } from '../thread-priority.ts';

// Its answer is asked for once the outputs are made: until then the build's own thread goes first.
yieldToTheBuild();

const { target, claims } = workerData as { target: string; claims?: Int32Array };
let answer: { record: string; damaged: string[]; tracked?: string | undefined } | null = null;
try {
  // The parts are taken one at a time from a count shared with the build's thread, which may check some too
  // (damage-check.ts help).
  const claim = claims && (() => Atomics.add(claims, 0, 1));
  const found = damageOf(target, readFileSync(digestsFile(target)), claim);
  // A build that helps has nothing else to do: it makes no outputs, and asks nothing of the tracked ones.
  const helped = claims && Atomics.load(claims, 1) === 1;
  answer = found ? { ...found, tracked: helped ? undefined : wholeTrackedOutputs(target) } : null;
} catch {
  // No answer: the build checks each file itself.
}
parentPort?.postMessage(answer);
