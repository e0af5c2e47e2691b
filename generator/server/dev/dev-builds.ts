/**
 * `npm run dev`'s builder: keeps the build cache and what the last good build made between rebuilds, so an
 * edit is loaded, checked and made from what it touches (output-tracker.ts), and hands each build's changed
 * files on (dev-output.ts). Bases the server no longer reads are removed here, once builds are quiet. It runs
 * in a thread of its own (dev-builder.ts); a benchmark may run it in its own process (bench/dev-rebuild.ts).
 */
import { readFileSync } from 'node:fs';
import { buildSite } from '../../pipeline/build-site.ts';
import type { RawContent } from '../../pipeline/load/load-content.ts';
import { collections as siteCollections } from '../../schemas/collections.ts';
import { resolveBuildSettings } from '../../pipeline/build-settings.ts';
import { createBuildCache } from '../../pipeline/build-cache.ts';
import type { TrackedOutputs } from '../../pipeline/output-tracker.ts';
import type { Preview } from '../../pipeline/catalogue/publish.ts';
import type { CmsBackend } from '../../pipeline/outputs/cms/cms-config.ts';
import type { CarriedRest, OutputFile } from '../../pipeline/outputs/output-file.ts';
import { ContentError, formatReport } from '../../pipeline/problems.ts';
import { formatPublication } from '../../pipeline/publication-report.ts';
import { createContentListing } from './dev-content-listing.ts';
import { removeInBackground } from '../snapshot-linker.ts';
import { createDevOutput, type DevEmitted, type DevOutput, type OverlayLimit } from './dev-output.ts';
import { netChanges, practiceEdit } from './dev-warm-up.ts';

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
      /** The CPU time the build took in its thread, where the system says (Linux). */
      cpuMs?: number | undefined;
    }
  | { id: number; built: false; report: string }
  | { id: number; built: false; failure: string };

export interface DevBuildOptions {
  contentDir: string;
  /** Bases are folders named `<snapshotRoot>.serving-<pid>-...`, removed by the next run if this one is killed. */
  snapshotRoot: string;
  preview: Preview;
  cmsBackend?: CmsBackend | undefined;
  /** The address the dev server serves on: the site's address unless SITE_URL or Netlify's variables name one. */
  servedAt: string;
  /** Past this many files, or bytes, changed since the base, a new base is written (dev-output.ts); tests set a few. */
  overlayLimit?: OverlayLimit | undefined;
}

/** What the builder tells its server besides its answers. */
export interface DevBuildEvents {
  /**
   * A new base was written in the background (dev-output.ts), between builds: the server reads the newest build
   * from `base` from now on, with only the files at `since` (changed after the build it holds) from memory.
   */
  rebased?(rebased: { base: string; since: string[] }): void;
}

export interface DevBuilds {
  /**
   * One build, from the content as it is now. `changed`: the paths the watcher reported since the last build,
   * so that only those are looked at again; without it, the content folder is listed whole.
   */
  build(id: number, changed?: readonly string[]): Promise<BuildAnswer>;
  /**
   * After the first build: the practice edit (dev-warm-up.ts) and a build of the content as it is, answered
   * as one build from the one before (no file changed, unless the content did meanwhile).
   */
  warmUp(id: number): Promise<BuildAnswer>;
  /** Removes a base folder the server no longer reads, once builds have been quiet for a moment. */
  remove(dir: string): void;
  close(): void;
  /** Resolves once no new base is being written in the background (a caller removing the folders waits for it). */
  settled(): Promise<void>;
}

const REMOVE_WHEN_QUIET_MS = 500;

/**
 * The CPU time this thread has used, in milliseconds, where Linux says (ticks of 10 ms); undefined elsewhere.
 * The builds run at a low priority: on a busy machine their wall time is mostly waiting, their CPU time is their cost.
 */
function threadCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Removes retired bases one at a time while no build runs, each in a process of its own: the next edit's build comes first. */
function createRemover(building: () => boolean) {
  const retired: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      // In a process of its own: a base at 100,000 articles is 233,000 files, whose removal here held the next
      // edit's build for six minutes.
      if (!building()) removeInBackground(retired.shift()!);
      if (retired.length) schedule();
    }, REMOVE_WHEN_QUIET_MS);
  };
  return {
    remove(dir: string) {
      retired.push(dir);
      schedule();
    },
    close: () => clearTimeout(timer),
  };
}

