/**
 * A worker thread for the thread-requests test: doubles numbers, fails or ends when asked, tells news first,
 * and adds up the numbers it is told (messages without an id), answering their total when asked.
 */
import { parentPort } from 'node:worker_threads';
import { answerRequests } from '../../generator/pipeline/thread-requests.ts';

parentPort!.postMessage({ news: 'ready' });
let total = 0;
answerRequests(
  async (request: { kind: 'double' | 'fail' | 'end' | 'total'; value: number }) => {
    if (request.kind === 'total') return { result: total };
    if (request.kind === 'fail') throw new Error(`cannot take ${request.value}`);
    if (request.kind === 'end') process.exit(3);
    await new Promise((resolve) => setTimeout(resolve, request.value));
    return { result: request.value * 2 };
  },
  undefined,
  (told: { add: number }) => {
    total += told.add;
  },
);
