// The entry of a worker thread that runs one of the generator's TypeScript modules (typescript-worker.ts).
// Started from the generator's bundle (launch.mjs), it runs the module's bundled counterpart; otherwise, or
// for a module the bundle does not hold (a test's own thread), a worker does not inherit the TypeScript
// loader the process runs with (`node --import tsx`), so it registers it, then imports the module its data names.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

const bundled = workerData.bundle && (await import('../launch.mjs')).bundledEntry(workerData.bundle, workerData.module);
if (bundled && existsSync(fileURLToPath(bundled))) {
  await import(bundled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.module);
}
