// The entry of a worker thread that runs one of the generator's TypeScript modules (typescript-worker.ts).
// Started from the generator's bundle (launch.mjs), it runs the module's bundled counterpart; otherwise a
// worker does not inherit the TypeScript loader the process runs with (`node --import tsx`), so it
// registers it, then imports the module its data names.
import { workerData } from 'node:worker_threads';

if (workerData.bundle) {
  const { bundledEntry } = await import('../launch.mjs');
  await import(bundledEntry(workerData.bundle, workerData.module));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.module);
}
