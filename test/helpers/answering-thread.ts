/** A worker thread for the thread-requests test: doubles numbers, fails or ends when asked, and tells news first. */
import { parentPort } from 'node:worker_threads';
import { answerRequests } from '../../generator/pipeline/thread-requests.ts';

parentPort!.postMessage({ news: 'ready' });
answerRequests(async (request: { kind: 'double' | 'fail' | 'end'; value: number }) => {
  if (request.kind === 'fail') throw new Error(`cannot take ${request.value}`);
  if (request.kind === 'end') process.exit(3);
  await new Promise((resolve) => setTimeout(resolve, request.value));
  return { result: request.value * 2 };
});
