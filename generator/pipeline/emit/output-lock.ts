/**
 * One build at a time per output folder. A build holds `<out>.lock` (its process id and start time) from
 * before it reads the last build's record until it has recorded its own, so two builds can never interleave
 * their swaps and records. A second build waits for the first and says so once; a lock whose process has
 * ended (a killed build) is taken over. Within one thread the lock is re-entrant (the command holds it around
 * the whole build, and the emit step takes it again).
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { partialName, removeLeftPartials } from '../whole-file.ts';
import { isRunning } from './leftovers.ts';

export const lockFile = (outDir: string) => `${path.resolve(outDir)}.lock`;

interface LockOwner {
  pid: number;
  started: string;
}

/** Locks this thread holds, with how many times each was taken. */
const held = new Map<string, number>();
/** Outputs whose left partial files this thread has removed. */
const swept = new Set<string>();

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' ? { pid: owner.pid, started: String(owner.started) } : { pid: 0, started: '' };
  } catch (error) {
    // Gone since we looked: no owner. Unreadable: nobody's (a lock is written whole before it is linked).
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : { pid: 0, started: '' };
  }
}

/** Creates the lock in one step (a link fails when the name exists); false when someone holds it. */
function tryCreate(file: string): boolean {
  const mine = partialName(file);
  writeFileSync(mine, JSON.stringify({ pid: process.pid, started: new Date().toISOString() } satisfies LockOwner));
  try {
    linkSync(mine, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Moves a dead process's lock aside. Another process may have taken it over between our read and the move;
 * then the moved file is theirs, and it is put back.
 */
function takeOverStale(file: string, stale: LockOwner): void {
  const aside = partialName(file);
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  const moved = readOwner(aside);
  if (moved && (moved.pid !== stale.pid || moved.started !== stale.started)) {
    try {
      linkSync(aside, file);
    } catch {}
  }
  rmSync(aside, { force: true });
}

export interface LockOptions {
  /** How long to wait for another build, in ms, before failing with a message that names it. */
  waitMs?: number;
  /** Said once when the lock is held by another build. */
  onWait?: (owner: LockOwner) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock of `outDir`, waiting for another build to end; returns what releases it. */
export async function lockOutput(outDir: string, options: LockOptions = {}): Promise<() => void> {
  const file = lockFile(outDir);
  const release = () => {
    const count = (held.get(file) ?? 1) - 1;
    if (count > 0) held.set(file, count);
    else {
      held.delete(file);
      if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
    }
  };
  if (held.has(file)) {
    held.set(file, held.get(file)! + 1);
    return release;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + (options.waitMs ?? 10 * 60_000);
  let told = false;
  for (;;) {
    if (tryCreate(file)) break;
    const owner = readOwner(file);
    if (!owner) continue;
    if (!isRunning(owner.pid) || owner.pid === process.pid) {
      // Our own pid in a lock this thread does not hold: a killed earlier process whose id came back, or another
      // thread of this process; only a dead owner is taken over.
      if (owner.pid !== process.pid) takeOverStale(file, owner);
    } else if (!told) {
      told = true;
      options.onWait?.(owner);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another build (process ${owner.pid}, started ${owner.started}) is writing ${path.resolve(outDir)}; waited ${Math.round((options.waitMs ?? 600_000) / 1000)} s. If no build is running, delete ${file}`,
      );
    }
    await sleep(50);
  }
  held.set(file, 1);
  // Only a build holding the lock writes beside the output: what a killed one left half-written goes now, the
  // first time this process holds it (a dev server takes it for every rebuild).
  if (!swept.has(file)) {
    swept.add(file);
    removeLeftPartials(outDir);
  }
  return release;
}
