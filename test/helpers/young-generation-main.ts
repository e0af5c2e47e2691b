/** Run with `--max-semi-space-size=64` (and `--min-semi-space-size=64`, as `npm run build` does): prints this thread's young generation and a worker thread's, in MB. */
import { startTypeScriptWorker } from '../../generator/pipeline/typescript-worker.ts';
import { churn } from './young-generation-worker.ts';

const worker = startTypeScriptWorker(new URL('./young-generation-worker.ts', import.meta.url), {});
const workerMb = await new Promise<number>((resolve) => worker.once('message', resolve));
await worker.terminate();
console.log(JSON.stringify({ main: churn(), worker: workerMb }));
