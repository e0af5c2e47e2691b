/**
 * What an update in place (`npm run build -- --in-place`) starts from, decided before any output is made: the
 * previous output's record, read once for the emit step too, and whether the build may name only what its
 * edit reached and leave the rest of the output as it stands (carried-rest.ts). That rest is never given to
 * the emit step, so nothing could make one of its files again: it is left unnamed only when the damage check
 * (damage-check.ts) answered for this very record and found no file changed or removed since, no update was
 * cut short (the journal), and the tracked outputs' record was written with the output's own (a build killed
 * between writing the two leaves them apart) and every part of it is whole. Otherwise every output is named, as
 * before, and the emit step makes whatever it finds damaged. The caller holds the output's lock
 * (output-lock.ts) from before this reads until the build is recorded, so no other build moves the output
 * in between.
 */
import path from 'node:path';
import type { TrackedOutputs } from '../output-tracker.ts';
import type { DamageCheck } from './damage-check.ts';
import { type PreviousOutput, readJournal, readPreviousOutput } from './previous-output.ts';

export interface InPlaceBase {
  /** The output's record as read under the lock; undefined when there is none to trust. */
  previous: PreviousOutput | undefined;
  /** Whether the emit step may keep the previous build's files it is not given. */
  keepsRest: boolean;
}

/** The base of an update in place of `outDir`, given the damage check's answer and the tracked outputs' record. */
export async function inPlaceBase(outDir: string, damage: DamageCheck, tracked: TrackedOutputs | undefined): Promise<InPlaceBase> {
  const target = path.resolve(outDir);
  if (readJournal(target)) return { previous: undefined, keepsRest: false };
  const previous = readPreviousOutput(target);
  const found = await damage.answer;
  const intact = !!previous && !!found && found.record === previous.recordDigest && found.damaged.size === 0;
  return { previous, keepsRest: intact && !!tracked?.onDisk && agrees(tracked.onDisk, previous, found.tracked) };
}

/**
 * Whether the tracked outputs' record was written with the output's own (it names that record's stamp, so every
 * digest it gives is the output's), and the damage check found every part of it whole (`whole`: the record's
 * digest then): the rest's rows are never read by this thread.
 */
function agrees(tracked: { record: string; output: string }, previous: PreviousOutput, whole: string | undefined): boolean {
  return tracked.output === previous.stamp && tracked.record === whole;
}
