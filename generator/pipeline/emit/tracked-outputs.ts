/**
 * What the last `npm run build` made, per tracked output (output-tracker.ts): each file's input key and
 * digest, kept beside the output (`<out>.inputs.json`, safe to delete) with the identity of the folder it
 * describes. Trusted only while that folder is the one in place: a build cut short before it recorded its own
 * leaves the previous record, which names a folder no longer there. A carried file is still linked only when
 * the output's own record (previous-output.ts) has the same digest and the file is intact.
 *
 * The values of facts a build kept (output-tracker.ts `steadyKept`: list selections, groups and ranks by
 * position, counts) go into a file of their own (`<out>.kept.bin`, a structured clone), named in the record by
 * the digest of its bytes: a fresh process takes them as `npm run dev` takes its own, where it walked every
 * record to make them again. A steady build keeps the very values it read, so the file is not written again.
 * A file that is missing, or whose bytes are not the ones the record names (a build killed between writing
 * the two), is no kept value: each is made again.
 */
import { hash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { TrackedOutputs } from '../output-tracker.ts';
import type { RecordFacts } from '../edit-reach.ts';
import { fromColumns, toColumns } from './file-columns.ts';
import { identityOf } from './previous-output.ts';

const inputsFile = (outDir: string) => `${path.resolve(outDir)}.inputs.json`;
const keptFile = (outDir: string) => `${path.resolve(outDir)}.kept.bin`;

type Kept = NonNullable<TrackedOutputs['kept']>;
/** The kept values read from beside the output, with the digest of their file: kept as they were, not written again. */
const keptOnDisk = new WeakMap<Kept, string>();

/** Raise when the record changes shape: a record of another version is no record (the build makes everything). */
const VERSION = 4;

/** The record of the output in place, or undefined when there is none to trust. */
export function readTrackedOutputs(outDir: string): TrackedOutputs | undefined {
  try {
    const recorded = JSON.parse(readFileSync(inputsFile(outDir), 'utf8')) as {
      version: unknown;
      identity: unknown;
      files: unknown;
      groups: Record<string, { key: unknown; files: unknown }>;
      records?: { scoped: unknown; files: unknown };
      kept?: unknown;
    };
    if (recorded.version !== VERSION || typeof recorded.identity !== 'string' || recorded.identity !== identityOf(path.resolve(outDir)))
      return undefined;
    // A file anyone can edit: a table of any other shape is no record.
    const table = fromColumns(recorded.files, ['key', 'digest']);
    if (!table) return undefined;
    const files = new Map<string, [string, string]>();
    for (let row = 0; row < table.paths.length; row++) files.set(table.paths[row]!, [table.text.key![row]!, table.text.digest![row]!]);
    const groups = new Map<string, { key: string; files: string[] }>();
    for (const [name, group] of Object.entries(recorded.groups ?? {})) {
      if (typeof group?.key === 'string' && Array.isArray(group.files) && group.files.every((file) => typeof file === 'string'))
        groups.set(name, { key: group.key, files: group.files as string[] });
    }
    return { files, groups, records: recordFactsOf(recorded.records), kept: readKept(outDir, recorded.kept) };
  } catch {
    return undefined;
  }
}

/** The kept values beside the output when their file's bytes have `digest`; undefined otherwise. */
function readKept(outDir: string, digest: unknown): Kept | undefined {
  if (typeof digest !== 'string') return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(keptFile(outDir));
  } catch {
    return undefined;
  }
  if (hash('sha1', bytes, 'base64') !== digest) return undefined;
  const kept = deserialize(bytes) as Kept;
  keptOnDisk.set(kept, digest);
  return kept;
}

/** Writes the kept values (unless they are the ones read) and gives their file's digest; none: the file is removed. */
function writeKept(outDir: string, kept: Kept | undefined): string | undefined {
  const file = keptFile(outDir);
  if (!kept?.size) {
    rmSync(file, { force: true });
    return undefined;
  }
  const known = keptOnDisk.get(kept);
  if (known) return known;
  const bytes = serialize(kept);
  writeFileSync(`${file}.${process.pid}`, bytes);
  renameSync(`${file}.${process.pid}`, file);
  return hash('sha1', bytes, 'base64');
}

/** The published records' digests and facts (edit-reach.ts) as recorded; undefined for a table of another shape. */
function recordFactsOf(recorded: { scoped: unknown; files: unknown } | undefined): RecordFacts | undefined {
  const table = fromColumns(recorded?.files, ['digest', 'facts', 'shown']);
  if (!table || typeof recorded?.scoped !== 'string') return undefined;
  const { digest, facts, shown } = table.text;
  const byFile = new Map<string, [string, string, string]>();
  for (let row = 0; row < table.paths.length; row++) byFile.set(table.paths[row]!, [digest![row]!, facts![row]!, shown![row]!]);
  return { scoped: recorded.scoped, byFile };
}

/** Records what the build just put in place (`identity`); with nothing to record, removes the old record. */
export function recordTrackedOutputs(outDir: string, outputs: TrackedOutputs | undefined, identity: string | undefined): void {
  const file = inputsFile(outDir);
  if (!outputs || !identity) {
    rmSync(file, { force: true });
    rmSync(keptFile(outDir), { force: true });
    return;
  }
  const files = toColumns(outputs.files, { key: ([key]) => key, digest: ([, digest]) => digest });
  const records = outputs.records && {
    scoped: outputs.records.scoped,
    files: toColumns(outputs.records.byFile, { digest: ([digest]) => digest, facts: ([, facts]) => facts, shown: ([, , shown]) => shown }),
  };
  // The kept values' file first: the record names its digest, so a build killed in between leaves them apart.
  const kept = writeKept(outDir, outputs.kept);
  const record = { version: VERSION, identity, files, groups: Object.fromEntries(outputs.groups), records, kept };
  // Written whole, then renamed over the old one: a build killed while writing leaves no half record.
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(record));
  renameSync(`${file}.${process.pid}`, file);
}

/**
 * Takes the record of an output restored from a cache (the Netlify plugin) as the restored folder's, as
 * previous-output.ts does for the digests: a carried file is still linked only while the output's own
 * record, stamped anew, has its digest.
 */
export function adoptTrackedOutputs(outDir: string): void {
  const file = inputsFile(outDir);
  let recorded: Record<string, unknown>;
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  const identity = identityOf(path.resolve(outDir));
  if (!identity) return;
  writeFileSync(`${file}.${process.pid}`, JSON.stringify({ ...recorded, identity }));
  renameSync(`${file}.${process.pid}`, file);
}
