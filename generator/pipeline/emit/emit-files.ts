/**
 * Writes the build output atomically: everything goes into a staging folder beside the target, which is
 * swapped in only when complete, so a failed build leaves the previous output exactly as it was.
 */
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { memoize } from '../../shared/memoize.ts';
import type { OutputFile } from '../outputs/output-file.ts';

/** Enough parallel writes to keep the disk busy without running out of file handles. */
const PARALLEL_WRITES = 64;

/**
 * Writes files as the iterable yields them: PARALLEL_WRITES workers pull the next file, so making a file
 * (CPU) overlaps writing others (disk), and each file's text can be freed once written.
 */
async function writeAll(files: Iterable<OutputFile>, root: string): Promise<{ files: number; bytes: number }> {
  const iterator = files[Symbol.iterator]();
  const seen = new Set<string>();
  const ensureDir = memoize((dir: string) => mkdir(dir, { recursive: true }));
  let bytes = 0;
  let failed = false;
  const worker = async () => {
    while (!failed) {
      const next = iterator.next();
      if (next.done) return;
      const file = next.value;
      if (seen.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
      seen.add(file.path);
      const target = path.join(root, file.path);
      await ensureDir(path.dirname(target));
      if ('body' in file) {
        await writeFile(target, file.body);
        bytes += typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
      } else {
        await copyFile(file.copyFrom, target);
      }
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
  return { files: seen.size, bytes };
}

export async function emitFiles(files: Iterable<OutputFile>, outDir: string): Promise<{ files: number; bytes: number }> {
  const target = path.resolve(outDir);
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${target}.tmp-${stamp}`;
  const previous = `${target}.old-${stamp}`;
  await mkdir(path.dirname(target), { recursive: true });
  let written: { files: number; bytes: number };
  try {
    written = await writeAll(files, staging);
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
  return written;
}
