/**
 * The server reads a build as one unit. Builds of two versions of the content are swapped into the folder a
 * running server serves, over and over, while clients keep asking: every answer belongs wholly to one build
 * (its total from the manifest and its items from the data files agree, its ETag is that build's), and once
 * a build has been written the next request gets it, with no restart.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { createServer } from '../../generator/server/create-server.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS } from '../helpers/addresses.ts';

type Json = Record<string, any>;
const SITE = { SITE_URL: 'https://api.example.test' };
/** Build A and build B: B moves one service to another category and has another build time. */
const VERSIONS = {
  A: { content: '', env: { ...SITE, SOURCE_DATE_EPOCH: '1795000000' } },
  B: { content: '', env: { ...SITE, SOURCE_DATE_EPOCH: '1795003600' } },
};
let dist: string;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  VERSIONS.A.content = fixtureDir('valid');
  VERSIONS.B.content = fixtureDir('valid');
  const file = path.join(VERSIONS.B.content, 'services', 'seo-audit.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace('category: growth-marketing', 'category: paid-media'));
  dist = path.join(tempDir('swap'), 'dist');
  await buildSite({ contentDir: VERSIONS.A.content, outDir: dist, env: VERSIONS.A.env });
  const server = createServer({ dist, handler: { limiter: createMemoryLimiter({ limit: 1_000_000 }) } });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  await close();
  removeBuildDirs();
  removeFixtureDirs();
});

const build = (version: keyof typeof VERSIONS) =>
  buildSite({ contentDir: VERSIONS[version].content, outDir: dist, env: VERSIONS[version].env });

/** What a build answers to the probes: the build time, a filtered total (manifest) beside its items (data files). */
async function probe(): Promise<{ builtAt: string; total: number; ids: string[]; etag: string }> {
  const health = (await (await fetch(`${base}/v1/health`)).json()) as Json;
  const response = await fetch(`${base}/v1/services/list?category=paid-media&limit=5`);
  const list = (await response.json()) as Json;
  return {
    builtAt: health.data.built_at,
    total: list.meta.pagination.total,
    ids: list.data.map((item: Json) => item.id),
    etag: response.headers.get('ETag')!,
  };
}

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !test() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a running server while builds are swapped', () => {
  it('serves the next request from a build written after it started, with no restart', async () => {
    expect((await probe()).builtAt).toBe('2026-11-18T11:06:40Z');
    await build('B');
    expect(await probe()).toMatchObject({ builtAt: '2026-11-18T12:06:40Z', total: 1, ids: ['technical-seo-audit'] });
    await build('A');
    expect(await probe()).toMatchObject({ builtAt: '2026-11-18T11:06:40Z', total: 0, ids: [] });
  });

  it('never answers with a mix of two builds while builds are swapped under load', async () => {
    const seen = new Map<string, string>();
    let stop = false;
    let answers = 0;
    const client = async () => {
      while (!stop) {
        const response = await fetch(`${base}/v1/services/list?category=paid-media&limit=5`);
        const body = (await response.json()) as Json;
        expect(response.status).toBe(200);
        // A total from one manifest with items from another build's files would disagree here.
        expect(body.meta.pagination.total).toBe(body.data.length);
        const key = `${body.meta.pagination.total}`;
        const etag = response.headers.get('ETag')!;
        expect(seen.get(key) ?? etag, 'one ETag per build').toBe(etag);
        seen.set(key, etag);
        answers++;
      }
    };
    const clients = Array.from({ length: 6 }, client);
    for (const version of ['B', 'A', 'B', 'A', 'B', 'A'] as const) await build(version);
    stop = true;
    await Promise.all(clients);
    expect(answers).toBeGreaterThan(50);
    expect([...seen.keys()].sort()).toEqual(['0', '1']);
    // Six whole builds: on a loaded machine they outlast the default 30 s, and a timed-out test's builds would
    // go on swapping under the next test.
  }, 120_000);

  it('keeps a build for a static file until its response is over, however many builds come after', async () => {
    // A large file read by a slow client: the response outlives the handler and the swap to the next build.
    const file = `${ADDRESS.admin}decap-cms.js`;
    const snapshots = () => readdirSync(path.dirname(dist)).filter((name) => name.includes('.serving-'));
    // A new build is served from its folder at once and from a snapshot of hard links once one is made, in the
    // background; the snapshot is what no later build can delete.
    await until(() => snapshots().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const expected = readFileSync(path.join(dist, file));
    const response = await new Promise<http.IncomingMessage>((resolve) => http.get(`${base}${file}`, resolve));
    const size = Number(response.headers['content-length']);
    response.pause();
    const held = snapshots();
    expect(held.length).toBeGreaterThan(0);
    await build('B');
    // A request now serves the new build; the slow response's build must stay until that response ends.
    expect((await fetch(`${base}/v1/health`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const name of held) expect(snapshots(), `${name} removed while a response still read from it`).toContain(name);
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.resume();
    await new Promise((resolve) => response.once('end', resolve));
    expect(Buffer.concat(chunks).length).toBe(size);
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    await build('A');
  }, 60_000);

  it('leaves no snapshot behind once the server has closed', async () => {
    const parent = path.dirname(dist);
    expect(readdirSync(parent).filter((name) => name.includes('.serving-')).length).toBeGreaterThan(0);
    await close();
    // Removed by a process of their own, so that a server stops at once whatever the size of its builds.
    await until(() => readdirSync(parent).filter((name) => name.includes('.serving-')).length === 0);
    expect(readdirSync(parent).filter((name) => name.includes('.serving-'))).toEqual([]);
    close = async () => {};
  });
});
