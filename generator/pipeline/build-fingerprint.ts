/**
 * When nothing that goes into a build has changed, `npm run build` says so and writes nothing. What goes in:
 * every file of the content folder (its bytes), the generator's own sources and locked dependencies, the Node
 * version, every setting (build-settings.ts's resolved object, hashed whole, fixed time included) and, without
 * a fixed time, the build's day (scheduled records go live by the day). The fingerprint of the last build is kept beside its output (`<out>.build.bin`, safe to delete) with
 * the identity of the folder it built, so an output replaced or removed since is built again.
 * Light on purpose: the command checks it before it loads the generator. A content file is read again only
 * when its witness says it may have changed (content-witnesses.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { writeWhole } from './whole-file.ts';
import { damagedCount, identityOf, readJournal } from './emit/previous-output.ts';
import type { BuildSettings } from './build-settings.ts';
import type { DamageCheck } from './emit/damage-check.ts';
import { type ContentNames, listNames } from './load/list-names.ts';
import { type FileStats, keptStats } from './load/file-stats.ts';
import {
  addDigest,
  type ContentDigests,
  digestContent,
  noDigests,
  type WitnessColumns,
  witnessColumns,
  witnessesOf,
} from './content-witnesses.ts';

const GENERATOR_DIR = fileURLToPath(new URL('../', import.meta.url));
const LOCK_FILE = fileURLToPath(new URL('../../package-lock.json', import.meta.url));
export interface BuildInputs {
  contentDir: string;
  outDir: string;
  /** Every setting of the build, resolved (build-settings.ts): hashed whole. */
  settings: BuildSettings;
}

export interface Fingerprint {
  value: string;
  /** The part without the content: the generator, its dependencies, Node and the settings (output-tracker.ts's scope). */
  generator: string;
  content: ContentDigests;
  /** Whether any content file had to be read (changed, or touched, since the record was made). */
  reread: boolean;
  /** Each regular content file's stats, by path: the build's scan of the folder takes them rather than a second stat. */
  stats: Map<string, FileStats>;
  /** The content folder's names as listed for the check: the build's scan takes them rather than list it again. */
  listing: ContentNames;
  /** The last build's record as read for the witnesses (readUnchangedBuild takes it rather than read it again). */
  recorded: RecordedBuild<unknown> | undefined;
  /**
   * The content files edited, added or removed since the last build's witnesses, with the stamp of the output's
   * record that build wrote (previous-output.ts): a build whose tracked outputs' record names the same stamp
   * was made from those witnesses' bytes, so only these files can differ from it. Undefined when not known.
   */
  changed?: { files: ReadonlySet<string>; output: string } | undefined;
}

/** What the last build reported, to say again when nothing has changed. */
export interface RecordedBuild<S> {
  identity: string;
  fingerprint: string;
  /** The content files' witnesses as columns (content-witnesses.ts): at 100,000 files, an object per file took seconds to read and write. */
  content?: WitnessColumns;
  /** The stamp of the output's record written by the build these witnesses are of (previous-output.ts). */
  output?: string;
  summary: S;
}

/** `root` (resolved) and a listed name under it: path.join's normalising took a tenth of the check at 100,000 files. */
const under = (root: string, name: string) => (root.endsWith('/') ? root + name : `${root}/${name}`);

/** Every file under a folder (its listing), with links and all, in a fixed order: the bytes of regular files, the kind of anything else. */
function hashTree(
  hash: ReturnType<typeof createHash>,
  { root, names }: ContentNames,
  digestOf = (file: string, _name: string) => readFileSync(file) as Uint8Array | string,
): void {
  // The text is handed to the hash some 64 KB at a time: the same bytes as an update per file (100,000 of them).
  let text = '';
  const add = (more: string) => {
    text += more;
    if (text.length < 1 << 16) return;
    hash.update(text);
    text = '';
  };
  for (const { path: name, dirent } of names) {
    const file = under(root, name);
    // The listing's own types, so only a link costs a stat here.
    const stats = dirent.isSymbolicLink() ? statSync(file, { throwIfNoEntry: false }) : dirent;
    if (stats?.isFile()) {
      const digest = digestOf(file, name);
      if (typeof digest === 'string') add(`\n${name}\n${digest}`);
      else {
        add(`\n${name}\n`);
        hash.update(text).update(digest);
        text = '';
      }
    } else add(`\n${name}\n${stats?.isDirectory() ? 'dir' : 'other'}`);
  }
  hash.update(text);
}

/** The hash of everything but the content, and its digest (the fingerprint's `generator`). */
function hashGenerator({ outDir, settings }: BuildInputs) {
  const hash = createHash('sha256');
  // Without a fixed time, the build's day: scheduled records go live by the day.
  const day = settings.fixedTime === null ? new Date().toISOString().slice(0, 10) : null;
  hash.update(JSON.stringify({ node: process.version, out: path.resolve(outDir), settings, day }));
  hash.update(readFileSync(LOCK_FILE));
  hashTree(hash, listNames(GENERATOR_DIR));
  const generator = hash.copy().digest('base64');
  hash.update('\ncontent\n');
  return { hash, generator };
}

/** `recorded`: the last build's record (readBuildRecord), when the caller has read it already. */
export function fingerprintBuild(inputs: BuildInputs, recorded = readBuildRecord(inputs.outDir)): Fingerprint {
  const { hash, generator } = hashGenerator(inputs);
  const { digestOf, content, reread, stats, changed } = digestContent(witnessesOf(recorded?.content));
  const listing = listNames(inputs.contentDir);
  hashTree(hash, listing, digestOf);
  const files = changed();
  const output = recorded?.output;
  return {
    value: hash.digest('base64'),
    generator,
    content,
    reread: reread(),
    stats,
    listing,
    recorded,
    changed: files && typeof output === 'string' ? { files, output } : undefined,
  };
}

