/**
 * Which emit step a build takes: the caller's own (npm run dev keeps what changed in memory), a snapshot
 * folder, or the output folder swapped or updated in place (emit-files.ts). An update in place checks the
 * output's files for damage in a second thread while the build loads (damage-check.ts), and holds the
 * output's lock from before its records are read until the new ones are written (in-place-base.ts).
 */
import type { CarriedRest, OutputFile } from '../outputs/output-file.ts';
import { type DamageCheck, startDamageCheck } from './damage-check.ts';
import { type Emitted, emitFiles } from './emit-files.ts';
import { emitSnapshot, type SnapshotEmit } from './emit-snapshot.ts';
import type { InPlaceBase } from './in-place-base.ts';
import { lockOutput } from './output-lock.ts';

/** What of a build's options chooses its emit step (build-site.ts BuildOptions). */
export interface EmitChoice {
  outDir: string;
  force?: boolean | undefined;
  inPlace?: boolean | undefined;
  damage?: DamageCheck | undefined;
  snapshot?: SnapshotEmit | undefined;
  emit?: ((files: AsyncIterable<OutputFile>, rest: () => CarriedRest | undefined) => Promise<Emitted>) | undefined;
}

/** The damage check of an update in place of the output folder (the caller's, when it started one); none otherwise. */
export function damageCheckFor(choice: EmitChoice): DamageCheck | undefined {
  if (!choice.inPlace || choice.force || choice.emit || choice.snapshot) return undefined;
  return choice.damage ?? startDamageCheck(choice.outDir);
}

/** Runs `build` holding the output's lock when it updates the output in place (re-entrant: the command holds it too). */
export async function underLock<T>(choice: EmitChoice, damage: DamageCheck | undefined, build: () => Promise<T>): Promise<T> {
  const release = damage && (await lockOutput(choice.outDir));
  try {
    return await build();
  } finally {
    release?.();
  }
}

/** Emits the build's files; `rest` names the previous build's files kept unnamed, once every file was given. */
export function emitBuild(
  files: AsyncIterable<OutputFile>,
  choice: EmitChoice,
  damage: DamageCheck | undefined,
  base: InPlaceBase | undefined,
  rest: () => CarriedRest | undefined,
): Promise<Emitted> {
  if (choice.emit) return choice.emit(files, rest);
  if (choice.snapshot) return emitSnapshot(files, choice.outDir, choice.snapshot);
  const keeps = base?.keepsRest ? rest : undefined;
  return emitFiles(files, choice.outDir, {
    trustPrevious: !choice.force,
    inPlace: choice.inPlace,
    damage,
    previous: base?.previous,
    rest: keeps,
  });
}
