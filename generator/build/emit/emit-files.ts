/**
 * Writes the build output atomically: everything goes into a staging folder beside the target, which is
 * swapped in only when complete, so a failed build leaves the previous output exactly as it was.
 */
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputFile } from '../routes/output-file.ts';

/** Enough parallel writes to keep the disk busy without running out of file handles. */
const PARALLEL_WRITES = 64;

async function writeAll(files: OutputFile[], root: string): Promise<number> {
  const seen = new Set<string>();
  const dirs = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
    seen.add(file.path);
    dirs.add(path.dirname(path.join(root, file.path)));
  }
  // Shallow first, so each mkdir finds its parent already there.
  for (const dir of [...dirs].sort((a, b) => a.length - b.length)) await mkdir(dir, { recursive: true });
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const target = path.join(root, file.path);
      if ('body' in file) {
        await writeFile(target, file.body);
        bytes += typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
      } else {
        await copyFile(file.copyFrom, target);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, files.length) }, worker));
  return bytes;
}

export async function emitFiles(files: OutputFile[], outDir: string): Promise<{ files: number; bytes: number }> {
  const target = path.resolve(outDir);
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = `${target}.tmp-${stamp}`;
  const previous = `${target}.old-${stamp}`;
  await mkdir(path.dirname(target), { recursive: true });
  let bytes: number;
  try {
    bytes = await writeAll(files, staging);
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
  return { files: files.length, bytes };
}
