/** Worker threads for the generator's TypeScript modules (`npm run build`'s helper thread, the builds of `npm run dev`). */
import v8 from 'node:v8';
import { type ResourceLimits, Worker } from 'node:worker_threads';

/** The generator's bundle folder, when this code runs from it (launch.mjs defines it). */
declare const __GENERATOR_BUNDLE__: string | undefined;
const BUNDLE = typeof __GENERATOR_BUNDLE__ === 'string' ? __GENERATOR_BUNDLE__ : undefined;

/**
 * `npm run build` sizes its own thread's heap for a build that keeps every record live (package.json):
 * - a 64 MB semi-space (`--max-semi-space-size`): fewer collections of the young objects it makes by the
 *   million; from its start (`--min-semi-space-size`), since growing it from 1 MB took 17 collections more at
 *   4,000 articles, each copying what the build keeps;
 * - an old generation that starts at 1 GB (`--initial-old-space-size`): V8 starts small and marks the whole
 *   heap each time it grows past its limit, three times in an edit at 100,000 articles while the kept records
 *   are read, each marking all of them. From 1 GB, once.
 * V8 reads these flags as each thread's heap is made, and they override a worker's `resourceLimits`, so every
 * worker thread took the same heap: semi-spaces of up to 128 MB of young objects each (measured with a worker
 * allocating in a loop), which the writer and the damage check never need, and an old generation left to grow
 * to 1 GB before its first collection, which the helper thread's garbage would fill. Both added to a cold
 * build's peak at 100,000 articles. Reset once this thread's heap exists, worker threads get V8's defaults, or
 * their own `limits`.
 */
let workerDefaults = false;
function useDefaultHeap(): void {
  if (workerDefaults) return;
  workerDefaults = true;
  for (const flag of ['--max-semi-space-size', '--min-semi-space-size', '--initial-old-space-size'])
    if (process.execArgv.some((given) => given.startsWith(flag))) v8.setFlagsFromString(`${flag}=0`);
}

/** Runs `module` in a new worker thread; it reads `data`'s fields from `workerData`. `limits`: the thread's heap sizes, if not V8's. */
export function startTypeScriptWorker(module: URL, data: Record<string, unknown>, limits?: ResourceLimits): Worker {
  useDefaultHeap();
  return new Worker(new URL('./typescript-worker.mjs', import.meta.url), {
    workerData: { ...data, module: module.href, bundle: BUNDLE },
    ...(limits && { resourceLimits: limits }),
  });
}