/**
 * Builds one at a time, each timed in this thread's CPU; between them, a new base written in the background is
 * taken (and said), and after each one is started if due (dev-output.ts).
 */
function takeTurns(output: DevOutput, events: DevBuildEvents) {
  let building = false;
  /** Taken between builds only, so the server hears of it between their answers. */
  const adopt = () => {
    const rebased = output.adopt();
    if (rebased) events.rebased?.(rebased);
  };
  const between = () => {
    if (!building) adopt();
  };
  return {
    building: () => building,
    async timed(make: () => Promise<BuildAnswer>): Promise<BuildAnswer> {
      adopt();
      building = true;
      const cpuBefore = threadCpuMs();
      try {
        const answer = await make();
        const cpuAfter = threadCpuMs();
        return answer.built && cpuBefore !== undefined && cpuAfter !== undefined ? { ...answer, cpuMs: cpuAfter - cpuBefore } : answer;
      } finally {
        building = false;
        // After the answer is handed on (the caller's next step), never before it: its base is the old one.
        setImmediate(between);
        output.rebase(between);
      }
    },
  };
}

export function createDevBuilds(options: DevBuildOptions, events: DevBuildEvents = {}): DevBuilds {
  const { contentDir, snapshotRoot, preview, cmsBackend, servedAt } = options;
  const settings = resolveBuildSettings(process.env, { preview, cmsBackend, servedAt });
  const cache = createBuildCache();
  /** What the last good build made, by output, so the next carries over what its edit did not touch. */
  const tracked: { outputs?: TrackedOutputs } = {};
  // Every tracked output of this run is made by this generator with these settings: they are the scope.
  const scope = `dev\n${JSON.stringify(settings)}`;
  const output = createDevOutput(snapshotRoot, options.overlayLimit);
  const listing = createContentListing();
  const listContent = (root: string) => listing.list(root);
  const turns = takeTurns(output, events);
  const { timed } = turns;
  const remover = createRemover(turns.building);

  /** The files' digests of the last good build. */
  let digests: ReadonlyMap<string, string> = new Map();
  const build = async (id: number, amend?: (raw: RawContent) => RawContent): Promise<BuildAnswer> => {
    let emitted: DevEmitted | undefined;
    const emit = async (files: AsyncIterable<OutputFile>, rest: () => CarriedRest | undefined) =>
      (emitted = await output.emit(files, rest));
    const options = { contentDir, outDir: snapshotRoot, settings, cache, emit, scope, tracked, listContent, amend };
    try {
      // Compared with the build before, a steady build gives only what its edit reached (carried-rest.ts).
      const result = await buildSite({ ...options, emitKeepsRest: output.keepsRest() });
      const { changed, removed, rebased } = emitted!;
      digests = emitted!.digests ?? new Map();
      const lines = formatPublication(result.publication, preview);
      return { id, built: true, written: result.written, files: result.files, lines, base: output.base(), rebased, changed, removed };
    } catch (error) {
      // A file read as other than the listing said (a change not reported yet) is not trusted twice.
      listing.report('all');
      // Past the content's checks, a build brings what it keeps up to date in place as it makes its outputs
      // (kept-relations.ts): after a failure there, the next build keeps nothing and makes every output.
      if (!(error instanceof ContentError)) tracked.outputs = undefined;
      return error instanceof ContentError
        ? { id, built: false, report: formatReport(error.problems, contentDir) }
        : { id, built: false, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
  };
  /** The content as it is, after a practice build from it with one title changed; the two answered as one. */
  const warmUp = async (id: number): Promise<BuildAnswer> => {
    // Only over a base just written (its overlay empty), so the server can be given the two builds' net change.
    if (!output.fresh()) return build(id);
    // A copy: the output brings its table up to date in place (dev-output.ts).
    const before = new Map(digests);
    const practice = await build(id, (raw) => practiceEdit(raw, siteCollections));
    listing.report('all');
    const answer = await build(id);
    if (!answer.built || !practice.built || answer.rebased || practice.rebased) return answer;
    const net = netChanges(before, digests, [practice, answer]);
    return { ...answer, ...net, written: net.changed.length };
  };
  return {
    build(id, changed) {
      listing.report(changed ?? 'all');
      return timed(() => build(id));
    },
    warmUp(id) {
      listing.report('all');
      return timed(() => warmUp(id));
    },
    remove: remover.remove,
    close: remover.close,
    settled: () => output.settled(),
  };
}
