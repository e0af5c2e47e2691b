/**
 * `npm run dev`'s emit. Each build goes into a snapshot folder of its own, which the dev server reads that
 * build from and which nothing changes until the server retires it: files whose bytes the previous
 * snapshot has are hard-linked from it. The output folder is then brought up to date in place, changed
 * files only, each replaced in one step. The swap of a whole folder (emit-files.ts) would cost a second
 * tree of links per build, and the server never reads the output folder in dev.
 */
import { linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { forgetBuild } from '../build-fingerprint.ts';
import type { OutputFile } from '../outputs/output-file.ts';
import { COPIED, type Emitted, writeAll } from './emit-files.ts';
import { type FileRecord, forgetOutput, identityOf, isIntact, readPreviousOutput, recordOutput } from './previous-output.ts';
import { lockOutput } from './output-lock.ts';
import { removeWithEmptyFolders } from './update-in-place.ts';

/** Hard-links every file of `from` into `to`. */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isFile()) linkSync(source, target);
  }
}

/** Replaces `target` with a link to `source` in one step: a reader sees the old file or the new one. */
function replaceWithLink(source: string, target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.linking`;
  rmSync(temporary, { force: true });
  linkSync(source, temporary);
  renameSync(temporary, target);
}

/** Makes `target` hold what `snapshot` holds, touching only the files whose digests differ. */
function updateInPlace(target: string, snapshot: string, records: ReadonlyMap<string, FileRecord>): void {
  const before = readPreviousOutput(target);
  forgetOutput(target);
  forgetBuild(target);
  if (!before) {
    rmSync(target, { recursive: true, force: true });
    linkTree(snapshot, target);
  } else {
    for (const [file, [digest]] of records) {
      const old = before.records?.get(file);
      // A file changed or removed by hand since is replaced too.
      if (digest === COPIED || old?.[0] !== digest || !isIntact(path.join(target, file), old)) {
        replaceWithLink(path.join(snapshot, file), path.join(target, file));
      }
    }
    for (const file of before.digests.keys()) if (!records.has(file)) removeWithEmptyFolders(target, file);
  }
  // Every file of the output is now a link to the snapshot's, so it has the snapshot's record.
  recordOutput(target, records);
}

export interface SnapshotEmit {
  /** The new snapshot folder; it must not exist yet. */
  dir: string;
  /** The previous build's snapshot, to link unchanged files from (by the digests recorded beside it). */
  previous?: string | undefined;
}

/**
 * Writes the build into `snapshot.dir` and records its digests beside it, then updates `outDir` to match.
 * A failed build leaves both folders as they were.
 */
export async function emitSnapshot(files: AsyncIterable<OutputFile>, outDir: string, snapshot: SnapshotEmit): Promise<Emitted> {
  const release = await lockOutput(outDir);
  try {
    return await writeSnapshot(files, outDir, snapshot);
  } finally {
    release();
  }
}

async function writeSnapshot(files: AsyncIterable<OutputFile>, outDir: string, snapshot: SnapshotEmit): Promise<Emitted> {
  const dir = path.resolve(snapshot.dir);
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(files, dir, snapshot.previous ? readPreviousOutput(path.resolve(snapshot.previous)) : undefined);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  recordOutput(dir, written.records);
  updateInPlace(path.resolve(outDir), dir, written.records);
  return { files: written.files, written: written.written, bytes: written.bytes, identity: identityOf(path.resolve(outDir)) ?? '' };
}

/** Removes a snapshot and the digests recorded beside it. */
export function removeSnapshot(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  forgetOutput(path.resolve(dir), true);
}
