/** Run with `npm run build`'s heap flags: prints this thread's heap report and a worker thread's (heap-worker.ts). */
import { startTypeScriptWorker } from '../../generator/pipeline/typescript-worker.ts';
import { heapReport } from './heap-worker.ts';

const main = await heapReport();
const worker = startTypeScriptWorker(new URL('./heap-worker.ts', import.meta.url), {});
const workerReport = await new Promise((resolve) => worker.once('message', resolve));
await worker.terminate();
console.log(JSON.stringify({ main, worker: workerReport }));
