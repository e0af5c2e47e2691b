/**
 * Folders a process leaves beside an output folder while it works (a build's staging folder and the output
 * it replaces, a server's snapshots), named `<out><mark><pid>-...`. A process that was killed leaves them
 * behind; whoever comes next removes them, or puts back an output a build had moved aside.
 */
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Whether a process is running (folders of a live one are its own and left alone). */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The folders (and files) beside `target` whose name is `<target><mark><pid>-...` for a process that has ended. */
export function leftovers(target: string, mark: string): string[] {
  const parent = path.dirname(target);
  const prefix = `${path.basename(target)}${mark}`;
  return readdirSync(parent)
    .filter((name) => name.startsWith(prefix) && !isRunning(Number(name.slice(prefix.length).split('-')[0])))
    .sort()
    .map((name) => path.join(parent, name));
}

export const STAGING_MARK = '.tmp-';
export const REPLACED_MARK = '.old-';

/**
 * Before a build of `target`: a build killed between moving the output aside and moving the new one in left
 * no output but the one it moved aside, which is put back; staging folders of killed builds are removed.
 */
export function recoverFromKilledBuilds(target: string): void {
  for (const replaced of leftovers(target, REPLACED_MARK)) {
    if (!statSync(target, { throwIfNoEntry: false })) renameSync(replaced, target);
    else rmSync(replaced, { recursive: true, force: true });
  }
  for (const staging of leftovers(target, STAGING_MARK)) rmSync(staging, { recursive: true, force: true });
}
