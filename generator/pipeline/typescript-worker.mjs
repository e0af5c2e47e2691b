// The entry of a worker thread that runs one of the generator's TypeScript modules (typescript-worker.ts):
// a worker does not inherit the TypeScript loader the process runs with (`node --import tsx`), so it
// registers it, then imports the module its data names.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
