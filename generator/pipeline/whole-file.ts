/**
 * Files a build keeps beside its output (its record, the output's digests, the load and search stores) and in
 * its caches are written whole: into a partial file beside the final name, then renamed over it, so a reader
 * sees the old bytes or the new ones, never half. A build killed while writing leaves its partial behind; the
 * next build of the same output removes it once it holds the output's lock (output-lock.ts), when its process
 * has ended; the caches drop theirs when they are next saved.
 */
import { type Dirent, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { isRunning } from './emit/leftovers.ts';

/** A partial file is `<file>.partial-<pid>-<thread>-<n>`: unique to one write of one thread of one process. */
const PARTIAL = /\.partial-(\d+)-\d+-\d+$/;
let writes = 0;

/** A new name for a partial file of `file`, which the next build removes if this process dies before it does. */
export const partialName = (file: string) => `${file}.partial-${process.pid}-${threadId}-${++writes}`;

/** Writes `bytes` whole: a partial file beside `file`, renamed over it; a write that fails leaves no partial. */
export function writeWhole(file: string, bytes: string | NodeJS.ArrayBufferView): void {
  const partial = partialName(file);
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Whether `name` is a partial file of a process that has ended. */
export const isLeftPartial = (name: string) => {
  const pid = PARTIAL.exec(name)?.[1];
  return pid !== undefined && !isRunning(Number(pid));
};

/**
 * Removes the partial files killed builds left beside `outDir` (`<out>.<name>.partial-...`) and in the folders
 * beside it (`<out>.<name>/...`, one level: the stores), not inside the output itself, which the build's own
 * damage check looks after. Partials of running processes are theirs and stay.
 */
export function removeLeftPartials(outDir: string): void {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  const prefix = `${path.basename(target)}.`;
  let beside: Dirent[];
  try {
    beside = readdirSync(parent, { withFileTypes: true });
  } catch {
    return; // No parent yet: nothing was ever written beside the output.
  }
  for (const entry of beside) {
    if (!entry.name.startsWith(prefix)) continue;
    const at = path.join(parent, entry.name);
    if (entry.isFile() && isLeftPartial(entry.name)) rmSync(at, { force: true });
    else if (entry.isDirectory()) for (const name of namesIn(at)) if (isLeftPartial(name)) rmSync(path.join(at, name), { force: true });
  }
}

/** The names in `dir`; none when it went since it was listed (a server's old snapshot, removed by its cleaner). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
