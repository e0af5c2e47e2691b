/**
 * The content files' witnesses for the nothing-changed check (build-fingerprint.ts): each regular file's
 * size, modification and change times, inode and digest as last hashed. A file whose stats are the recorded
 * ones is not read again (as git's index does); one changed within RACY_MS of the recording is, since a
 * coarse clock could hide an edit made in the same tick.
 */
import { statSync } from 'node:fs';
import { type FileStats, keptStats } from './load/file-stats.ts';
import { digestFile } from './content-digests.ts';
import { type Columns, columnsOf, fromColumns } from './emit/file-columns.ts';

/**
 * The content files' digests as columns, one row per regular file in the order of the walk (the listing's),
 * and when they were taken. Rows rather than a map of small arrays: at 100,000 files the check built an
 * array and a map entry per file twice (the record read, the record made) to compare one stat with one row.
 */
export interface ContentDigests {
  at: number;
  paths: string[];
  digests: string[];
  sizes: number[];
  mtimes: number[];
  ctimes: number[];
  inodes: number[];
}

export const noDigests = (at: number): ContentDigests => ({ at, paths: [], digests: [], sizes: [], mtimes: [], ctimes: [], inodes: [] });

export function addDigest(content: ContentDigests, name: string, stats: FileStats, digest: string): void {
  content.paths.push(name);
  content.digests.push(digest);
  content.sizes.push(stats.size);
  content.mtimes.push(stats.mtimeMs);
  content.ctimes.push(stats.ctimeMs);
  content.inodes.push(stats.ino);
}

/**
 * The witnesses as the build's record keeps them (build-fingerprint.ts): a table of columns (file-columns.ts),
 * each number column as one Float64Array. Read and written by V8's serializer, they cost an edit at 100,000
 * articles some 8 ms each way, where the same columns as JSON (the numbers as text) cost 50 to 75.
 */
export interface WitnessColumns {
  at: number;
  files: Omit<Columns, 'numbers'> & { numbers: Record<'size' | 'mtime' | 'ctime' | 'ino', Float64Array> };
}

/** The witnesses a record holds, read back: the numbers left in the record's own arrays. */
export type Witnesses = Pick<ContentDigests, 'at' | 'paths' | 'digests'> &
  Record<'sizes' | 'mtimes' | 'ctimes' | 'inodes', ArrayLike<number>>;

/** The witnesses of a record, read back; undefined when they are of another shape (every file is then read). */
export function witnessesOf(columns: unknown): Witnesses | undefined {
  const witnesses = columns as Partial<WitnessColumns> | undefined;
  const table = fromColumns(witnesses?.files, ['digest']);
  if (!table || typeof witnesses?.at !== 'number') return undefined;
  const sized = (column: unknown): column is Float64Array => column instanceof Float64Array && column.length === table.paths.length;
  const { size, mtime, ctime, ino }: Partial<Record<string, unknown>> = witnesses.files!.numbers ?? {};
  if (!sized(size) || !sized(mtime) || !sized(ctime) || !sized(ino)) return undefined;
  return { at: witnesses.at, paths: table.paths, digests: table.text.digest!, sizes: size, mtimes: mtime, ctimes: ctime, inodes: ino };
}

/** The witnesses as the record keeps them (a file whose name holds the table's separator is left out: file-columns.ts). */
export function witnessColumns(content: ContentDigests): WitnessColumns {
  const { numbers, ...table } = columnsOf(
    content.paths,
    { digest: content.digests },
    { size: content.sizes, mtime: content.mtimes, ctime: content.ctimes, ino: content.inodes },
  );
  const typed = (name: string) => Float64Array.from(numbers[name]!);
  return {
    at: content.at,
    files: { ...table, numbers: { size: typed('size'), mtime: typed('mtime'), ctime: typed('ctime'), ino: typed('ino') } },
  };
}

/** Changes this close to the recording are checked by their bytes, whatever their times say. */
const RACY_MS = 2000;

/**
 * Each content file's digest, taken from `known` where the file is provably the one hashed then. The walk
 * and the record are in the same order unless files were added or removed, so each name is first looked for
 * in the record's next row; a map of the record's rows is made only when that misses.
 */
export function digestContent(known: Witnesses | undefined) {
  const content = noDigests(Date.now());
  const taken = new Map<string, FileStats>();
  let reread = false;
  /** The files whose bytes are not the recorded ones, or that the record does not name. */
  const edited = new Set<string>();
  const seen = new Uint8Array(known?.paths.length ?? 0);
  const trustedBefore = (known?.at ?? 0) - RACY_MS;
  let next = 0;
  let rows: Map<string, number> | undefined;
  const rowOf = (name: string): number | undefined => {
    if (!known) return undefined;
    if (known.paths[next] === name) return next++;
    rows ??= new Map(known.paths.map((file, row) => [file, row]));
    const row = rows.get(name);
    if (row !== undefined) next = row + 1;
    return row;
  };
  const digestOf = (file: string, name: string) => {
    const stats = keptStats(statSync(file));
    taken.set(name, stats);
    // The record is a file anyone can edit: its columns were checked as they were read (witnessesOf).
    const row = rowOf(name);
    const same =
      row !== undefined &&
      known!.sizes[row] === stats.size &&
      known!.mtimes[row] === stats.mtimeMs &&
      known!.ctimes[row] === stats.ctimeMs &&
      known!.inodes[row] === stats.ino &&
      Math.max(stats.mtimeMs, stats.ctimeMs) < trustedBefore;
    reread ||= !same;
    const digest = same ? known!.digests[row]! : digestFile(file);
    if (row === undefined || digest !== known!.digests[row]) edited.add(name);
    if (row !== undefined) seen[row] = 1;
    addDigest(content, name, stats, digest);
    return digest;
  };
  /** The files edited, added or removed since the record was made (once every file was digested); undefined without a record. */
  const changed = (): ReadonlySet<string> | undefined => {
    if (!known) return undefined;
    const files = new Set(edited);
    for (let row = 0; row < seen.length; row++) if (!seen[row]) files.add(known.paths[row]!);
    return files;
  };
  return { digestOf, content, reread: () => reread, stats: taken, changed };
}
