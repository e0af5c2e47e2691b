/**
 * What the build keeps of a content file's stats. Node's `Stats` carries four `Date` objects beside its
 * numbers, about 0.8 KB of heap a file, and the build keeps every content file's from the nothing-changed
 * check (which takes them) to the end of the build (its record, and the scan's listing); a million articles
 * held 0.8 GB of it. This keeps the numbers the build reads and the kind of entry, some 0.1 KB.
 */
import { constants, type Stats } from 'node:fs';

/** The part of `Stats` the build reads: a `Stats` is one too. */
export type FileStats = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>;

class KeptStats implements FileStats {
  readonly #type: number;
  constructor(
    readonly dev: number,
    readonly ino: number,
    readonly size: number,
    readonly mtimeMs: number,
    readonly ctimeMs: number,
    /** The kind of entry: `mode & S_IFMT`. */
    type: number,
  ) {
    this.#type = type;
  }
  isFile() {
    return this.#type === constants.S_IFREG;
  }
  isDirectory() {
    return this.#type === constants.S_IFDIR;
  }
  isSymbolicLink() {
    return this.#type === constants.S_IFLNK;
  }
}

/** `stats` with only what the build reads kept. */
export const keptStats = (stats: Stats): FileStats =>
  new KeptStats(stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs, stats.mode & constants.S_IFMT);

/** What a listing's entry says of its kind (a `Dirent`, or stats). */
export type EntryKind = Pick<FileStats, 'isFile' | 'isDirectory' | 'isSymbolicLink'>;

/** The kind of an entry as a number (`S_IFREG`, `S_IFDIR`, `S_IFLNK`; 0 for any other), to hand to another thread. */
export const kindCode = (entry: EntryKind): number =>
  entry.isFile() ? constants.S_IFREG : entry.isDirectory() ? constants.S_IFDIR : entry.isSymbolicLink() ? constants.S_IFLNK : 0;

/** Stats handed over by another thread as numbers (kindCode's for the kind). */
export const statsOf = (dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number, kind: number): FileStats =>
  new KeptStats(dev, ino, size, mtimeMs, ctimeMs, kind);

const KINDS = new Map([constants.S_IFREG, constants.S_IFDIR, constants.S_IFLNK, 0].map((kind) => [kind, statsOf(0, 0, 0, 0, 0, kind)]));

/** An entry's kind alone, one object per kind, for a listing handed over by another thread. */
export const kindOf = (kind: number): EntryKind => KINDS.get(kind) ?? KINDS.get(0)!;
