/**
 * The content files' witnesses for the nothing-changed check (build-fingerprint.ts): each regular file's
 * size, modification and change times, inode and digest as last hashed. A file whose stats are the recorded
 * ones is not read again (as git's index does); one changed within RACY_MS of the recording is, since a
 * coarse clock could hide an edit made in the same tick.
 */
import { statSync } from 'node:fs';
import { type FileStats, keptStats } from './load/file-stats.ts';
import { digestFile } from './content-digests.ts';

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

/** The separator of the record's paths and digests; a file whose name holds it is left out of the record (never trusted). */
const SEPARATOR = '\n';

/**
 * The witnesses as the build's record keeps them (build-fingerprint.ts): the paths and the digests each as one
 * string, each number column as one Float64Array. Read and written by V8's serializer, they cost an edit at
 * 100,000 articles some 8 ms each way, where the same columns as JSON (the numbers as text) cost 50 to 75.
 */
export interface WitnessColumns {
  at: number;
  paths: string;
  digests: string;
  sizes: Float64Array;
  mtimes: Float64Array;
  ctimes: Float64Array;
  inodes: Float64Array;
}

/** The witnesses a record holds, read back: the numbers left in the record's own arrays. */
export type Witnesses = Pick<ContentDigests, 'at' | 'paths' | 'digests'> &
  Record<'sizes' | 'mtimes' | 'ctimes' | 'inodes', ArrayLike<number>>;

/** The witnesses of a record, read back; undefined when they are of another shape (every file is then read). */
export function witnessesOf(columns: unknown): Witnesses | undefined {
  const table = columns as Partial<WitnessColumns> | undefined;
  if (typeof table?.at !== 'number' || typeof table.paths !== 'string' || typeof table.digests !== 'string') return undefined;
  const paths = table.paths === '' ? [] : table.paths.split(SEPARATOR);
  const digests = table.digests === '' && paths.length === 0 ? [] : table.digests.split(SEPARATOR);
  const { sizes, mtimes, ctimes, inodes } = table;
  const sized = (column: unknown): column is Float64Array => column instanceof Float64Array && column.length === paths.length;
  if (digests.length !== paths.length || !sized(sizes) || !sized(mtimes) || !sized(ctimes) || !sized(inodes)) return undefined;
  return { at: table.at, paths, digests, sizes, mtimes, ctimes, inodes };
}

/** The witnesses as the record keeps them; a file whose name or digest holds the separator is left out. */
export function witnessColumns(content: ContentDigests): WitnessColumns {
  const fits = (row: number) => !content.paths[row]!.includes(SEPARATOR) && !content.digests[row]!.includes(SEPARATOR);
  // Every row, as a rule: the columns are then joined and copied whole, without a call per row.
  const rows = content.paths.every((_, row) => fits(row)) ? undefined : content.paths.map((_, row) => row).filter(fits);
  const text = (cells: string[]) => (rows ? rows.map((row) => cells[row]!) : cells).join(SEPARATOR);
  const numbers = (cells: number[]) => Float64Array.from(rows ? rows.map((row) => cells[row]!) : cells);
  return {
    at: content.at,
    paths: text(content.paths),
    digests: text(content.digests),
    sizes: numbers(content.sizes),
    mtimes: numbers(content.mtimes),
    ctimes: numbers(content.ctimes),
    inodes: numbers(content.inodes),
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
