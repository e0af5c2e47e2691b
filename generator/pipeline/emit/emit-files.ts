/**
 * Writes the build output atomically: everything goes into a staging folder beside the target, which is
 * swapped in only when complete, so a failed build leaves the previous output exactly as it was. A file
 * whose bytes the previous build already wrote is hard-linked from it instead of written again
 * (previous-output.ts), so a build after a small edit writes only what changed.
 */
import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { memoize } from '../../shared/memoize.ts';
import type { OutputFile } from '../outputs/output-file.ts';
import { type PreviousOutput, readPreviousOutput, recordOutput } from './previous-output.ts';

/** Enough parallel writes to keep the disk busy without running out of file handles. */
const PARALLEL_WRITES = 64;

/**
 * Writes files as the iterable yields them: PARALLEL_WRITES workers pull the next file, so making a file
 * (CPU) overlaps writing others (disk), and each file's text can be freed once written.
 */
async function writeAll(
  files: Iterable<OutputFile> | AsyncIterable<OutputFile>,
  root: string,
  previous: PreviousOutput | undefined,
): Promise<Emitted & { digests: Map<string, string> }> {
  const iterator = Symbol.asyncIterator in files ? files[Symbol.asyncIterator]() : files[Symbol.iterator]();
  const seen = new Set<string>();
  const digests = new Map<string, string>();
  let written = 0;
  const ensureDir = memoize((dir: string) => mkdir(dir, { recursive: true }));
  let bytes = 0;
  let failed = false;
  const worker = async () => {
    while (!failed) {
      const next = await iterator.next();
      if (next.done) return;
      const file = next.value;
      if (seen.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
      seen.add(file.path);
      const target = path.join(root, file.path);
      await ensureDir(path.dirname(target));
      if ('body' in file) {
        const digest = createHash('sha1').update(file.body).digest('base64');
        digests.set(file.path, digest);
        bytes += typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
        if (previous?.digests.get(file.path) === digest && (await linkFrom(previous.dir, file.path, target))) continue;
        await writeFile(target, file.body);
      } else {
        await copyFile(file.copyFrom, target);
      }
      written++;
    }
  };
  // The first failure stops every worker from taking more files; waiting for those already writing means
  // nothing lands in the staging folder after the caller removes it.
  const results = await Promise.allSettled(
    Array.from({ length: PARALLEL_WRITES }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return { files: seen.size, written, bytes, digests };
}

/** Links the previous build's copy of a file; false when it is not there to link. */
async function linkFrom(dir: string, file: string, target: string): Promise<boolean> {
  try {
    await link(path.join(dir, file), target);
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
}

export async function emitFiles(files: Iterable<OutputFile> | AsyncIterable<OutputFile>, outDir: string): Promise<Emitted> {
  const target = path.resolve(outDir);
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${target}.tmp-${stamp}`;
  const previous = `${target}.old-${stamp}`;
  await mkdir(path.dirname(target), { recursive: true });
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(files, staging, readPreviousOutput(target));
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
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
  recordOutput(target, written.digests);
  return { files: written.files, written: written.written, bytes: written.bytes };
}
