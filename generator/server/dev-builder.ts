/**
 * `npm run dev`'s builds, in a worker thread, so that a rebuild never takes the server's event loop: the
 * server keeps answering while the next build is made. The worker keeps the build cache between rebuilds.
 *
 * The first build is written to a folder of its own (a base). Each later build is compared with the one before,
 * file by file, and only what changed is sent to the server, which serves it from memory over the base
 * (build-files.ts): an edit costs what it changed, and nothing whole-tree is written, linked or copied. Once
 * the changes add up (dev-overlay-policy below), the next build is written as a new base, linking its
 * unchanged files from the old one. Bases the server no longer reads are removed here, once builds are quiet.
 */
import { hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../pipeline/build-site.ts';
import { resolveBuildSettings } from '../pipeline/build-settings.ts';
import { createBuildCache } from '../pipeline/build-cache.ts';
import type { TrackedOutputs } from '../pipeline/output-tracker.ts';
import type { Preview } from '../pipeline/catalogue/publish.ts';
import { type Emitted, writeAll } from '../pipeline/emit/emit-files.ts';
import { removeSnapshot } from '../pipeline/emit/emit-snapshot.ts';
import type { CmsBackend } from '../pipeline/outputs/cms/cms-config.ts';
import type { OutputFile } from '../pipeline/outputs/output-file.ts';
import { ContentError, formatReport } from '../pipeline/problems.ts';
import { formatPublication } from '../pipeline/publication-report.ts';
import { snapshotName } from './served-builds.ts';

/** A nice value: below the server (0), above idle work (19). */
const BUILD_PRIORITY = 10;
/** Past this many changed files, or bytes, since the base, the next build is written as a new base. */
const MAX_OVERLAY_FILES = 20_000;
const MAX_OVERLAY_BYTES = 128 * 1024 * 1024;

/** A build to make, or a base folder the server no longer reads, to remove. */
export type BuildRequest = { id: number } | { remove: string };

export type BuildAnswer =
  | {
      id: number;
      built: true;
      written: number;
      files: number;
      lines: string[];
      /** The folder the build's unchanged files are read from. */
      base: string;
      /** True when this build was written whole into `base` (a new base): no overlay. */
      rebased: boolean;
      /** Files that differ from the previous build (none when rebased), and files it no longer has. */
      changed: { path: string; bytes: Uint8Array }[];
      removed: string[];
    }
  | { id: number; built: false; report: string }
  | { id: number; built: false; failure: string };

const { contentDir, snapshotRoot, preview, cmsBackend, servedAt } = workerData as {
  contentDir: string;
  /** Bases are folders named `<snapshotRoot>.serving-<pid>-...`, removed by the next run if this one is killed. */
  snapshotRoot: string;
  preview: Preview;
  cmsBackend?: CmsBackend;
  /** The address the dev server serves on: the site's address unless SITE_URL or Netlify's variables name one. */
  servedAt: string;
};
const settings = resolveBuildSettings(process.env, { preview, cmsBackend, servedAt });
const cache = createBuildCache();
/** What the last good build made, by output, so the next carries over what its edit did not touch. */
const tracked: { outputs?: TrackedOutputs } = {};
// Every tracked output of this run is made by this generator with these settings: they are the scope.
const scope = `dev\n${JSON.stringify(settings)}`;
// Serving comes first: on Linux a thread's priority is its own, so this lowers the builds only.
try {
  setPriority(BUILD_PRIORITY);
} catch {}

const digestOf = (bytes: string | Uint8Array) => hash('sha1', bytes, 'base64');

/** Copied files (images, the content manager's few megabytes) by source, read again only when their stats change. */
const copies = new Map<string, { stamp: string; bytes: Uint8Array; digest: string }>();
function readCopy(source: string): { bytes: Uint8Array; digest: string } {
  const stats = statSync(source);
  const stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  const known = copies.get(source);
  if (known?.stamp === stamp) return known;
  const bytes = readFileSync(source);
  const copy = { stamp, bytes, digest: digestOf(bytes) };
  copies.set(source, copy);
  return copy;
}

/** The base folder and its files' digests; the newest build's digests; what differs from the base, by path. */
let base: { dir: string; digests: ReadonlyMap<string, string> } | undefined;
let newest = new Map<string, string>();
let overlay = new Map<string, number>();
let building = false;

/** Writes a new base, linking what the old base holds unchanged. */
async function writeBase(files: AsyncIterable<OutputFile>): Promise<Emitted & { changed: []; removed: []; rebased: true }> {
  const dir = snapshotName(snapshotRoot);
  let written: Awaited<ReturnType<typeof writeAll>>;
  try {
    written = await writeAll(files, dir, base);
  } catch (error) {
    removeSnapshot(dir);
    throw error;
  }
  copies.clear();
  base = { dir, digests: written.digests };
  newest = new Map(written.digests);
  overlay = new Map();
  const { files: count, written: made, bytes, digests } = written;
  return { files: count, written: made, bytes, digests, changed: [], removed: [], rebased: true };
}

/** Compares each file with the newest build's and keeps the ones that changed. */
async function compare(
  files: AsyncIterable<OutputFile>,
): Promise<Emitted & { changed: { path: string; bytes: Uint8Array }[]; removed: string[]; rebased: false }> {
  const digests = new Map<string, string>();
  const changed: { path: string; bytes: Uint8Array }[] = [];
  let bytes = 0;
  for await (const file of files) {
    if (digests.has(file.path)) throw new Error(`two outputs claim ${file.path}`);
    // Carried over unmade (output-tracker.ts): the server serves the copy it has.
    if ('carried' in file && newest.get(file.path) === file.carried) {
      digests.set(file.path, file.carried);
      continue;
    }
    const copy = 'copyFrom' in file ? readCopy(file.copyFrom) : undefined;
    const body = 'body' in file ? file.body : 'carried' in file ? file.make() : copy!.bytes;
    const digest = copy?.digest ?? digestOf(body);
    digests.set(file.path, digest);
    if (newest.get(file.path) === digest) {
      bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      continue;
    }
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    bytes += data.byteLength;
    changed.push({ path: file.path, bytes: data });
    overlay.set(file.path, data.byteLength);
  }
  const removed = [...newest.keys()].filter((file) => !digests.has(file));
  for (const file of removed) overlay.set(file, 0);
  newest = digests;
  return { files: digests.size, written: changed.length, bytes, changed, removed, rebased: false, digests };
}

const overlayTooLarge = () => {
  if (overlay.size > MAX_OVERLAY_FILES) return true;
  let total = 0;
  for (const size of overlay.values()) total += size;
  return total > MAX_OVERLAY_BYTES;
};

/** Bases to remove once builds have been quiet for a moment, one at a time: the next edit's build comes first. */
const retired: string[] = [];
let removalScheduled = false;
const REMOVE_WHEN_QUIET_MS = 500;
const scheduleRemoval = () => {
  if (removalScheduled) return;
  removalScheduled = true;
  setTimeout(() => {
    removalScheduled = false;
    if (!building) removeSnapshot(retired.shift()!);
    if (retired.length) scheduleRemoval();
  }, REMOVE_WHEN_QUIET_MS);
};

async function build(id: number): Promise<BuildAnswer> {
  let emitted: Awaited<ReturnType<typeof compare>> | Awaited<ReturnType<typeof writeBase>> | undefined;
  const emit = async (files: AsyncIterable<OutputFile>) => {
    emitted = !base || overlayTooLarge() ? await writeBase(files) : await compare(files);
    return emitted;
  };
  try {
    const result = await buildSite({ contentDir, outDir: snapshotRoot, settings, cache, emit, scope, tracked });
    const { changed, removed, rebased } = emitted!;
    const lines = formatPublication(result.publication, preview);
    return { id, built: true, written: result.written, files: result.files, lines, base: base!.dir, rebased, changed, removed };
  } catch (error) {
    return error instanceof ContentError
      ? { id, built: false, report: formatReport(error.problems, contentDir) }
      : { id, built: false, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

parentPort!.on('message', async (request: BuildRequest) => {
  if ('remove' in request) {
    retired.push(request.remove);
    scheduleRemoval();
    return;
  }
  building = true;
  const answer = await build(request.id);
  building = false;
  parentPort!.postMessage(answer);
});
