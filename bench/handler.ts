/**
 * Handler benchmark. In process: median and p99 microseconds per request for a default list page, an
 * arbitrary window, a get and a 404, with the data in memory (the handler's own work). Over HTTP: the local
 * server under autocannon, an API list page next to the same JSON served as a static file, in one run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildSite } from '../generator/pipeline/build-site.ts';
import { createMemoryAssets } from '../generator/edge/assets.ts';
import { createHandler } from '../generator/edge/handler.ts';
import { createMemoryLimiter } from '../generator/edge/limiter.ts';
import { chunkPath } from '../generator/shared/data-paths.ts';
import { readDistFiles } from '../test/helpers/api-runtimes.ts';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function timeRequests(handler: ReturnType<typeof createHandler>, paths: string[], iterations: number) {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const request = new Request(`http://api.test${paths[i % paths.length]}`);
    const started = performance.now();
    const response = await handler(request, { ip: '192.0.2.1' });
    await response.text();
    samples.push((performance.now() - started) * 1000);
  }
  return samples.sort((a, b) => a - b);
}

async function benchInProcess(dist: string) {
  const handler = createHandler({ assets: createMemoryAssets(readDistFiles(dist)), limiter: createMemoryLimiter({ limit: 1e9 }) });
  const cases: [string, string[]][] = [
    ['default list page', ['/v1/intelligence/list', '/v1/intelligence/list?offset=20', '/v1/intelligence/list?topic=measurement']],
    ['arbitrary window (2 chunks)', ['/v1/intelligence/list?limit=37&offset=83', '/v1/intelligence/list?limit=100&offset=150']],
    ['get by id', ['/v1/intelligence/get?id=article-1', '/v1/services/get?id=service-3']],
    ['404 unknown path', ['/v1/nope']],
  ];
  console.log('\n## Handler in process (memory assets, 4,000 articles; 20,000 requests each)\n');
  console.log('| request | median | p99 |');
  console.log('|---|---:|---:|');
  for (const [label, paths] of cases) {
    await timeRequests(handler, paths, 2000); // warm up the JIT
    const samples = await timeRequests(handler, paths, 20000);
    console.log(`| ${label} | ${percentile(samples, 0.5).toFixed(0)} µs | ${percentile(samples, 0.99).toFixed(0)} µs |`);
  }
}

async function startServer(dist: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve-once.ts', dist], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (data) => resolve(String(data).trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function load(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: seconds, pipelining: 1 });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function benchThroughput(dist: string, seconds: number) {
  const server = await startServer(dist);
  try {
    const api = `${server.url}/v1/intelligence/list`;
    const file = `${server.url}/${chunkPath('intelligence/list', [], 0)}`;
    await load(api, 2);
    await load(file, 2);
    const apiRps = await load(api, seconds);
    const fileRps = await load(file, seconds);
    console.log(`\n## Local server under autocannon (32 connections, ${seconds} s each)\n`);
    console.log('| path | requests/s |');
    console.log('|---|---:|');
    console.log(`| /v1/intelligence/list (handler) | ${apiRps.toFixed(0)} |`);
    console.log(`| the same page as a static file | ${fileRps.toFixed(0)} |`);
    console.log(`| ratio API / static | ${((apiRps / fileRps) * 100).toFixed(0)}% |`);
  } finally {
    server.stop();
  }
}

export async function benchHandler(seconds = 10): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-handler-'));
  try {
    const content = path.join(root, 'content');
    await writeSyntheticContent(content, { articles: 4000 });
    const dist = path.join(root, 'dist');
    await buildSite({ contentDir: content, outDir: dist, env: { SOURCE_DATE_EPOCH: '1795000000', SEMANTIC_SEARCH: 'off' } });
    await benchInProcess(dist);
    await benchThroughput(dist, seconds);
    console.log('\nGoals: the handler adds under 0.3 ms at the median; the API keeps at least 70% of the static throughput.');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHandler();
