/**
 * Runs the edge handler under Deno, as Netlify Edge does: reads a build folder with Deno's own file API,
 * answers the requests given on stdin (a JSON array of paths) and prints the responses as JSON.
 * Usage: deno run --allow-read=DIST --allow-env test/deno/run-handler.ts DIST < requests.json
 */
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';

declare const Deno: {
  args: string[];
  readTextFile(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  stdin: { readable: ReadableStream<Uint8Array> };
  errors: { NotFound: new () => Error };
};

const [dist] = Deno.args;
const orNull = async <T>(read: Promise<T>): Promise<T | null> => {
  try {
    return await read;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
};
const handler = createHandler({
  assets: {
    read: (path) => orNull(Deno.readTextFile(`${dist}/${path}`)),
    readBytes: (path) => orNull(Deno.readFile(`${dist}/${path}`)),
  },
  limiter: createMemoryLimiter({ limit: 1_000_000 }),
  clock: () => Date.parse('2026-11-20T10:00:00.000Z'),
  createRequestId: () => 'deno',
});

const requests: { path: string; method?: string; headers?: Record<string, string> }[] = JSON.parse(
  await new Response(Deno.stdin.readable).text(),
);
const results = [];
for (const request of requests) {
  const response = await handler(
    new Request(`http://api.test${request.path}`, { method: request.method ?? 'GET', headers: request.headers }),
    { ip: '192.0.2.1' },
  );
  results.push({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() });
}
console.log(JSON.stringify(results));
