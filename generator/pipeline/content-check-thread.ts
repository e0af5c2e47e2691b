/**
 * The nothing-changed check of `npm run build` (build-fingerprint.ts) in a thread of its own (content-check.ts):
 * it reads the last build's record, lists the content and stats every file, while the build's thread loads
 * the build's modules and reads the load store's parts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type BuildInputs, fingerprintBuild, readBuildRecord } from './build-fingerprint.ts';
import { packFingerprint } from './content-check.ts';
import { type Gate, openGate } from './thread-gate.ts';

const { gate, ...inputs } = workerData as BuildInputs & { gate?: Gate };
let answer: ReturnType<typeof packFingerprint> | { cold: true } | { error: string };
try {
  const recorded = readBuildRecord(inputs.outDir);
  answer = recorded ? packFingerprint(fingerprintBuild(inputs, recorded)) : { cold: true };
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
// The check is done: the output's damage check may take the second core (thread-gate.ts).
if (gate) openGate(gate);
parentPort?.postMessage(answer);
