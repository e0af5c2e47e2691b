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
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly #type: number;
  constructor(stats: Stats) {
    this.dev = stats.dev;
    this.ino = stats.ino;
    this.size = stats.size;
    this.mtimeMs = stats.mtimeMs;
    this.ctimeMs = stats.ctimeMs;
    this.#type = stats.mode & constants.S_IFMT;
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
export const keptStats = (stats: Stats): FileStats => new KeptStats(stats);
