/**
 * Brings an output folder up to date in place, when its record (previous-output.ts) describes it: only the
 * files whose bytes changed are written, so a build after one edit touches a few files instead of linking
 * every file into a new folder. Safe as the swap of a whole folder is:
 * - nothing in the output changes until every file has been made: changed files are written into a staging
 *   folder beside it first, so a build that fails while making them leaves the output as it was;
 * - then a journal (`<out>.journal.json`, written whole and renamed into place) names every file about to
 *   be replaced or removed, and the nothing-changed record (`<out>.build.bin`) is removed; each file is then
 *   renamed into place (a reader sees the old file or the new one), and the journal is removed only once the
 *   output's record has been written. A build killed in between leaves the journal: the next build trusts
 *   none of the files it names and makes a whole new folder (emit-files.ts), as it would with no record.
 */
import { renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CarriedRest, OutputFile } from '../outputs/output-file.ts';
import { forgetBuild } from '../build-fingerprint.ts';
import {
  type FileRecord,
  isIntact,
  journalFile,
  type PreviousOutput,
  recordOutput,
  removeJournal,
  witness,
  writeJsonWhole,
} from './previous-output.ts';
import { makeDirOnce, settleFile } from './settle-file.ts';

/** Removes a file and the folders it leaves empty (a removed record's page folder), up to `root`. */
export function removeWithEmptyFolders(root: string, file: string): void {
  rmSync(path.join(root, file), { force: true });
  for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) {
    try {
      rmdirSync(path.join(root, dir));
    } catch {
      return;
    }
  }
}

export interface Staged {
  files: number;
  written: number;
  bytes: number;
  digests: Map<string, string>;
  records: Map<string, FileRecord>;
  /** The files written into the staging folder, to be renamed into the output. */
  changed: string[];
  /** The previous record's files no longer made, when known; else applyChanges finds them from the records. */
  removed?: string[] | undefined;
}

/**
 * Makes every file the output lacks or holds other bytes of, into `staging`; a file the output holds as
 * recorded, with the same digest, is left where it is unmade (carried) or unwritten. `damaged`: the files of
 * the record changed or removed since, when they were found for this very record. `rest`, asked once every
 * file was given: the previous build's files kept without being given (carried-rest.ts).
 */
export async function stageChanges(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  staging: string,
  previous: PreviousOutput,
  damaged?: ReadonlySet<string>,
  rest?: () => CarriedRest | undefined,
): Promise<Staged> {
  const digests = new Map<string, string>();
  const records = new Map<string, FileRecord>();
  const changed: string[] = [];
  const madeDirs = new Set<string>();
  let bytes = 0;
  const kept = (file: string, digest: string) => {
    const record = previous.records?.get(file);
    if (previous.digests.get(file) !== digest || !record) return undefined;
    // The files changed or removed by hand, when a second thread found them (damage-check.ts); else a stat here.
    if (damaged ? damaged.has(file) : !isIntact(path.join(previous.dir, file), record)) return undefined;
    return record;
  };
  for await (const file of files) {
    if (digests.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
    const settled = settleFile(file, kept);
    digests.set(file.path, settled.digest);
    bytes += settled.size;
    if ('record' in settled) {
      records.set(file.path, settled.record);
      continue;
    }
    const target = path.join(staging, file.path);
    makeDirOnce(madeDirs, path.dirname(target));
    writeFileSync(target, settled.body);
    // A rename keeps the inode and the modification time: this is the file's record once it is in place.
    records.set(file.path, witness(settled.digest, target));
    changed.push(file.path);
  }
  const all = keepRest(previous, records, rest?.());
  return { ...all, files: all.records.size, written: changed.length, bytes: bytes + all.bytes, digests, changed };
}

/**
 * Takes the files of the rest (carried-rest.ts) into the new record as the previous one has them, left where
 * they are unmade: every one was found intact before the outputs were made (in-place-base.ts). Gives the
 * record of every file (`named`'s and the rest's), the rest's bytes and, when known, the files removed.
 */
function keepRest(previous: PreviousOutput, named: Map<string, FileRecord>, rest: CarriedRest | undefined) {
  if (!rest) return { records: named, bytes: 0, removed: undefined };
  return keptInPlace(previous, named, rest) ?? keptByWalk(previous, named, rest);
}

/**
 * The previous record taken over and brought up to date in place, when it holds the rest and the named files
 * and nothing else, found by counts alone (the rest is of the previous record: in-place-base.ts): walked row by
 * row into a new table, its 233,000 files cost an edit at 100,000 articles more than the files it made.
 * Undefined when a file is removed; the previous record is not read again after the emit step.
 */
function keptInPlace(previous: PreviousOutput, named: ReadonlyMap<string, FileRecord>, rest: CarriedRest) {
  const records = previous.records as Map<string, FileRecord> | undefined;
  if (!records || previous.bytes === undefined) return undefined;
  let before = 0;
  let bytes = previous.bytes;
  for (const file of named.keys()) {
    if (rest.has(file)) throw new Error(`${file} was made, and kept unnamed`);
    const record = records.get(file);
    if (!record) continue;
    before++;
    bytes -= record[1];
  }
  if (records.size !== rest.size() + before) return undefined;
  // A file kept as it was has the very row it had: setting it again would rewrite its part (table-parts.ts).
  for (const [file, record] of named) if (records.get(file) !== record) records.set(file, record);
  return { records, bytes, removed: [] };
}

/** The named files' records and the rest's, as the previous record has them, in a new table. */
function keptByWalk(previous: PreviousOutput, named: Map<string, FileRecord>, rest: CarriedRest) {
  let bytes = 0;
  let kept = 0;
  for (const [file, record] of previous.records ?? []) {
    if (named.has(file) || !rest.has(file)) continue;
    named.set(file, record);
    bytes += record[1];
    kept++;
  }
  if (kept !== rest.size()) throw new Error(`the output's record holds ${kept} of the ${rest.size()} files the build kept unnamed`);
  return { records: named, bytes, removed: undefined };
}

/**
 * Puts the staged files in place and removes the files no longer made, under the journal; records the output,
 * then removes the journal. Gives the stamp of the output's record.
 */
export function applyChanges(target: string, staging: string, staged: Staged, previous: PreviousOutput): string {
  const removed = staged.removed ?? [...(previous.records ?? previous.digests).keys()].filter((file) => !staged.records.has(file));
  forgetBuild(target);
  writeJsonWhole(journalFile(target), { files: [...staged.changed, ...removed] });
  // Removed first: a path that was a file may now be a folder, or the other way round.
  for (const file of removed) removeWithEmptyFolders(target, file);
  const madeDirs = new Set<string>();
  for (const file of staged.changed) {
    makeDirOnce(madeDirs, path.dirname(path.join(target, file)));
    renameSync(path.join(staging, file), path.join(target, file));
  }
  const stamp = recordOutput(target, staged.records);
  removeJournal(target);
  return stamp;
}
