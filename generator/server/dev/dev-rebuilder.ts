/**
 * `npm run dev`'s rebuilds: one at a time, in the builder thread (dev-builder.ts), each reported in one line.
 * Each build is offered to the server (`builds`) as its base folder plus the overlay of files changed since
 * that folder was written; a folder no build served reads any more is handed back to the builder to remove.
 */
import type { Preview } from '../../pipeline/catalogue/publish.ts';
import type { CmsBackend } from '../../pipeline/outputs/cms/cms-config.ts';
import { askThread } from '../../pipeline/thread-requests.ts';
import { startTypeScriptWorker } from '../../pipeline/typescript-worker.ts';
import { applyChanges, type BuildFiles, keepOnly } from '../build-files.ts';
import type { BuildAnswer, BuilderNews, BuildRequest } from './dev-builder.ts';
import { createBuilderPriority } from './dev-priority.ts';
import { type BuildFeed, SNAPSHOT_MARK } from '../served-builds.ts';
import { removeOwnAfterExit } from '../snapshot-linker.ts';

export interface Rebuilder {
  /** Rebuilds for these changed files, after the rebuild under way, if any. */
  changed(files: ReadonlySet<string>): void;
  /** The first build, served once made, then the practice edit that warms the builder for the first edit. True when the first build succeeded. */
  start(): Promise<boolean>;
  /** The builds, for the server. */
  builds: BuildFeed;
  /**
   * Ends the builder; resolves once its thread has ended. Its folders, and one it was writing, are removed by
   * a process of their own once this one has ended.
   */
  stop(): Promise<unknown>;
}

export interface RebuilderOptions {
  contentDir: string;
  /** Base folders are named after it (`<snapshotRoot>.serving-<pid>-...`). */
  snapshotRoot: string;
  preview: Preview;
  cmsBackend?: CmsBackend | undefined;
  /** The address the dev server serves on, which the site is built for unless SITE_URL or Netlify's variables name one. */
  servedAt: string;
  /** After each good build. */
  built(): void;
  /**
   * Resolves when the content is quiet: a rebuild waits for it before it starts, so that one that was queued
   * behind another does not read a folder a burst (a git checkout) is still writing; the burst's changes join it.
   */
  quiet?: () => Promise<void>;
}

const FIRST = 'first build';
const WARM = 'content changed during the first build';

/**
 * The builder thread's young generation, in megabytes (V8 gives it a third to each of its two halves). A
 * rebuild makes tables of every output and record that live until the next one; with V8's default they are
 * copied from half to half and promoted before they die, and scavenges cost an edit a third of its CPU.
 */
const BUILDER_YOUNG_GENERATION_MB = 192;
function describeChange(files: ReadonlySet<string>): string {
  const [first] = files;
  return files.size === 1 ? `${first} changed` : `${files.size} files changed`;
}

/** The builder thread: `build` asks for one build; `builds` offers each to the server. */
function startBuilder(data: Omit<RebuilderOptions, 'built'>) {
  const worker = startTypeScriptWorker(new URL('./dev-builder.ts', import.meta.url), data, {
    maxYoungGenerationSizeMb: BUILDER_YOUNG_GENERATION_MB,
  });
  const priority = createBuilderPriority();
  let next = 0;
  let newest: BuildFiles | undefined;
  /** Base folders the builder made and has not removed, and those the server has been given a build of. */
  const bases = new Set<string>();
  const given = new Set<string>();
  const remove = (dir: string) => {
    bases.delete(dir);
    given.delete(dir);
    void thread.ask({ remove: dir });
  };
  /** The newest build from now on; a base the server never saw a build of (a newer base came first) is nobody's to hand back. */
  const offer = (files: BuildFiles) => {
    const previous = newest;
    bases.add(files.dir);
    newest = files;
    if (previous && previous.dir !== newest.dir && !given.has(previous.dir)) remove(previous.dir);
  };
  const thread = askThread<BuildRequest, BuilderNews>(worker, "npm run dev's builder", (news) => {
    if ('thread' in news) return priority.attach(news.thread);
    // The same build from a new base, with only what changed after the build it holds from memory.
    offer({ dir: news.newBase.base, overlay: keepOnly(newest?.overlay, news.newBase.since) });
  });
  return {
    /** A build; `changed`: what the watcher reported since the last (else the content is listed whole). */
    build: async (changed?: ReadonlySet<string>, warm?: boolean): Promise<BuildAnswer> => {
      const build = next++;
      const answer = await thread
        .ask<BuildAnswer>({ build, changed: changed && [...changed], warm })
        .catch((error: Error): BuildAnswer => ({ id: build, built: false, failure: error.stack ?? error.message }));
      if (answer.built)
        offer(
          answer.rebased
            ? { dir: answer.base }
            : { dir: answer.base, overlay: applyChanges(newest?.overlay, answer.changed, answer.removed, new Date()) },
        );
      return answer;
    },
    builds: {
      latest() {
        if (newest) given.add(newest.dir);
        return newest;
      },
      remove: (dir) => {
        if (bases.has(dir) && dir !== newest?.dir) remove(dir);
      },
    } satisfies BuildFeed,
    /** From now on, the builder's priority follows how busy the server is (dev-priority.ts). */
    follow: () => priority.follow(),
    stop() {
      priority.stop();
      removeOwnAfterExit(data.snapshotRoot, SNAPSHOT_MARK);
      return worker.terminate();
    },
  };
}

