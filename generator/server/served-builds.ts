/**
 * The local server reads a build as one unit: each request takes the current build and keeps it to its end,
 * so it never mixes two builds (manifest, files, search index, ETags), and a request that starts after a new
 * build appears sees only the new one. Nothing here costs the server's thread more than a few calls,
 * whatever the size of the build:
 * - `npm run serve`: a build folder is read through a handle on the folder itself (a swap renames the folder
 *   away but the handle follows it), at once; a snapshot of hard links, which the build that replaces it
 *   cannot delete, is linked in the background and served once made (snapshot-linker.ts).
 * - `npm run dev`: the builder offers each build as a folder plus an overlay of changed files in memory
 *   (build-files.ts), and removes a folder once no build served uses it.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { MANIFEST_PATH } from '../shared/data-paths.ts';
import type { BuildFiles } from './build-files.ts';
import { type Linking, linkTreeInBackground, removeAfterExit, removeInBackground, removeStaleSnapshots } from './snapshot-linker.ts';

/** One build as the server serves it: its files, which no later build changes, and what was made from them. */
export interface ServedBuild<T> {
  files: BuildFiles;
  /** What the server made for this build (its handler and header rules). */
  value: T;
}

export interface BuildSource<T> {
  /**
   * The current build, held until `release`; a new build is picked up here, before any file of it is read.
   * Undefined only from a feed that has offered no build yet.
   */
  acquire(): ServedBuild<T> | undefined;
  release(build: ServedBuild<T>): void;
  /** Stops at once: folders left to remove are removed after the process ends. */
  close(): void;
}

/** Builds offered by whoever makes them (`npm run dev`'s builder). */
export interface BuildFeed {
  /** The newest build: a new object for each build. */
  latest(): BuildFiles | undefined;
  /** Called once no build served reads from `dir` any more (and it is not the newest build's). */
  remove(dir: string): void;
}

interface Held<T> extends ServedBuild<T> {
  users: number;
  retired: boolean;
  /** Called when the build is dropped: what it alone kept (a folder handle, a snapshot). */
  dispose(): void;
}

/** Snapshots and dev's bases are named `<root><mark><pid>-...` (leftovers.ts). */
export const SNAPSHOT_MARK = '.serving-';
/** Snapshots made by this thread, for unique folder names across every server and thread of the process. */
let snapshotCount = 0;
/** A new snapshot folder's name, beside the build folder `root`; a server removes those of processes that ended. */
export const snapshotName = (root: string) => `${root}${SNAPSHOT_MARK}${process.pid}-${threadId}-${++snapshotCount}`;

/** Which build a folder holds: a swap gives the folder a new inode. Null when there is no build. */
function buildIdentityOf(dist: string): string | null {
  try {
    const folder = statSync(dist);
    const manifest = statSync(path.join(dist, MANIFEST_PATH));
    return `${folder.dev}:${folder.ino}:${manifest.ino}`;
  } catch {
    return null;
  }
}

/** Keeps the held builds, the current one, and drops a retired build when its last request ends. */
function createHolder<T>() {
  let current: Held<T> | undefined;
  const all = new Set<Held<T>>();
  const drop = (build: Held<T>) => {
    all.delete(build);
    build.dispose();
  };
  return {
    all,
    current: () => current,
    serve(next: Held<T>) {
      all.add(next);
      const previous = current;
      current = next;
      if (previous) {
        previous.retired = true;
        if (previous.users === 0) drop(previous);
      }
    },
    source(refresh: () => void, close: () => void): BuildSource<T> {
      return {
        acquire() {
          refresh();
          const build = current;
          if (build) build.users++;
          return build;
        },
        release(build) {
          const held = build as Held<T>;
          held.users--;
          if (held.retired && held.users === 0) drop(held);
        },
        close() {
          current = undefined;
          close();
          all.clear();
        },
      };
    },
  };
}

/** A path that names the folder `dir` is now, even once it is renamed away: its handle, where the system has one. */
function openFolder(dir: string): { path: string; close(): void } {
  try {
    const fd = openSync(dir, 'r');
    const byHandle = `/proc/self/fd/${fd}`;
    let open = true;
    // Once only: a number closed twice could be another file's by then.
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    if (existsSync(path.join(byHandle, MANIFEST_PATH))) return { path: byHandle, close };
    close();
  } catch {
    // No handle on a folder here: it is read by its name.
  }
  return { path: dir, close: () => {} };
}

/** Serves the builds written to `dist` (`npm run serve`, tests). Throws at once when `dist` holds no build. */
export function createFolderSource<T>(dist: string, prepare: (files: BuildFiles) => T): BuildSource<T> {
  const root = path.resolve(dist);
  removeStaleSnapshots(root, SNAPSHOT_MARK);
  const holder = createHolder<T>();
  /** Snapshots made or being made, to remove at shutdown if the server stops before they are. */
  const snapshots = new Set<string>();
  /** Snapshots being linked, stopped at once when the server closes. */
  const linkings = new Set<Linking>();
  let identity: string | null = null;
  let stopped = false;

  const snapshotInBackground = (folder: Held<T>, served: string) => {
    const dir = snapshotName(root);
    snapshots.add(dir);
    const gone = () => {
      snapshots.delete(dir);
      removeInBackground(dir);
    };
    const linking = linkTreeInBackground(folder.files.dir, dir, () => stopped || holder.current() !== folder);
    linkings.add(linking);
    linking.done
      .finally(() => linkings.delete(linking))
      .then(
        () => {
          if (stopped) return;
          if (holder.current() !== folder || identity !== served) return gone();
          const files = { dir };
          holder.serve({ files, value: prepare(files), users: 0, retired: false, dispose: gone });
        },
        // Abandoned, or the folder was replaced (and deleted) while it was linked; or no links can be made there
        // (read-only, another file system): the folder goes on being served through its handle.
        gone,
      );
  };

  const refresh = () => {
    const now = buildIdentityOf(root);
    if (now === null || now === identity) return;
    identity = now;
    const folder = openFolder(root);
    const files = { dir: folder.path };
    const held: Held<T> = { files, value: prepare(files), users: 0, retired: false, dispose: folder.close };
    holder.serve(held);
    snapshotInBackground(held, now);
  };

  refresh();
  if (!holder.current()) throw new Error(`${dist} holds no build`);
  return holder.source(refresh, () => {
    stopped = true;
    for (const linking of linkings) linking.stop();
    for (const build of holder.all) if (!snapshots.has(build.files.dir)) build.dispose();
    removeAfterExit([...snapshots]);
  });
}

/** Serves the builds `feed` offers (`npm run dev`); a folder is handed back once no build served reads it. */
export function createFeedSource<T>(feed: BuildFeed, prepare: (files: BuildFiles) => T): BuildSource<T> {
  const holder = createHolder<T>();
  let offered: BuildFiles | undefined;
  const stillRead = (dir: string) => [...holder.all].some((build) => build.files.dir === dir) || offered?.dir === dir;
  const refresh = () => {
    const latest = feed.latest();
    if (!latest || latest === offered) return;
    offered = latest;
    const held: Held<T> = {
      files: latest,
      value: prepare(latest),
      users: 0,
      retired: false,
      // Called once the build has left `all`: its folder goes once no other build reads from it.
      dispose: () => stillRead(latest.dir) || feed.remove(latest.dir),
    };
    holder.serve(held);
  };
  refresh();
  return holder.source(refresh, () => {});
}
