/** Requests to a worker thread (thread-requests.ts), asked of a real thread: answers by id, errors, news, an end. */
import { afterAll, describe, expect, it } from 'vitest';
import { askThread } from '../../generator/pipeline/thread-requests.ts';
import { startTypeScriptWorker } from '../../generator/pipeline/typescript-worker.ts';

type Request = { kind: 'double' | 'fail' | 'end' | 'total'; value: number };
const worker = startTypeScriptWorker(new URL('../helpers/answering-thread.ts', import.meta.url), {});
const news: unknown[] = [];
const thread = askThread<Request, { news: string }>(worker, 'the test thread', (message) => news.push(message));
afterAll(() => worker.terminate());

describe('requests to a worker thread', () => {
  it('matches each answer to its request, however the answers are ordered', async () => {
    // The slower request is asked first and answered last.
    const answers = await Promise.all([
      thread.ask<number>({ kind: 'double', value: 40 }),
      thread.ask<number>({ kind: 'double', value: 1 }),
    ]);
    expect(answers).toEqual([80, 2]);
  });

  it('hands what is not an answer to the news callback', () => {
    expect(news).toEqual([{ news: 'ready' }]);
  });

  it('hands a message told without an id to the thread in order, before the requests asked after it', async () => {
    worker.postMessage({ add: 3 });
    worker.postMessage({ add: 4 });
    await expect(thread.ask<number>({ kind: 'total', value: 0 })).resolves.toBe(7);
  });

  it('sends each request the way its asker posts it', async () => {
    const posted: unknown[] = [];
    const paced = askThread<Request>(worker, 'the test thread', undefined, (message) => {
      posted.push(message);
      worker.postMessage(message);
    });
    await expect(paced.ask<number>({ kind: 'double', value: 3 })).resolves.toBe(6);
    expect(posted).toEqual([expect.objectContaining({ kind: 'double', value: 3 })]);
  });

  it("rejects a request with the thread's error message and goes on answering", async () => {
    await expect(thread.ask({ kind: 'fail', value: 7 })).rejects.toThrow('cannot take 7');
    await expect(thread.ask<number>({ kind: 'double', value: 2 })).resolves.toBe(4);
  });

  it('rejects a request the thread ended without answering, and any asked after it at once', async () => {
    const waiting = thread.ask({ kind: 'double', value: 5_000 });
    await expect(thread.ask({ kind: 'end', value: 0 })).rejects.toThrow('the test thread ended (exit code 3)');
    await expect(waiting).rejects.toThrow('the test thread ended (exit code 3)');
    await expect(thread.ask({ kind: 'double', value: 1 })).rejects.toThrow('the test thread ended (exit code 3)');
  });
});