export function createRebuilder(options: RebuilderOptions): Rebuilder {
  const { built, quiet, ...data } = options;
  const builder = startBuilder(data);
  let lastSummary = '';
  let running: Promise<unknown> = Promise.resolve();
  const rebuild = async (reason: string, changed?: ReadonlySet<string>): Promise<boolean> => {
    const started = performance.now();
    const answer = await builder.build(changed, reason === WARM);
    if (answer.built) {
      // The warm-up after the first build is said only when it found a change.
      if (reason === WARM && answer.written === 0 && answer.removed.length === 0) return true;
      const ms = Math.round(performance.now() - started);
      const summary = answer.lines.map((line) => line.trim()).join('; ');
      const cpu = answer.cpuMs === undefined ? '' : `, ${answer.cpuMs} ms of CPU`;
      if (reason === FIRST) console.log(`${reason}: built in ${ms} ms, ${answer.files} files\n${answer.lines.join('\n')}`);
      // One line per rebuild; what it publishes is added only when that changed.
      else
        console.log(
          `${reason}: rebuilt in ${ms} ms, ${answer.written} of ${answer.files} files changed${cpu}${summary === lastSummary ? '' : `; ${summary}`}`,
        );
      lastSummary = summary;
      built();
      return true;
    }
    if ('failure' in answer) throw new Error(answer.failure);
    console.error(`${reason}: not rebuilt; still serving the last good build\n${answer.report}`);
    return false;
  };
  // Changes reported while a rebuild runs wait for it as one rebuild, however many batches they came in.
  let queued: Set<string> | undefined;
  return {
    changed(files) {
      if (queued) {
        for (const file of files) queued.add(file);
        return;
      }
      queued = new Set(files);
      running = running
        .then(async () => {
          await quiet?.();
          const batch = queued!;
          queued = undefined;
          return rebuild(describeChange(batch), batch);
        })
        .catch((error: unknown) => console.error(`rebuild failed: ${String(error)}`));
    },
    start() {
      // The first build is served as soon as it is made. Then, before this resolves, the practice edit and a
      // rebuild of the content as it is (dev-warm-up.ts): the first edit finds what a rebuild keeps (files
      // read, relations, the index's digests) and every path an edit takes compiled by the engine, where it
      // would pay for all of that itself (a second at 4,000 articles before any warm-up; twice a later edit's
      // CPU after a rebuild with nothing changed). An edit saved meanwhile waits for it.
      const first = running.then(async () => {
        if (!(await rebuild(FIRST))) return false;
        await rebuild(WARM);
        return true;
      });
      // Nothing is served before the first build, and the warm-up is the editor's wait: both at the server's
      // priority; from then on, the builder's follows how busy the server is.
      void first.finally(() => builder.follow()).catch(() => {});
      running = first.catch((error: unknown) => console.error(`build failed: ${String(error)}`));
      return first;
    },
    builds: builder.builds,
    stop: builder.stop,
  };
}
