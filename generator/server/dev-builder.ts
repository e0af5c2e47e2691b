/**
 * `npm run dev`'s builds, in a worker thread, so that a rebuild never takes the server's event loop: the
 * server keeps answering while the next build is made. The builder (dev-builds.ts) keeps the build cache and
 * what the last build made between rebuilds.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createDevBuilds, type DevBuildOptions } from './dev-builds.ts';

export type { BuildAnswer } from './dev-builds.ts';

/** A build to make (with the paths the watcher reported since the last, if known), or a base folder the server no longer reads, to remove. */
export type BuildRequest = { id: number; changed?: string[] | undefined; warm?: boolean } | { remove: string };

/** A nice value: below the server (0), above idle work (19). */
const BUILD_PRIORITY = 10;

/**
 * Serving comes first: on Linux a thread's priority is its own, so this lowers the builds only. Not before
 * the first build and its warm-up are made: nothing is served before, and on a busy machine a thread at this
 * priority gets a tenth of a core (a first build at 100,000 articles took minutes more for it).
 */
const LOWER_AFTER_BUILDS = 2;

const builds = createDevBuilds(workerData as DevBuildOptions);
let made = 0;

parentPort!.on('message', async (request: BuildRequest) => {
  if ('remove' in request) return builds.remove(request.remove);
  parentPort!.postMessage(await (request.warm ? builds.warmUp(request.id) : builds.build(request.id, request.changed)));
  if (++made !== LOWER_AFTER_BUILDS) return;
  try {
    setPriority(BUILD_PRIORITY);
  } catch {}
});
