/**
 * The files of one build as the local server reads them: a folder on disk, and in `npm run dev` an overlay of
 * the files that changed since that folder was written, held in memory. An edit then costs the server what
 * it changed, never a tree of links or copies of the whole site (the dev builder sends only changed files).
 */
import { lstat, readFile } from 'node:fs/promises';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/** A changed file's bytes, or null for a file removed since the folder was written. */
export type Overlay = ReadonlyMap<string, OverlayFile | null>;

export interface OverlayFile {
  bytes: Uint8Array;
  /** When this version was made: serve-handler keys its ETag cache by path and modification time. */
  mtime: Date;
}

export interface BuildFiles {
  /** The folder every file not in the overlay is read from. */
  dir: string;
  /** Paths relative to `dir`, with `/`. */
  overlay?: Overlay | undefined;
}

/** The overlay after a build that changed `changed` and removed `removed`; the previous overlay is left as it was. */
export function applyChanges(
  previous: Overlay | undefined,
  changed: ReadonlyArray<{ path: string; bytes: Uint8Array }>,
  removed: readonly string[],
  mtime: Date,
): Overlay {
  const next = new Map(previous ?? []);
  for (const file of changed) next.set(file.path, { bytes: file.bytes, mtime });
  for (const file of removed) next.set(file, null);
  return next;
}

/** The entries of `overlay` at `paths` only (those after a new base was written from the build before them). */
export function keepOnly(overlay: Overlay | undefined, paths: readonly string[]): Overlay {
  const kept = new Map<string, OverlayFile | null>();
  for (const file of paths) {
    const entry = overlay?.get(file);
    if (entry !== undefined) kept.set(file, entry);
  }
  return kept;
}

const notFound = (file: string) => Object.assign(new Error(`ENOENT: no such file, ${file}`), { code: 'ENOENT' });

/** The key of an absolute path under `dir` in the overlay; undefined outside `dir`. */
function keyOf(files: BuildFiles, absolute: string): string | undefined {
  const relative = path.relative(files.dir, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** A file's bytes, from the overlay or the folder; null when the build has no such file. */
export async function readBuildFile(files: BuildFiles, relative: string): Promise<Uint8Array | null> {
  const entry = files.overlay?.get(relative);
  if (entry !== undefined) return entry?.bytes ?? null;
  try {
    return new Uint8Array(await readFile(path.join(files.dir, relative)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/** The same, synchronously, for the few small files read once per build (the header rules). */
export function readBuildFileSync(files: BuildFiles, relative: string): Uint8Array | null {
  const entry = files.overlay?.get(relative);
  if (entry !== undefined) return entry?.bytes ?? null;
  try {
    return readFileSync(path.join(files.dir, relative));
  } catch {
    return null;
  }
}

/** Whether the build has a folder at `relative` (`a/b`): on disk, unless the overlay removed all of it, or only in the overlay. */
export function isBuildFolder(files: BuildFiles, relative: string): boolean {
  if (files.overlay && overlayHasFolder(files.overlay, relative)) return true;
  try {
    return statSync(path.join(files.dir, relative)).isDirectory();
  } catch {
    return false;
  }
}

/** Whether the overlay adds a file under the folder `key` (a new record's page folder). */
function overlayHasFolder(overlay: Overlay, key: string): boolean {
  const prefix = `${key}/`;
  for (const [file, entry] of overlay) if (entry && file.startsWith(prefix)) return true;
  return false;
}

const fileStats = (entry: OverlayFile) => ({
  size: entry.bytes.byteLength,
  mtime: entry.mtime,
  isFile: () => true,
  isDirectory: () => false,
  isSymbolicLink: () => false,
});
const folderStats = () => ({ size: 0, mtime: new Date(0), isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false });

/**
 * serve-handler's file-system methods over the overlay: a file in it is stat'ed and streamed from memory, a
 * removed one is not found, and everything else is the folder's. Undefined without an overlay.
 */
export function overlayMethods(files: BuildFiles): unknown {
  const overlay = files.overlay;
  if (!overlay || overlay.size === 0) return undefined;
  return {
    lstat: async (absolute: string) => {
      const key = keyOf(files, absolute);
      const entry = key === undefined ? undefined : overlay.get(key);
      if (entry === null) throw notFound(absolute);
      if (entry) return fileStats(entry);
      try {
        return await lstat(absolute);
      } catch (error) {
        if (key !== undefined && overlayHasFolder(overlay, key)) return folderStats();
        throw error;
      }
    },
    createReadStream: (absolute: string, options: { start?: number; end?: number } = {}) => {
      const key = keyOf(files, absolute);
      const entry = key === undefined ? undefined : overlay.get(key);
      // Synchronous, as serve-handler's ETag digest expects.
      if (!entry) return createReadStream(absolute, options);
      const end = options.end === undefined ? entry.bytes.byteLength : options.end + 1;
      return Readable.from([
        Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength).subarray(options.start ?? 0, end),
      ]);
    },
  };
}
