/**
 * Requests to a worker thread and their answers, matched by id: how the embedding threads and `npm run dev`'s
 * builder are asked for work. A thread that fails or ends rejects every request
 * still waiting, and any asked after, at once, rather than leaving them waiting for ever.
 */
import { parentPort, type Transferable, type Worker } from 'node:worker_threads';

/** What a thread posts back for one request: its result, or its error's message. */
type ThreadAnswer = { id: number; result: unknown } | { id: number; error: string };

const isAnswer = (message: unknown): message is ThreadAnswer =>
  typeof message === 'object' && message !== null && 'id' in message && ('result' in message || 'error' in message);

export interface ThreadRequests<Request> {
  /**
   * Sends `request` (its `transfer` buffers moved, not copied); resolves with the thread's result, whose type
   * the caller states (what crosses a thread is not checked), or rejects with its error.
   */
  ask<Result>(request: Request, transfer?: readonly Transferable[]): Promise<Result>;
}

/**
 * Asks `worker`, which answers with `answerRequests`. `name` says which thread ended, in the error; messages
 * that answer no request (what the thread tells between answers) go to `news`. `post` sends a request (the
 * build's helper paces what it posts: paced-posting.ts); by default, at once.
 */
export function askThread<Request extends object, News = never>(
  worker: Worker,
  name: string,
  news?: (message: News) => void,
  post: (message: object, transfer?: readonly Transferable[]) => void = (message, transfer) => worker.postMessage(message, transfer),
): ThreadRequests<Request> {
  const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  let next = 0;
  /** Why the thread is gone, once it is. */
  let ended: Error | undefined;
  const failAll = (error: Error) => {
    ended ??= error;
    for (const request of waiting.values()) request.reject(error);
    waiting.clear();
  };
  worker.on('message', (message: unknown) => {
    if (!isAnswer(message)) return news?.(message as News);
    const request = waiting.get(message.id);
    waiting.delete(message.id);
    if ('error' in message) request?.reject(new Error(message.error));
    else request?.resolve(message.result);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`${name} ended (exit code ${code})`)));
  return {
    ask<Result>(request: Request, transfer?: readonly Transferable[]) {
      const id = next++;
      const answer = new Promise<Result>((resolve, reject) =>
        ended ? reject(ended) : waiting.set(id, { resolve: resolve as (result: unknown) => void, reject }),
      );
      // It may be awaited later; until then a failure must not count as unhandled.
      answer.catch(() => {});
      post({ ...request, id }, transfer);
      return answer;
    },
  };
}

/** A request's result, and the buffers to move with it rather than copy. */
export type Answered = { result: unknown; transfer?: readonly Transferable[] };

/**
 * In a worker thread: answers each request the thread that started it asks (askThread) with `handle`'s result,
 * or its error's message; then calls `after` with the request it answered. A message without an id is told,
 * not asked: it goes to `told`, in the order it came among the requests.
 */
export function answerRequests<Request extends object, Told extends object = never>(
  handle: (request: Request) => Answered | Promise<Answered>,
  after?: (request: Request) => void,
  told?: (message: Told) => void,
): void {
  parentPort!.on('message', async (request: (Request & { id: number }) | Told) => {
    if (!('id' in request)) return told?.(request);
    try {
      const { result, transfer } = await handle(request);
      parentPort!.postMessage({ id: request.id, result } satisfies ThreadAnswer, transfer);
    } catch (error) {
      parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ThreadAnswer);
    }
    after?.(request);
  });
}
