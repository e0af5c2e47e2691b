/**
 * Where `npm run dev`'s builds go. The first build is written to a folder of its own (a base). Each later
 * build is compared with the one before, file by file, and only what changed is handed on, for the server to
 * serve from memory over the base (build-files.ts): an edit costs what it changed, and nothing whole-tree is
 * written, linked or copied on its path. Once the changes add up, a new base is written in the background
 * from the newest build (dev-rebase.ts), and edits are served over it once it is in place.
 */
import { hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { type Emitted, writeAll } from '../../pipeline/emit/emit-files.ts';
import { removeSnapshot } from '../../pipeline/emit/emit-snapshot.ts';
import type { CarriedRest, OutputFile } from '../../pipeline/outputs/output-file.ts';
import { type RebaseSource, writeRebase } from './dev-rebase.ts';
import { snapshotName } from '../served-builds.ts';
import { removeInBackground } from '../snapshot-linker.ts';

/** Past this many changed files, or bytes, since the base, a new base is written. */
export interface OverlayLimit {
  files: number;
  bytes: number;
}
const OVERLAY_LIMIT: OverlayLimit = { files: 20_000, bytes: 128 * 1024 * 1024 };

/** What one build's emit step did: a new base written whole, or the files that differ from the build before. */
export type DevEmitted = Emitted & {
  /** True when this build was written whole into a new base: no overlay. */
  rebased: boolean;
  /** Files that differ from the previous build (none when rebased), and files it no longer has. */
  changed: { path: string; bytes: Uint8Array }[];
  removed: string[];
};

interface OutputState {
  /** Bases are folders named `<snapshotRoot>.serving-<pid>-...`, removed by the next run if this one is killed. */
  snapshotRoot: string;
  /** The base folder and its files' digests. */
  base?: { dir: string; digests: ReadonlyMap<string, string> } | undefined;
  /**
   * The newest build's digests, by path: brought up to date in place by each build compared, since a copy of
   * every path (233,000 at 100,000 articles) cost each edit more than the edit's own files. `shared` while a
   * new base written in the background reads it (and then holds it as its digests): the next build copies it once.
   */
  newest: Map<string, string>;
  shared?: boolean;
  /** What differs from the base, by path: its bytes (null for removed), which a new base is written from. */
  overlay: Map<string, Uint8Array | null>;
  /** The new base being written in the background, and the files changed since the build it is written from. */
  rebase?: { dir: string; source: RebaseSource; since: Set<string>; done: Promise<boolean>; ended?: boolean | undefined } | undefined;
  /** A new base failed to be written in the background: the next ones are written on the build's path, as they were. */
  rebaseFailed?: boolean;
  limit: OverlayLimit;
  /** Copied files (images, the content manager's few megabytes) by source, read again only when their stats change. */
  copies: Map<string, { stamp: string; bytes: Uint8Array; digest: string }>;
}

const digestOf = (bytes: string | Uint8Array) => hash('sha1', bytes, 'base64');

function readCopy(state: OutputState, source: string): { bytes: Uint8Array; digest: string } {
  const stats = statSync(source);
  const stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  const known = state.copies.get(source);
  if (known?.stamp === stamp) return known;
  const bytes = readFileSync(source);
  const copy = { stamp, bytes, digest: digestOf(bytes) };
  state.copies.set(source, copy);
  return copy;
}

/** Writes a new base, linking what the old base holds unchanged. */
async function writeBase(state: OutputState, files: AsyncIterable<OutputFile>): Promise<DevEmitted> {
  const dir = snapshotName(state.snapshotRoot);
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(files, dir, state.base);
  } catch (error) {
    removeSnapshot(dir);
    throw error;
  }
  state.copies.clear();
  state.rebaseFailed = false;
  state.base = { dir, digests: written.digests };
  state.newest = new Map(written.digests);
  state.overlay = new Map();
  const { files: count, written: made, bytes, digests } = written;
  return { files: count, written: made, bytes, digests, changed: [], removed: [], rebased: true };
}

/**
 * Compares each file with the newest build's and keeps the ones that changed. `rest` names the newest build's
 * files this build carried over without giving them (carried-rest.ts): they are kept as they are, unwalked.
 */
