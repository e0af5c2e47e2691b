/**
 * What the previous build wrote, so the next can link the files whose bytes have not changed instead of
 * writing them: a digest of every written file, with its size, modification time and inode as the build
 * left it, kept beside the output (safe to delete) with the identity of the folder it describes: the rows in
 * parts (`<out>.digests/`, table-parts.ts), named by an index (`<out>.digests.json`). A folder replaced or
 * removed since is not trusted, and neither is a file whose size, time or inode moved (changed or replaced by
 * hand): it is written again.
 */
import { hash, randomUUID } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeWhole } from '../whole-file.ts';
import { PartedTable, type PartsPlace, partsIndexOf, type RowLayout, readPartColumns, writeParts } from './table-parts.ts';

/** A file as the build left it: its digest, size, modification time and inode. */
export type FileRecord = [digest: string, size: number, mtimeMs: number, ino: number];

export interface PreviousOutput {
  dir: string;
  digests: ReadonlyMap<string, string>;
  /** Each file as the build left it; without them (a dev snapshot nobody edits), digests alone are trusted. */
  records?: ReadonlyMap<string, FileRecord>;
  /** The digest of the record's bytes as read (damage-check.ts takes its answer only for the same record). */
  recordDigest?: string;
  /** The bytes of every file the record names, summed as it was read. */
  bytes?: number;
  /** The record's stamp (recordOutput): the tracked outputs' record names the one it was written with. */
  stamp?: string;
}

export const digestsFile = (target: string) => `${target}.digests.json`;

/** An output folder's identity: its device and inode, which an atomic swap changes and a rename keeps. */
export function identityOf(dir: string): string | undefined {
  try {
    const stats = statSync(dir);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/** The record of a file just written or linked at `file`. */
export function witness(digest: string, file: string): FileRecord {
  const stats = statSync(file);
  return [digest, stats.size, stats.mtimeMs, stats.ino];
}

/** Whether `file` is still the one recorded: same size, modification time and inode. */
export function isIntact(file: string, record: FileRecord | undefined): boolean {
  return !!record && isAsRecorded(file, record[1], record[2], record[3]);
}

function isAsRecorded(file: string, size: number, mtimeMs: number, ino: number): boolean {
  const stats = statSync(file, { throwIfNoEntry: false });
  return !!stats && stats.size === size && stats.mtimeMs === mtimeMs && stats.ino === ino;
}

/** A recorded path under the output folder `dir` (resolved): path.join's normalising, per file, took a tenth of the damage check. */
const under = (dir: string, file: string) => `${dir}/${file}`;

/** Raise when the record changes shape: a record of another version is no record (the build writes every file). */
const VERSION = 3;

/** Where the record's rows are (table-parts.ts): `<out>.digests/`, named by the index `<out>.digests.json`. */
const partsOf = (target: string): PartsPlace => ({ dir: `${target}.digests`, prefix: '' });

/** 233,000 rows at 100,000 articles, of which an edit reaches a few hundred (its outputs and those made every build). */
const ROWS: RowLayout<FileRecord> = {
  spread: 2048,
  text: { digest: (record) => record[0] },
  numbers: { size: (record) => record[1], time: (record) => record[2], inode: (record) => record[3] },
  row: (text, numbers, at) => [text.digest![at]!, numbers.size![at]!, numbers.time![at]!, numbers.inode![at]!],
  weight: (record) => record[1],
};

/** The record's index (`bytes`, else read): the folder it describes, its stamp and its parts; undefined when it is of another shape. */
function readIndex(target: string, bytes?: Buffer) {
  try {
    const recorded = JSON.parse((bytes ?? readFileSync(digestsFile(target))).toString('utf8')) as Record<string, unknown>;
    const parts = recorded.version === VERSION ? partsIndexOf(recorded.parts, ROWS) : undefined;
    if (!parts || typeof recorded.stamp !== 'string') return undefined;
    return { identity: recorded.identity, stamp: recorded.stamp, parts };
  } catch {
    return undefined;
  }
}

/** Every file's record, by path, read part by part as asked (table-parts.ts); undefined when the index cannot be read. */
function readRecords(target: string, bytes?: Buffer) {
  const index = readIndex(target, bytes);
  if (!index) return undefined;
  const records = new PartedTable(partsOf(target), ROWS, index.parts);
  return { identity: index.identity, stamp: index.stamp, records, bytes: records.weight() };
}

/**
 * Each file's digest, read from its record: a map of its own, 233,000 entries at 100,000 articles, cost a
 * fresh build's edit a tenth of a second and as much again for the garbage collector.
 */
class DigestsOf implements ReadonlyMap<string, string> {
  constructor(private readonly records: ReadonlyMap<string, FileRecord>) {}
  get size() {
    return this.records.size;
  }
  get(file: string) {
    return this.records.get(file)?.[0];
  }
  has(file: string) {
    return this.records.has(file);
  }
  keys() {
    return this.records.keys();
  }
  *values(): MapIterator<string> {
    for (const record of this.records.values()) yield record[0];
  }
  *entries(): MapIterator<[string, string]> {
    for (const [file, record] of this.records) yield [file, record[0]];
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(each: (digest: string, file: string, map: ReadonlyMap<string, string>) => void) {
    for (const [file, record] of this.records) each(record[0], file, this);
  }
}

/**
 * The damage check's answer for the record whose index is `bytes` (damage-thread.ts): its digest and the files
 * changed or removed since, found from every part's columns (no map or array per file: 233,000 files at 100,000
 * articles); undefined when the record is not one to trust for the folder in place, or a part is no part.
 * `claim` gives the next part to check, where two threads share the parts (damage-check.ts help); by default
 * every part is checked here.
 */
export function damageOf(target: string, bytes: Buffer, claim?: () => number): { record: string; damaged: string[] } | undefined {
  const index = readIndex(target, bytes);
  if (!index || index.identity !== identityOf(target)) return undefined;
  const damaged: string[] = [];
  const columns = { text: Object.keys(ROWS.text), numbers: Object.keys(ROWS.numbers) };
  const parts = [...index.parts.entries()];
  let next = 0;
  for (let at = claim ? claim() : next++; at < parts.length; at = claim ? claim() : next++) {
    const [part, entry] = parts[at]!;
    const table = readPartColumns(partsOf(target), part, entry, columns);
    if (!table) return undefined;
    const { size, time, inode } = table.numbers;
    for (let row = 0; row < table.paths.length; row++)
      if (!isAsRecorded(under(target, table.paths[row]!), size![row]!, time![row]!, inode![row]!)) damaged.push(table.paths[row]!);
  }
  return { record: hash('sha1', bytes, 'base64'), damaged };
}

/** The previous build's records as `bytes` (the record's index) say, when the folder they describe is still the one in place. */
function previousOutputOf(target: string, bytes: Buffer): PreviousOutput | undefined {
  const recorded = readRecords(target, bytes);
  if (!recorded || recorded.identity !== identityOf(target)) return undefined;
  const { records, stamp } = recorded;
  return {
    dir: target,
    records,
    digests: new DigestsOf(records),
    recordDigest: hash('sha1', bytes, 'base64'),
    bytes: recorded.bytes,
    stamp,
  };
}

/** The previous build's records, when the folder they describe is still the one in place. */
export function readPreviousOutput(target: string): PreviousOutput | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(digestsFile(target));
  } catch {
    return undefined;
  }
  return previousOutputOf(target, bytes);
}

/**
 * How many files of the output's record were changed or removed since it was written: `found` (the damage
 * check's answer) when it is for this very record (the digest of its bytes), else a stat of each file;
 * undefined when there is no record to trust for the folder in place. No map of the record is made: with
 * nothing changed, the damage check's answer is all that is asked of 233,000 rows at 100,000 articles.
 */
export function damagedCount(target: string, found?: { record: string; damaged: ReadonlySet<string> }): number | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(digestsFile(target));
  } catch {
    return undefined;
  }
  if (found && found.record === hash('sha1', bytes, 'base64')) return found.damaged.size;
  return damageOf(target, bytes)?.damaged.length;
}

