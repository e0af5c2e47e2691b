/**
 * Writes the build output atomically: everything goes into a staging folder beside the target, which is
 * swapped in only when complete, so a failed build leaves the previous output exactly as it was. A file
 * whose bytes the previous build already wrote is hard-linked from it instead of written again
 * (previous-output.ts), so a build after a small edit writes only what changed.
 */
import { copyFileSync, linkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { CarriedRest, OutputFile } from '../outputs/output-file.ts';
import { recoverFromKilledBuilds, REPLACED_MARK, STAGING_MARK } from './leftovers.ts';
import {
  type FileRecord,
  identityOf,
  isIntact,
  type PreviousOutput,
  readJournal,
  readPreviousOutput,
  recordOutput,
  removeJournal,
  witness,
} from './previous-output.ts';
import type { DamageCheck } from './damage-check.ts';
import { lockOutput } from './output-lock.ts';
import { makeDirOnce, settleFile } from './settle-file.ts';
import { type FileWriter, startFileWriter } from './file-writer.ts';
import { applyChanges, type Staged, stageChanges } from './update-in-place.ts';

/**
 * Files written by the build's own thread before a cold build starts its writer thread (file-writer.ts): one
 * message's worth, so that a build too small to pay for a thread's start does without. At 500, the first files
 * of 4,000 articles (8.7 MB of list chunks) cost the build's thread 0.1 s of CPU to hash and write.
 */
const WRITER_AFTER = 64;
/** A queued file's record until the writer answers. */
const PENDING: FileRecord = ['', 0, 0, 0];

/** The digest once recorded for a copied file (outputs of older builds may hold it): never equal to a file's digest. */
export const COPIED = 'copied';

/**
 * Writes files as the iterable yields them, so each file's text can be freed once written. Synchronous
 * calls: for ten thousand small files they cost half the CPU of promise-based ones, which hop to the
 * thread pool and back for each open, write and close.
 */
export async function writeAll(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  root: string,
  previous: PreviousOutput | undefined,
  { writer: threaded = false }: { writer?: boolean } = {},
): Promise<Emitted & { digests: Map<string, string>; records: Map<string, FileRecord> }> {
  const seen = new Set<string>();
  const digests = new Map<string, string>();
  const records = new Map<string, FileRecord>();
  const madeDirs = new Set<string>();
  let written = 0;
  let bytes = 0;
  // Nothing to link: past the first files (a small build does without a thread), a thread writes them.
  let writer: FileWriter | undefined;
  const queued: string[] = [];
  try {
    for await (const file of files) {
      if (seen.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
      seen.add(file.path);
      const target = path.join(root, file.path);
      if (threaded && !previous && !writer && seen.size > WRITER_AFTER) writer = startFileWriter();
      if (writer) {
        // Nothing to keep: the file is made here, and hashed and written by the writer.
        writer.write(target, file);
        queued.push(file.path);
        // Both filled in, in this order, once the writer answers.
        digests.set(file.path, '');
        records.set(file.path, PENDING);
        written++;
        continue;
      }
      makeDirOnce(madeDirs, path.dirname(target));
      // A file carried over from the previous build is linked from it unmade, unless that copy is gone or was
      // changed by hand; a file made again is linked when the previous build wrote the same bytes.
      const settled = settleFile(file, (name, digest) => linkUnchanged(previous, name, digest, target));
      digests.set(file.path, settled.digest);
      bytes += settled.size;
      if ('record' in settled) {
        records.set(file.path, settled.record);
        continue;
      }
      if ('copyFrom' in file) copyFileSync(file.copyFrom, target);
      else writeFileSync(target, settled.body);
      records.set(file.path, witness(settled.digest, target));
      written++;
    }
  } catch (error) {
    await writer?.stop();
    throw error;
  }
  // The records take the places their files were queued in, as when written here.
  if (writer)
    for (const [n, record] of (await writer.finish()).entries()) {
      records.set(queued[n]!, record);
      digests.set(queued[n]!, record[0]);
      bytes += record[1];
    }
  return { files: seen.size, written, bytes, digests, records };
}

/**
 * Links the previous build's copy of a file when it has the same digest and, where the previous output
 * recorded them, still the size, time and inode that build left it with (not edited since); returns the
 * linked file's record, or undefined when it was not linked.
 */
function linkUnchanged(previous: PreviousOutput | undefined, file: string, digest: string, target: string): FileRecord | undefined {
  if (previous?.digests.get(file) !== digest) return undefined;
  const source = path.join(previous.dir, file);
  const record = previous.records?.get(file);
  if (previous.records && !isIntact(source, record)) return undefined;
  if (!linkFrom(previous.dir, file, target)) return undefined;
  return record ?? witness(digest, target);
}

/** Links the previous build's copy of a file; false when it is not there to link. */
function linkFrom(dir: string, file: string, target: string): boolean {
  try {
    linkSync(path.join(dir, file), target);
    return true;
  } catch {
    return false;
  }
}

/** What an emit did: files in the output, how many it wrote (the rest were unchanged), and their bytes. */
export interface Emitted {
  files: number;
  written: number;
  bytes: number;
  /** The identity of the output folder this build put in place (previous-output.ts). */
  identity?: string;
  /** Every file's digest, when the emit step took them: what the next build carries over by (output-tracker.ts). */
  digests?: ReadonlyMap<string, string>;
  /** The stamp of the output's record written beside it (previous-output.ts), which the tracked outputs' record names. */
  stamp?: string;
}

/** How an emit step treats the output in place (emitFiles). */
export interface EmitOptions {
  /** false (--force) writes every file, linking nothing from the previous output. */
  trustPrevious?: boolean;
  /** Updates a trusted output in place (update-in-place.ts) instead of swapping in a new folder. */
  inPlace?: boolean;
  damage?: DamageCheck | undefined;
  /** The output's record as the caller read it under the lock (in-place-base.ts); read here otherwise. */
  previous?: PreviousOutput | undefined;
  /** The previous build's files an update in place keeps without being given them (carried-rest.ts). */
  rest?: (() => CarriedRest | undefined) | undefined;
}

/**
 * `trustPrevious: false` (--force) writes every file, linking nothing from the previous output. `inPlace`
 * updates a trusted output in place (update-in-place.ts) instead of swapping in a new folder: only for an
 * output no server reads while it is built (a deploy's), since a server holds a build as one folder.
 */
export async function emitFiles(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  outDir: string,
  options: EmitOptions = {},
): Promise<Emitted> {
  const release = await lockOutput(outDir);
  try {
    return await emitInto(files, path.resolve(outDir), options);
  } finally {
    release();
  }
}

/**
 * Updates the output in place when its record describes it and no update was cut short (update-in-place.ts);
 * else makes a new folder, linking the files whose bytes the old one holds as recorded, and swaps it in.
 */
async function emitInto(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  target: string,
  { trustPrevious = true, inPlace = false, damage, rest, ...given }: EmitOptions,
): Promise<Emitted> {
  await mkdir(path.dirname(target), { recursive: true });
  recoverFromKilledBuilds(target);
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${target}${STAGING_MARK}${stamp}`;
  const journal = readJournal(target);
  const previous = trustPrevious ? (given.previous ?? readPreviousOutput(target)) : undefined;
  if (!previous || journal || !inPlace)
    return swapIn(rest ? allGiven(files, target, rest) : files, target, stamp, previous && withoutFiles(previous, journal));
  let staged: Staged;
  let recorded: string;
  try {
    const found = await damage?.answer;
    const damaged = found?.record === previous.recordDigest ? found?.damaged : undefined;
    staged = await stageChanges(files, staging, previous, damaged, rest);
    recorded = applyChanges(target, staging, staged, previous);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const { files: count, written, bytes, digests } = staged;
  return { files: count, written, bytes, identity: identityOf(target) ?? '', digests, stamp: recorded };
}

/**
 * The files given, failing before the swap when the build kept others unnamed: a new folder holds only the
 * files given, so they would be lost (in-place-base.ts allows a rest only for an update in place).
 */
async function* allGiven(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  target: string,
  rest: () => CarriedRest | undefined,
): AsyncGenerator<OutputFile> {
  yield* files;
  if (rest()?.size()) throw new Error(`${target}: a build that kept files unnamed cannot make a new folder`);
}

/** The record less the files an update cut short may have left half done. */
function withoutFiles(previous: PreviousOutput, files: ReadonlySet<string> | undefined): PreviousOutput {
  if (!files) return previous;
  const keep = <T>(map: ReadonlyMap<string, T> | undefined) => map && new Map([...map].filter(([file]) => !files.has(file)));
  return { dir: previous.dir, digests: keep(previous.digests)!, records: keep(previous.records) };
}

async function swapIn(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  target: string,
  stamp: string,
  trusted: PreviousOutput | undefined,
): Promise<Emitted> {
  const staging = `${target}${STAGING_MARK}${stamp}`;
  const previous = `${target}${REPLACED_MARK}${stamp}`;
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(files, staging, trusted, { writer: !trusted });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // A rename keeps a folder's inode: this is the identity of the output this build puts in place.
  const identity = identityOf(staging)!;
  let hadPrevious = true;
  try {
    await rename(target, previous);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    hadPrevious = false;
  }
  try {
    await rename(staging, target);
  } catch (error) {
    if (hadPrevious) await rename(previous, target);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  if (hadPrevious) await rm(previous, { recursive: true, force: true });
  const recorded = recordOutput(target, written.records, identity);
  // The folder is new: whatever an update cut short had left half done is gone with the old one.
  removeJournal(target);
  return { files: written.files, written: written.written, bytes: written.bytes, identity, digests: written.digests, stamp: recorded };
}
