/**
 * The local server reads a build as one unit. A build is swapped in whole (the emit step renames a finished
 * folder into place), so the server serves a snapshot of the build folder: a tree of hard links, made when
 * the server first sees the build, that the next build's swap cannot change. Each request takes the
 * current snapshot and keeps it to its end, so it never mixes two builds (manifest, files, search index,
 * ETags), and a request that starts after a swap sees only the new build. A snapshot is removed once it is
 * retired and no request is using it.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { linkTree, removeSnapshot } from '../pipeline/emit/emit-snapshot.ts';
import { leftovers } from '../pipeline/emit/leftovers.ts';
import { MANIFEST_PATH } from '../shared/data-paths.ts';

/** One build as the server serves it: a folder that no later build changes, and what was made from it. */
export interface ServedBuild<T> {
  /** The snapshot folder to read from. */
  dir: string;
  /** What the server made for this build (its handler and header rules). */
  value: T;
}

export interface BuildSource<T> {
  /** The current build, held until `release`; a new build is picked up here, before any file of it is read. */
  acquire(): ServedBuild<T>;
  release(build: ServedBuild<T>): void;
  /** Removes every snapshot (on shutdown). */
  close(): void;
}

interface Held<T> extends ServedBuild<T> {
  identity: string;
  users: number;
  retired: boolean;
  /** Served from the build folder itself: no snapshot could be made there (see `snapshot`). */
  direct?: boolean;
}

/** Errors that say a snapshot cannot be made beside this build at all (a read-only or link-less file system). */
const CANNOT_SNAPSHOT = new Set(['EACCES', 'EPERM', 'EROFS', 'EXDEV', 'ENOTSUP', 'EMLINK']);

const SNAPSHOT_MARK = '.serving-';
/** Snapshots made by this thread, for unique folder names across every server and thread of the process. */
let snapshotCount = 0;
/** A new snapshot folder's name, beside the build folder `root`; a server removes those of processes that ended. */
export const snapshotName = (root: string) => `${root}${SNAPSHOT_MARK}${process.pid}-${threadId}-${++snapshotCount}`;

/** Which build a folder holds: a swap gives the folder a new inode. Null when there is no build. */
function identityOf(dist: string): string | null {
  try {
    const folder = statSync(dist);
    const manifest = statSync(path.join(dist, MANIFEST_PATH));
    return `${folder.dev}:${folder.ino}:${manifest.ino}`;
  } catch {
    return null;
  }
}

/** Snapshots left by a server of this build folder that is no longer running. */
function removeStaleSnapshots(dist: string): void {
  for (const dir of leftovers(path.resolve(dist), SNAPSHOT_MARK)) rmSync(dir, { recursive: true, force: true });
}

const cannotSnapshot = (error: unknown) => CANNOT_SNAPSHOT.has((error as NodeJS.ErrnoException).code ?? '');

/**
 * Links a snapshot of the build in `root`; if another swap lands while linking, links the new one. 'cannot'
 * where the file system allows no snapshot there (the build folder is then served as it is).
 */
function linkSnapshot(root: string, identity: string): { dir: string; identity: string } | 'cannot' | undefined {
  let expected = identity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = snapshotName(root);
    try {
      // Not recursive: a folder that is already there belongs to someone else and is left alone.
      mkdirSync(dir);
    } catch (error) {
      if (cannotSnapshot(error)) return 'cannot';
      continue;
    }
    try {
      linkTree(root, dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (cannotSnapshot(error)) return 'cannot';
      // The build was swapped or removed while it was being linked; try the folder as it is now.
      expected = identityOf(root) ?? expected;
      continue;
    }
    const after = identityOf(root);
    if (after === expected) return { dir, identity: expected };
    rmSync(dir, { recursive: true, force: true });
    if (after === null) return undefined;
    expected = after;
  }
  return undefined;
}

/**
 * Builds offered as snapshots by whoever makes them: `npm run dev`'s build thread writes each build into a
 * snapshot folder of its own and removes the ones the server retires, so the server's thread, which answers
 * requests, neither links nor removes ten thousand files per build, and never looks at the output folder,
 * which dev updates in place.
 */
export interface SnapshotFeed {
  /** The newest build's snapshot folder (its name is its identity: each build gets a new one). */
  latest(): string | undefined;
  /** Called once a retired snapshot has no request left on it. */
  remove(dir: string): void;
}

/**
 * Serves the builds written to `dist`. `prepare` makes what a build needs (its handler) from its snapshot
 * folder, once per build. Throws at the start when `dist` holds no build.
 */
export function createBuildSource<T>(dist: string, prepare: (dir: string) => T, feed?: SnapshotFeed): BuildSource<T> {
  const root = path.resolve(dist);
  removeStaleSnapshots(root);
  let current: Held<T> | undefined;
  const all = new Set<Held<T>>();

  const drop = (build: Held<T>) => {
    all.delete(build);
    if (build.direct) return;
    if (feed) feed.remove(build.dir);
    else rmSync(build.dir, { recursive: true, force: true });
  };

  /** The build in `root` now, from a snapshot, or from the folder itself where no snapshot can be made there. */
  const snapshot = (identity: string): Held<T> | undefined => {
    const made = linkSnapshot(root, identity);
    if (made === undefined) return undefined;
    if (made === 'cannot') {
      console.warn(
        `${dist}: no snapshot can be made beside it (read-only?); serving it directly (a request that spans a new build's swap may read from both)`,
      );
      return { dir: root, identity, value: prepare(root), users: 0, retired: false, direct: true };
    }
    return { dir: made.dir, identity: made.identity, value: prepare(made.dir), users: 0, retired: false };
  };

  const refresh = () => {
    const offered = feed?.latest();
    const identity = feed ? (offered ?? null) : identityOf(root);
    if (identity === null || identity === current?.identity) return;
    const next = offered ? { dir: offered, identity: offered, value: prepare(offered), users: 0, retired: false } : snapshot(identity);
    if (!next) return;
    all.add(next);
    const previous = current;
    current = next;
    if (previous) {
      previous.retired = true;
      if (previous.users === 0) drop(previous);
    }
  };

  refresh();
  if (!current) throw new Error(`${dist} holds no build`);

  return {
    acquire() {
      refresh();
      const build = current!;
      build.users++;
      return build;
    },
    release(build) {
      const held = build as Held<T>;
      held.users--;
      if (held.retired && held.users === 0) drop(held);
    },
    close() {
      // Removed here and now (with the digests a dev build records beside its snapshot): at shutdown there may
      // be no one else to remove them.
      for (const build of all) if (!build.direct) removeSnapshot(build.dir);
      all.clear();
      current = undefined;
    },
  };
}