async function compare(state: OutputState, files: AsyncIterable<OutputFile>, rest: () => CarriedRest | undefined): Promise<DevEmitted> {
  const { newest, overlay } = state;
  const given = new Set<string>();
  const digests = new Map<string, string>();
  const changed: { path: string; bytes: Uint8Array }[] = [];
  let bytes = 0;
  /** How many of this build's files the newest build had: all of them when nothing was removed. */
  let known = 0;
  for await (const file of files) {
    if (given.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
    given.add(file.path);
    const before = newest.get(file.path);
    if (before !== undefined) known++;
    // Carried over unmade (output-tracker.ts): the server serves the copy it has.
    if ('carried' in file && before === file.carried) {
      digests.set(file.path, file.carried);
      continue;
    }
    const copy = 'copyFrom' in file ? readCopy(state, file.copyFrom) : undefined;
    const body = 'body' in file ? file.body : 'carried' in file ? file.make() : copy!.bytes;
    // Encoded once, then hashed: hashing the text encoded it too, and the changed files were encoded again
    // (an edit of a recent article makes about a thousand pages and envelopes at 4,000 articles).
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    const digest = copy?.digest ?? digestOf(data);
    digests.set(file.path, digest);
    bytes += data.byteLength;
    if (before === digest) continue;
    changed.push({ path: file.path, bytes: data });
    overlay.set(file.path, data);
    state.rebase?.since.add(file.path);
  }
  const carried = rest();
  // Looked for only when some file of the newest build was not made again: a walk of every path (233,000 at
  // 100,000 articles) that almost every edit found empty.
  const removed =
    known + (carried?.size() ?? 0) === newest.size ? [] : [...newest.keys()].filter((file) => !given.has(file) && !carried?.has(file));
  for (const file of removed) {
    overlay.set(file, null);
    state.rebase?.since.add(file);
  }
  // The carried files keep their digests: the newest build's table, with this build's (copied first when shared).
  const all = carried ? (state.shared ? new Map(newest) : newest) : digests;
  state.shared = false;
  if (carried) {
    for (const [file, digest] of digests) all.set(file, digest);
    for (const file of removed) all.delete(file);
  }
  state.newest = all;
  return { files: all.size, written: changed.length, bytes, changed, removed, rebased: false, digests: all };
}

function overlayTooLarge(state: OutputState): boolean {
  if (state.overlay.size > state.limit.files) return true;
  let total = 0;
  for (const bytes of state.overlay.values()) total += bytes?.byteLength ?? 0;
  return total > state.limit.bytes;
}

/**
 * Starts writing a new base from the newest build, when the changes since the base add up and none is being
 * written; `ended` is called once it is written (true) or has failed (false).
 */
function startRebase(state: OutputState, ended: () => void): void {
  if (!state.base || state.rebase || state.rebaseFailed || !overlayTooLarge(state)) return;
  const source: RebaseSource = { from: state.base.dir, digests: state.newest, changed: new Map(state.overlay) };
  state.shared = true;
  const dir = snapshotName(state.snapshotRoot);
  const rebase: NonNullable<OutputState['rebase']> = {
    dir,
    source,
    since: new Set(),
    done: writeRebase(source, dir).then(
      () => true,
      () => false,
    ),
  };
  state.rebase = rebase;
  void rebase.done.then((written) => {
    rebase.ended = written;
    ended();
  });
}

/**
 * The new base once it is written: the build's base from now on, with only the files changed since the build
 * it was written from over it. Undefined while it is being written, or when none is; a failed one is removed.
 */
function adoptRebase(state: OutputState): { base: string; since: string[] } | undefined {
  const rebase = state.rebase;
  if (rebase?.ended === undefined) return undefined;
  state.rebase = undefined;
  if (!rebase.ended) {
    state.rebaseFailed = true;
    removeInBackground(rebase.dir);
    return undefined;
  }
  state.base = { dir: rebase.dir, digests: rebase.source.digests };
  state.overlay = new Map([...rebase.since].map((file) => [file, state.overlay.get(file) ?? null]));
  return { base: rebase.dir, since: [...rebase.since] };
}

export interface DevOutput {
  /** The emit step of one build; `rest`, asked once every file was given, names the files carried over unnamed. */
  emit(files: AsyncIterable<OutputFile>, rest?: () => CarriedRest | undefined): Promise<DevEmitted>;
  /** Whether the next build's emit step keeps the files it is not given (a build compared, not a base written whole). */
  keepsRest(): boolean;
  /** The folder the newest build's unchanged files are read from. */
  base(): string;
  /** Whether the newest build is its base, written whole: nothing in memory over it. */
  fresh(): boolean;
  /**
   * After a build has been handed on: starts writing a new base in the background when the changes since the
   * base add up; `ended` is called when it is written or failed, for `adopt` to be called between builds.
   */
  rebase(ended: () => void): void;
  /** Between builds: the new base, once written (then the paths changed since the build it holds), else undefined. */
  adopt(): { base: string; since: string[] } | undefined;
  /** Resolves once no new base is being written: nothing of this output writes to disk after it. */
  settled(): Promise<void>;
}

/** A new base on the build's path only for the first build, or when one failed to be written in the background. */
const writesBase = (state: OutputState) => !state.base || (state.rebaseFailed && overlayTooLarge(state));

export function createDevOutput(snapshotRoot: string, limit = OVERLAY_LIMIT): DevOutput {
  const state: OutputState = { snapshotRoot, newest: new Map(), overlay: new Map(), copies: new Map(), limit };
  return {
    emit: (files, rest = () => undefined) => (writesBase(state) ? writeBase(state, files) : compare(state, files, rest)),
    keepsRest: () => !writesBase(state),
    base: () => state.base!.dir,
    fresh: () => state.base !== undefined && state.overlay.size === 0,
    rebase: (ended) => startRebase(state, ended),
    adopt: () => adoptRebase(state),
    settled: async () => {
      await state.rebase?.done;
    },
  };
}
