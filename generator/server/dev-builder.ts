/**
 * `npm run dev`'s builds, in a worker thread, so that a rebuild never takes the server's event loop: the
 * server keeps answering while the next build is made. The worker keeps the build cache between rebuilds.
 * Each message asks for one build; the answer is what the dev server prints, with a snapshot of the build for
 * the server to read from. Snapshots the server has retired are removed here too.
 */
import { setPriority } from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../pipeline/build-site.ts';
import { resolveBuildSettings } from '../pipeline/build-settings.ts';
import { createBuildCache } from '../pipeline/build-cache.ts';
import type { Preview } from '../pipeline/catalogue/publish.ts';
import type { CmsBackend } from '../pipeline/outputs/cms/cms-config.ts';
import { ContentError, formatReport } from '../pipeline/problems.ts';
import { formatPublication } from '../pipeline/publication-report.ts';
import { removeSnapshot } from '../pipeline/emit/emit-snapshot.ts';
import { snapshotName } from './served-builds.ts';

/** A nice value: below the server (0), above idle work (19). */
const BUILD_PRIORITY = 10;

/** A build to make, or a retired snapshot to remove. */
export type BuildRequest = { id: number } | { remove: string };

export type BuildAnswer =
  /** `snapshot`: the folder the build was written into, for the server to read it from (served-builds.ts). */
  | { id: number; built: true; written: number; files: number; lines: string[]; snapshot: string }
  | { id: number; built: false; report: string }
  | { id: number; built: false; failure: string };

const { contentDir, outDir, preview, cmsBackend, servedAt } = workerData as {
  contentDir: string;
  outDir: string;
  preview: Preview;
  cmsBackend?: CmsBackend;
  /** The address the dev server serves on: the site's address unless SITE_URL or Netlify's variables name one. */
  servedAt: string;
};
const settings = resolveBuildSettings(process.env, { preview, cmsBackend, servedAt });
const cache = createBuildCache();
// Serving comes first: on Linux a thread's priority is its own, so this lowers the builds only, and the
// server's thread keeps its share of the CPU while a rebuild runs beside it. Where it is not allowed, builds
// simply run at the same priority.
try {
  setPriority(BUILD_PRIORITY);
} catch {}

/** The newest build's snapshot: the next build links its unchanged files from it. */
let newest: string | undefined;
let building = false;

/**
 * Retired snapshots are removed once builds have been quiet for a moment, one at a time: removing ten
 * thousand files takes a fifth of a second, which the next edit's build should not wait behind.
 */
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

parentPort!.on('message', async (request: BuildRequest) => {
  if ('remove' in request) {
    retired.push(request.remove);
    scheduleRemoval();
    return;
  }
  const { id } = request;
  let answer: BuildAnswer;
  building = true;
  try {
    const dir = snapshotName(path.resolve(outDir));
    const result = await buildSite({ contentDir, outDir, settings, cache, snapshot: { dir, previous: newest } });
    newest = dir;
    const lines = formatPublication(result.publication, preview);
    answer = { id, built: true, written: result.written, files: result.files, lines, snapshot: dir };
  } catch (error) {
    answer =
      error instanceof ContentError
        ? { id, built: false, report: formatReport(error.problems, contentDir) }
        : { id, built: false, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  building = false;
  parentPort!.postMessage(answer);
});