/** A fingerprint whose content digests are still to be taken (fingerprintCold): `settled` takes them, in `files`' order. */
export type ColdFingerprint = Pick<Fingerprint, 'generator' | 'stats' | 'listing'> & {
  /** The content files to digest (content-digests.ts digestFile), in the order `settled` takes their digests. */
  files: string[];
  /** Their names in the content folder, in the same order (the load's own digests are by name). */
  names: string[];
  settled(digests: readonly string[]): Fingerprint;
};

/**
 * The fingerprint of a build with no record beside its output (a cold build), or undefined where there is one.
 * With nothing to compare it with, the content's digests serve only the record written when the build ends:
 * they are taken from the build's own reads of the content and by its helper thread (content-digests.ts coldDigests), and `settled`
 * gives the very fingerprint fingerprintBuild would have (each file's stats as taken here, before the build
 * reads it).
 */
export function fingerprintCold(inputs: BuildInputs, recorded = readBuildRecord(inputs.outDir)): ColdFingerprint | undefined {
  if (recorded) return undefined;
  const { hash, generator } = hashGenerator(inputs);
  const content = noDigests(Date.now());
  const stats = new Map<string, FileStats>();
  const listing = listNames(inputs.contentDir);
  const files: string[] = [];
  const names: string[] = [];
  // The same walk as the hash's below, here only to take each file's stats and name it to be digested.
  hashTree(createHash('sha1'), listing, (file, name) => {
    stats.set(name, keptStats(statSync(file)));
    files.push(file);
    names.push(name);
    return '';
  });
  const settled = (digests: readonly string[]): Fingerprint => {
    let next = 0;
    hashTree(hash, listing, (_file, name) => {
      const digest = digests[next++]!;
      addDigest(content, name, stats.get(name)!, digest);
      return digest;
    });
    return { value: hash.digest('base64'), generator, content, reread: true, stats, listing, recorded: undefined };
  };
  return { generator, stats, listing, files, names, settled };
}

const recordFile = (outDir: string) => `${path.resolve(outDir)}.build.bin`;

/** Raise when the record changes shape: a record of another version is no record (the build runs). */
const RECORD_VERSION = 1;

/**
 * The last build's record beside `outDir`, written by V8's serializer (the witnesses of 100,000 articles'
 * files, 11 MB, read once by the command in some 8 ms, where the same as JSON took 50 to 75 ms).
 */
export function readBuildRecord<S>(outDir: string): RecordedBuild<S> | undefined {
  try {
    const { version, ...record } = deserialize(readFileSync(recordFile(outDir))) as RecordedBuild<S> & { version: unknown };
    return version === RECORD_VERSION ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `record` as the last build's, whole beside the output and then renamed into place: a build killed meanwhile leaves the old one. */
export function writeBuildRecord<S>(outDir: string, record: RecordedBuild<S>): void {
  const file = recordFile(outDir);
  writeWhole(file, serialize({ version: RECORD_VERSION, ...record }));
  // The record as JSON, which builds before it was binary left (13 MB at 100,000 articles): no build reads it.
  rmSync(`${path.resolve(outDir)}.build.json`, { force: true });
}

/**
 * The last build's record when it was made from the same inputs and its output is still the one in place,
 * every file of it as that build left it (none changed or removed since). `damage`: the check of the output's
 * files started in a second thread beside the content's (damage-check.ts), taken only for the very record
 * read here; else each file is statted here.
 */
export async function readUnchangedBuild<S>(
  outDir: string,
  fingerprint: Fingerprint,
  damage?: DamageCheck,
): Promise<RecordedBuild<S> | undefined> {
  const target = path.resolve(outDir);
  // The caller holds the output's lock since the fingerprint read the record (cli.ts): it is the one beside the output.
  const recorded = fingerprint.recorded as RecordedBuild<S> | undefined;
  if (recorded?.fingerprint !== fingerprint.value || recorded.identity !== identityOf(target)) return undefined;
  // An update in place was cut short (update-in-place.ts): files may be half done or left over.
  if (readJournal(target)) return undefined;
  // Nothing else to do but wait for the damage check: this thread takes its share of it.
  damage?.help();
  return damagedCount(target, await damage?.answer) === 0 ? recorded : undefined;
}

/**
 * Records the build of `outDir`; `identity` is the folder it put in place (the one in place by default), `output`
 * the stamp of the output's record it wrote. Written after the tracked outputs' record (cli.ts).
 */
export function recordBuild<S>(
  outDir: string,
  fingerprint: Fingerprint,
  summary: S,
  { identity = identityOf(path.resolve(outDir)), output }: { identity?: string | undefined; output?: string | undefined } = {},
): void {
  const record: RecordedBuild<S> = {
    identity: identity ?? '',
    fingerprint: fingerprint.value,
    content: witnessColumns(fingerprint.content),
    ...(output ? { output } : {}),
    summary,
  };
  writeBuildRecord(outDir, record);
}

/** Forgets the last build's record: its output was changed by other means (npm run dev updates it in place). */
export function forgetBuild(outDir: string): void {
  rmSync(recordFile(outDir), { force: true });
}

/**
 * Takes an output restored from a cache as the one the last build's record describes (its identity is the
 * restored folder's). The content files' witnesses no longer match a fresh checkout, so each is read once.
 */
export function adoptRestoredBuild(outDir: string): boolean {
  const recorded = readBuildRecord<unknown>(outDir);
  const identity = identityOf(path.resolve(outDir));
  if (!recorded || typeof recorded.fingerprint !== 'string' || !identity) return false;
  writeBuildRecord(outDir, { ...recorded, identity });
  return true;
}
