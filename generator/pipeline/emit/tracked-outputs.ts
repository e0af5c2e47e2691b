/**
 * What the last `npm run build` made, per tracked output (output-tracker.ts): each file's input key and
 * digest, kept beside the output (safe to delete) with the identity of the folder it describes: the rows in parts
 * (`<out>.inputs/`, table-parts.ts) with the published records' facts (edit-reach.ts), named by an index
 * (`<out>.inputs.json`) that also names the stamp of the output's record it was written with (previous-output.ts).
 * Trusted only while that folder is the one in place: a build cut short before it recorded its own
 * leaves the previous record, which names a folder no longer there. A carried file is still linked only when
 * the output's own record has the same digest and the file is intact.
 *
 * The values of facts a build kept (output-tracker.ts `steadyKept`: list selections, groups and ranks by
 * position, counts) go into a file of their own (`<out>.kept.bin`, a structured clone), named in the record by
 * the digest of its bytes: a fresh process takes them as `npm run dev` takes its own, where it walked every
 * record to make them again. A steady build keeps the very values it read, so the file is not written again.
 * A file that is missing, or whose bytes are not the ones the record names (a build killed between writing
 * the two), is no kept value: each is made again.
 */
import { hash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { TrackedOutputs } from '../output-tracker.ts';
import type { RecordFacts } from '../edit-reach.ts';
import { PartedTable, type PartsPlace, partsAreWhole, partsIndexOf, type RowLayout, writeParts } from './table-parts.ts';
import { identityOf, writeJsonWhole } from './previous-output.ts';
import { writeWhole } from '../whole-file.ts';

const inputsFile = (outDir: string) => `${path.resolve(outDir)}.inputs.json`;
const keptFile = (outDir: string) => `${path.resolve(outDir)}.kept.bin`;

type Kept = NonNullable<TrackedOutputs['kept']>;
/** The kept values read from beside the output, with the digest of their file: kept as they were, not written again. */
const keptOnDisk = new WeakMap<Kept, string>();

/** Raise when the record changes shape: a record of another version is no record (the build makes everything). */
const VERSION = 5;

/** Where the record's two tables are (table-parts.ts): the outputs' keys and digests, and the records' facts. */
const filesPlace = (outDir: string): PartsPlace => ({ dir: `${path.resolve(outDir)}.inputs`, prefix: 'f' });
const recordsPlace = (outDir: string): PartsPlace => ({ dir: `${path.resolve(outDir)}.inputs`, prefix: 'r' });

/** As many rows as the output's record (previous-output.ts), and as few reached. */
const FILES: RowLayout<[string, string]> = {
  spread: 2048,
  text: { key: ([key]) => key, digest: ([, digest]) => digest },
  numbers: {},
  row: (text, _, at) => [text.key![at]!, text.digest![at]!],
};
/** Read whole only where a fresh process's reach cannot start from the changed files (build-tracking.ts), written where an edit falls. */
const RECORDS: RowLayout<[string, string, string]> = {
  spread: 64,
  text: { digest: ([digest]) => digest, facts: ([, facts]) => facts, shown: ([, , shown]) => shown },
  numbers: {},
  row: (text, _, at) => [text.digest![at]!, text.facts![at]!, text.shown![at]!],
};

interface Recorded {
  version: unknown;
  identity: unknown;
  output: unknown;
  files: unknown;
  groups: Record<string, { key: unknown; files: unknown }>;
  records?: { scoped: unknown; parts: unknown };
  kept?: unknown;
}

/** The record's index as `text` holds it, when it is of this version and names the folder in place. */
function indexOf(outDir: string, text: string): Recorded | undefined {
  const recorded = JSON.parse(text) as Recorded;
  if (recorded.version !== VERSION || typeof recorded.identity !== 'string' || recorded.identity !== identityOf(path.resolve(outDir)))
    return undefined;
  return recorded;
}

/** The record of the output in place, or undefined when there is none to trust. Its tables are read part by part as asked. */
export function readTrackedOutputs(outDir: string): TrackedOutputs | undefined {
  try {
    const text = readFileSync(inputsFile(outDir), 'utf8');
    const recorded = indexOf(outDir, text);
    // A file anyone can edit: an index of any other shape is no record.
    const parts = partsIndexOf(recorded?.files, FILES);
    if (!recorded || !parts || typeof recorded.output !== 'string') return undefined;
    const groups = new Map<string, { key: string; files: string[] }>();
    for (const [name, group] of Object.entries(recorded.groups ?? {})) {
      if (typeof group?.key === 'string' && Array.isArray(group.files) && group.files.every((file) => typeof file === 'string'))
        groups.set(name, { key: group.key, files: group.files as string[] });
    }
    return {
      files: new PartedTable(filesPlace(outDir), FILES, parts),
      groups,
      records: recordFactsOf(outDir, recorded.records),
      kept: readKept(outDir, recorded.kept),
      onDisk: { record: hash('sha1', text, 'base64'), output: recorded.output },
    };
  } catch {
    return undefined;
  }
}

/**
 * The digest of the record's index when every part it names holds the bytes it names (the damage check asks it
 * in its own thread): only then may a build keep files it never names, whose rows it never reads.
 */
export function wholeTrackedOutputs(outDir: string): string | undefined {
  try {
    const text = readFileSync(inputsFile(outDir), 'utf8');
    const recorded = indexOf(outDir, text);
    const files = partsIndexOf(recorded?.files, FILES);
    const records = partsIndexOf(recorded?.records?.parts, RECORDS);
    if (!files || !partsAreWhole(filesPlace(outDir), files) || (records && !partsAreWhole(recordsPlace(outDir), records))) return undefined;
    return hash('sha1', text, 'base64');
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
  writeWhole(file, bytes);
  return hash('sha1', bytes, 'base64');
}

/** The published records' digests and facts (edit-reach.ts) as recorded; undefined for an index of another shape. */
function recordFactsOf(outDir: string, recorded: Recorded['records']): RecordFacts | undefined {
  const parts = partsIndexOf(recorded?.parts, RECORDS);
  if (!parts || typeof recorded?.scoped !== 'string') return undefined;
  return { scoped: recorded.scoped, byFile: new PartedTable(recordsPlace(outDir), RECORDS, parts) };
}

/**
 * Records what the build just put in place (`identity`), written with the output's record whose stamp is
 * `output` (previous-output.ts); with nothing to record, removes the old record.
 */
export function recordTrackedOutputs(
  outDir: string,
  outputs: TrackedOutputs | undefined,
  identity: string | undefined,
  output: string | undefined,
): void {
  const file = inputsFile(outDir);
  if (!outputs || !identity || !output) {
    rmSync(file, { force: true });
    rmSync(keptFile(outDir), { force: true });
    return;
  }
  // The parts and the kept values' file first: the index names their digests, so a build killed in between leaves them apart.
  const files = writeParts(filesPlace(outDir), outputs.files, FILES);
  const facts = outputs.records && writeParts(recordsPlace(outDir), outputs.records.byFile, RECORDS);
  const records = outputs.records && { scoped: outputs.records.scoped, parts: facts!.index };
  const kept = writeKept(outDir, outputs.kept);
  const record = { version: VERSION, identity, output, files: files.index, groups: Object.fromEntries(outputs.groups), records, kept };
  // Written whole, then renamed over the old one: a build killed while writing leaves no half record.
  writeJsonWhole(file, record);
  // Only then the parts it no longer names.
  files.removeOld();
  facts?.removeOld();
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
  writeJsonWhole(file, { ...recorded, identity });
}