/** The journal of an update in place (update-in-place.ts): the files it is replacing or removing. */
export const journalFile = (target: string) => `${target}.journal.json`;

/** The files a build cut short may have left half updated, or undefined when no update was under way. */
export function readJournal(target: string): Set<string> | undefined {
  let text: string;
  try {
    text = readFileSync(journalFile(target), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return new Set();
  }
  try {
    const { files } = JSON.parse(text) as { files: unknown };
    return new Set(Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : []);
  } catch {
    // Unreadable: some update was under way, and which files it touched is unknown.
    return new Set();
  }
}

export function removeJournal(target: string): void {
  rmSync(journalFile(target), { force: true });
}

/** Writes `data` as JSON whole into a file beside `file`, then renames it over `file`: never half a record. */
export function writeJsonWhole(file: string, data: unknown): void {
  writeWhole(file, JSON.stringify(data));
}

/**
 * Records the files of the build now in place, in the folder whose identity is `identity`: the parts first (only
 * the changed ones when `files` is the record read from beside this output), then the index that names them.
 * Gives the record's stamp, which the tracked outputs' record keeps to say it was written with this one.
 */
export function recordOutput(
  target: string,
  files: ReadonlyMap<string, FileRecord>,
  identity = identityOf(target),
  stamp: string = randomUUID(),
): string {
  const parts = writeParts(partsOf(target), files, ROWS);
  writeJsonWhole(digestsFile(target), { version: VERSION, identity, stamp, parts: parts.index });
  parts.removeOld();
  return stamp;
}

/** Forgets the records while the output is changed in place, so that an update cut short is not trusted; `parts`: their rows too. */
export function forgetOutput(target: string, parts = false): void {
  rmSync(digestsFile(target), { force: true });
  if (parts) rmSync(partsOf(target).dir, { recursive: true, force: true });
}

/**
 * Takes an output restored from a cache (Netlify's build cache, netlify/plugins/build-cache) as the one its
 * records describe: the restore gave its folder and files new inodes and times, so the records are stamped
 * anew, keeping only the files still at their recorded size. Trusts the cache's bytes; `--force` does not.
 * Returns how many files were adopted, or undefined when there was no record to adopt.
 */
export function adoptRestoredOutput(target: string): number | undefined {
  const recorded = readRecords(target);
  if (!recorded) return undefined;
  const files = new Map<string, FileRecord>();
  for (const [file, value] of recorded.records) {
    const stats = statSync(path.join(target, file), { throwIfNoEntry: false });
    if (stats?.isFile() && stats.size === value[1]) files.set(file, [value[0], stats.size, stats.mtimeMs, stats.ino]);
  }
  // The same files: the tracked outputs' record, restored with it, still agrees with it (its stamp is kept).
  recordOutput(target, files, identityOf(target), files.size === recorded.records.size ? recorded.stamp : undefined);
  return files.size;
}
