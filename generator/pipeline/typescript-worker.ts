/** Worker threads for the generator's TypeScript modules (`npm run build`'s helper thread, the builds of `npm run dev`). */
import { type ResourceLimits, Worker } from 'node:worker_threads';

/** The generator's bundle folder, when this code runs from it (launch.mjs defines it). */
declare const __GENERATOR_BUNDLE__: string | undefined;
const BUNDLE = typeof __GENERATOR_BUNDLE__ === 'string' ? __GENERATOR_BUNDLE__ : undefined;

/** Runs `module` in a new worker thread; it reads `data`'s fields from `workerData`. `limits`: the thread's heap sizes, if not V8's. */
export function startTypeScriptWorker(module: URL, data: Record<string, unknown>, limits?: ResourceLimits): Worker {
  return new Worker(new URL('./typescript-worker.mjs', import.meta.url), {
    workerData: { ...data, module: module.href, bundle: BUNDLE },
    ...(limits && { resourceLimits: limits }),
  });
}
