/**
 * `npm run dev`'s builds, in a worker thread, so that a rebuild never takes the server's event loop: the
 * server keeps answering while the next build is made. The builder (dev-builds.ts) keeps the build cache and
 * what the last build made between rebuilds. Its priority is set from the server's thread (dev-priority.ts),
 * which it is told the builder's thread id for.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { answerRequests } from '../../pipeline/thread-requests.ts';
import { createDevBuilds, type DevBuildOptions } from './dev-builds.ts';
import { LOWERED, ownThreadId } from './dev-priority.ts';

export type { BuildAnswer } from './dev-builds.ts';

/**
 * A build to make, by its number (with the paths the watcher reported since the last, if known), or a base
 * folder the server no longer reads, to remove. Asked and answered through thread-requests.ts.
 */
export type BuildRequest = { build: number; changed?: string[] | undefined; warm?: boolean } | { remove: string };

/**
 * What the builder says besides its answers: its thread id, for its priority to be set from outside (Linux);
 * a new base written in the background (dev-builds.ts), between two answers.
 */
export type BuilderNews = { thread: number } | { newBase: { base: string; since: string[] } };

/**
 * Where the thread's id is not known (not Linux), the builder lowers itself once the first build and its
 * warm-up are made, for good: serving comes first.
 */
const LOWER_AFTER_BUILDS = 2;

const builds = createDevBuilds(workerData as DevBuildOptions, {
  rebased: (rebased) => parentPort!.postMessage({ newBase: rebased } satisfies BuilderNews),
});
const tid = ownThreadId();
if (tid !== undefined) parentPort!.postMessage({ thread: tid } satisfies BuilderNews);
let made = 0;

answerRequests(
  async (request: BuildRequest) => {
    if ('remove' in request) return { result: builds.remove(request.remove) };
    return { result: await (request.warm ? builds.warmUp(request.build) : builds.build(request.build, request.changed)) };
  },
  (request) => {
    if ('remove' in request || tid !== undefined || ++made !== LOWER_AFTER_BUILDS) return;
    try {
      setPriority(LOWERED);
    } catch {}
  },
);
