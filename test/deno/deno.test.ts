/** The edge handler under real Deno (the runtime of Netlify Edge) answers exactly as it does under Node. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { removeBuildDirs, SEMANTIC_ON, tempDir } from '../helpers/build-output.ts';
import { ON_DISK } from '../helpers/scratch.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';

const run = promisify(execFile);

/** The binary the `deno` npm package installs for this platform. */
function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const candidates = [require.resolve('deno/package.json').replace(/package\.json$/, 'bin.cjs')];
  return candidates.find(existsSync)!;
}

const REQUESTS = [
  { path: '/v1/' },
  { path: '/v1/health' },
  { path: '/v1/services/list?limit=3&offset=1' },
  { path: '/v1/expertise/list?category=neural-core&industry=healthcare' },
  { path: '/v1/intelligence/list?topic=AGENTIC-COMMERCE&limit=7&offset=2' },
  { path: '/v1/intelligence/get?id=how-ai-agents-pay-ap2-x402' },
  { path: '/v1/intelligence/latest?count=3' },
  { path: '/v1/technology/protocols' },
  { path: '/v1/search?q=how%20can%20AI%20agents%20pay%20for%20things%20in%20my%20store' },
  { path: '/v1/search?q=retail%20medai&type=expertise&limit=2' },
  { path: '/v1/search?q=zebra%20quantum%20banjo' },
  // Synonyms (content/synonyms.yaml), a half-typed last word, a typo, a deep page.
  { path: '/v1/search?q=mmm%20on%20a%20budget' },
  { path: '/v1/search?q=agentic%20comm' },
  { path: '/v1/search?q=incrementallity&limit=3&offset=2' },
  // Meaning as well as words (docs/semantic-search.md): the encoder's floats and the fusion, the same in both.
  { path: '/v1/search?q=making%20chat%20popups%20usable%20for%20blind%20people' },
  { path: '/v1/search?q=advertising%20on%20supermarket%20websites&type=expertise&limit=2&offset=1' },
  { path: '/v1/services/get?id=..%2Fmanifest' },
  { path: '/v1/services/get?id=no-such-thing' },
  { path: '/v1/services/list?limit=0' },
  { path: '/v1/nope' },
  { path: '/v1/services/list', method: 'POST' },
  { path: '/v1/services/list', method: 'HEAD' },
  { path: '/v1/services/list', method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' } },
];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Times and request ids differ by run; everything else must match byte for byte. A HEAD's Content-Length is
 * the length of the GET body, whose processing time may take another digit under load: it must be there.
 */
function comparable(answer: Answer) {
  const headers = { ...answer.headers };
  if (headers['content-length'] !== undefined) headers['content-length'] = /^\d+$/.test(headers['content-length']) ? 'n' : 'not a length';
  return { ...answer, headers, body: answer.body.replace(/"processing_time_ms":\d+/, '"processing_time_ms":0') };
}

let dist: string;
beforeAll(async () => {
  // On disk: Deno reads nothing under /dev (the suites' memory folder) unless given every permission, and the
  // handler must answer with no more than the right to read its build.
  dist = path.join(tempDir('deno', ON_DISK), 'dist');
  await buildSite({ contentDir: 'content', outDir: dist, env: SEMANTIC_ON });
});
afterAll(removeBuildDirs);

describe('edge handler under Deno', () => {
  it('answers representative requests exactly as under Node', async () => {
    const child = run(
      process.execPath,
      [denoBinary(), 'run', `--allow-read=${dist}`, '--allow-env', '--no-prompt', 'test/deno/run-handler.ts', dist],
      {
        maxBuffer: 32 * 1024 * 1024,
      },
    );
    child.child.stdin!.end(JSON.stringify(REQUESTS));
    const { stdout } = await child;
    const underDeno: Answer[] = JSON.parse(stdout);

    const handler = createHandler({
      assets: createMemoryAssets(readDistFiles(dist)),
      limiter: createMemoryLimiter({ limit: 1_000_000 }),
      clock: () => Date.parse('2026-11-20T10:00:00.000Z'),
      createRequestId: () => 'deno',
    });
    const underNode: Answer[] = [];
    for (const request of REQUESTS) {
      const response = await handler(
        new Request(`http://api.test${request.path}`, { method: request.method ?? 'GET', headers: request.headers }),
        { ip: '192.0.2.1' },
      );
      underNode.push({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() });
    }

    expect(underDeno.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 400, 404, 400, 404, 405, 200, 204,
    ]);
    expect(underDeno.map(comparable)).toEqual(underNode.map(comparable));
    const search = JSON.parse(underDeno[8]!.body);
    expect(search.data.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('Netlify Edge adapter under Deno', () => {
  it('reads its data from the site origin and answers through the handler', async () => {
    const { createServer } = await import('../../generator/server/create-server.ts');
    const server = createServer({ dist });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const child = run(
        process.execPath,
        [denoBinary(), 'run', '--allow-net=127.0.0.1', '--allow-read=.', '--allow-env', '--no-prompt', 'test/deno/run-adapter.ts', base],
        {
          maxBuffer: 8 * 1024 * 1024,
        },
      );
      child.child.stdin!.end(
        JSON.stringify(['/v1/health', '/v1/services/get?id=mcp-server-development', '/v1/search?q=agent%20payments', '/v1/nope', '/v1']),
      );
      const answers = JSON.parse((await child).stdout);
      expect(answers.map((answer: { status: number }) => answer.status)).toEqual([200, 200, 200, 404, 200]);
      expect(answers[0].body.data.status).toBe('healthy');
      expect(answers[1].body.data.id).toBe('mcp-server-development');
      expect(answers[2].body.data[0].score).toBeGreaterThan(0);
      expect(answers[3].body.error.code).toBe('NOT_FOUND');
      // One isolate, one limiter: the count carries across the requests.
      expect(answers.map((answer: { ratelimit: string }) => answer.ratelimit)).toEqual(
        [0, 1, 2, 3, 4].map((n) => `"default";r=${99 - n};t=0`),
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 60_000);
});
