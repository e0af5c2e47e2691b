/** Any limit/offset window of a list, answered from at most two precomputed files. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { buildInto, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';

const ARTICLES = 250;
let files: Map<string, string | Uint8Array>;
let all: { id: string; date: string }[];

async function fetchJson(path: string, reads?: string[]) {
  const assets = createMemoryAssets(files);
  const handler = createHandler({
    assets: {
      read: async (file) => {
        reads?.push(file);
        return assets.read(file);
      },
      readBytes: async (file) => {
        reads?.push(file);
        return assets.readBytes(file);
      },
    },
    limiter: createMemoryLimiter({ limit: 1e9 }),
  });
  // Load the manifest first so that only the reads of the request itself are counted.
  await handler(new Request('http://api.test/v1/health'), { ip: '::1' });
  reads?.splice(0);
  const response = await handler(new Request(`http://api.test${path}`), { ip: '::1' });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

beforeAll(async () => {
  const content = path.join(tempDir('content-windows'), 'content');
  await writeSyntheticContent(content, { articles: ARTICLES, services: 3, expertise: 3, technology: 3, resources: 2 });
  files = readDistFiles(await buildInto(content));
  all = [];
  for (let offset = 0; offset < ARTICLES; offset += 100)
    all.push(...(await fetchJson(`/v1/intelligence/list?limit=100&offset=${offset}`)).body.data);
}, 60_000);
afterAll(removeBuildDirs);

describe('list windows', () => {
  it('pages through the whole list in contract order', () => {
    expect(all).toHaveLength(ARTICLES);
    expect(new Set(all.map((item) => item.id)).size).toBe(ARTICLES);
    const dates = all.map((item) => item.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it.each([
    [0, 20],
    [7, 3],
    [95, 10],
    [99, 2],
    [100, 100],
    [150, 100],
    [199, 100],
    [240, 20],
    [245, 20],
    [249, 1],
  ])('answers offset %i, limit %i with the matching slice from at most two files', async (offset, limit) => {
    const reads: string[] = [];
    const { status, body } = await fetchJson(`/v1/intelligence/list?offset=${offset}&limit=${limit}`, reads);
    expect(status).toBe(200);
    expect(body.data.map((item: { id: string }) => item.id)).toEqual(all.slice(offset, offset + limit).map((item) => item.id));
    expect(body.meta.pagination).toEqual({ total: ARTICLES, limit, offset, has_more: offset + body.data.length < ARTICLES });
    expect(reads.length).toBeGreaterThanOrEqual(1);
    expect(reads.length).toBeLessThanOrEqual(2);
  });

  it('answers an offset past the end without reading any file', async () => {
    const reads: string[] = [];
    const { body } = await fetchJson('/v1/intelligence/list?offset=250&limit=5', reads);
    expect(body.data).toEqual([]);
    expect(body.meta.pagination).toEqual({ total: ARTICLES, limit: 5, offset: 250, has_more: false });
    expect(reads).toEqual([]);
  });

  it('answers a filtered window from the files of that filter', async () => {
    const reads: string[] = [];
    const { body } = await fetchJson('/v1/intelligence/list?topic=measurement&offset=3&limit=50', reads);
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) expect(item.topics.includes('measurement') || item.category === 'measurement').toBe(true);
    expect(reads.every((file) => file.includes('/topic=measurement/'))).toBe(true);
  });
});
