/**
 * Builds content folders into temporary output folders and reads the result back: the file tree, parsed
 * envelopes, list pages and chunks. Shared by the generator suites, which all assert on parsed JSON.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import type { Manifest } from '../../generator/shared/manifest.ts';
import { PARTS_PER_FOLDER, recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { type MetaFields, pagination } from '../../generator/shared/envelope.ts';
import { DEFAULT_LIMIT } from '../../generator/shared/operations.ts';
import { scratchDir } from './scratch.ts';

/**
 * The build environment of every suite: a fixed build time and a site address of our own. Semantic search is
 * off: embedding thousands of synthetic records would cost minutes of model time to test what words alone
 * decide. The suites about meaning (test/semantic, the Deno and MCP parity) turn it on with SEMANTIC_ON.
 */
export const BUILD_ENV = { SOURCE_DATE_EPOCH: '1795000000', SITE_URL: 'https://api.example.test', SEMANTIC_SEARCH: 'off' } as const;
/** BUILD_ENV with semantic search on, as a deploy builds by default. */
export const SEMANTIC_ON = { ...BUILD_ENV, SEMANTIC_SEARCH: 'on' } as const;
/** SOURCE_DATE_EPOCH 1795000000 as the API writes times. */
export const BUILD_TIME = '2026-11-18T11:06:40Z';
export const SITE_URL = 'https://api.example.test';
/** The data folder of the `/v1/` routes inside the build output. */
export const V1 = '_api/v1';

export interface Envelope<T = unknown> {
  success: boolean;
  data: T;
  meta: MetaFields;
}

const created: string[] = [];

/** A fresh empty temporary folder under `parent` (scratch.ts), deleted by `removeBuildDirs`. */
export function tempDir(prefix: string, parent?: string): string {
  const dir = scratchDir(prefix, parent);
  created.push(dir);
  return dir;
}

/** Deletes every folder `tempDir` and `buildInto` made in this process; call it from `afterAll`. */
export function removeBuildDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Builds `contentDir` into a new folder (`<temp>/dist`, so that siblings can be inspected) and returns it. */
export async function buildInto(contentDir: string, env: Record<string, string | undefined> = BUILD_ENV): Promise<string> {
  const outDir = path.join(tempDir('build'), 'dist');
  await buildSite({ contentDir, outDir, env });
  return outDir;
}

/** Every file under `root`, as sorted `/`-separated relative paths. */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relative);
      else files.push(relative);
    }
  };
  walk(root, '');
  return files.sort();
}

/** Every file under `root` with its bytes, keyed by relative path in sorted order. */
export function readTree(root: string): Map<string, Buffer> {
  return new Map(listFiles(root).map((file) => [file, readFileSync(path.join(root, file))]));
}

export function readJson<T = unknown>(root: string, file: string): T {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as T;
}

/** The envelope of a `/v1/` data file, `route` relative to `_api/v1/`, e.g. `health.json`. */
export function readEnvelope<T = unknown>(root: string, route: string): Envelope<T> {
  return readJson<Envelope<T>>(root, `${V1}/${route}`);
}

/** The data file of a record under a get route, relative to `_api/v1/` (`services`, `seo-audit`): records are spread over folders. */
export const recordFile = (collection: string, id: string) => recordPath(`${collection}/get`, id).slice(`${V1}/`.length);

/** A record's page, site-relative with its slashes: `/intelligence/7e/rag-evaluation/`. */
export const recordPage = (collection: string, slug: string) => `/${recordPageFolder(collection, slug)}/`;

export function readManifest(root: string): Manifest {
  return readJson<Manifest>(root, '_api/manifest.json');
}

/** The items of one NDJSON chunk, in order. */
export function readChunk<T = unknown>(root: string, file: string): T[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as T);
}

/** One list route and filter folder: its chunks, by number, in order. */
export interface ListFolder {
  chunks: { index: number; file: string }[];
}

/**
 * Every filter folder of a list route (`services/list` -> `all`, `category=seo`, ...), with the chunks it
 * holds. Anything else in a folder fails the parse, so a stray file is noticed.
 */
export function readListFolders(root: string, route: string): Map<string, ListFolder> {
  const prefix = `${V1}/${route}/`;
  const folders = new Map<string, ListFolder>();
  for (const file of listFiles(root)) {
    if (!file.startsWith(prefix)) continue;
    const chunk = /^(.+)\/chunk\/(0|[1-9]\d*)\/(0|[1-9]\d*)\.ndjson$/.exec(file.slice(prefix.length));
    if (!chunk || Math.floor(Number(chunk[3]) / PARTS_PER_FOLDER) !== Number(chunk[2])) {
      throw new Error(`unexpected file in a list folder: ${file}`);
    }
    const folder = folders.get(chunk[1]!) ?? { chunks: [] };
    folders.set(chunk[1]!, folder);
    folder.chunks.push({ index: Number(chunk[3]), file });
  }
  for (const folder of folders.values()) folder.chunks.sort((a, b) => a.index - b.index);
  return folders;
}

/** Every item of a list folder (`all`, `topic=measurement`), from its chunks, in order. */
export function readListItems<T = unknown>(root: string, route: string, key = 'all'): T[] {
  return (readListFolders(root, route).get(key)?.chunks ?? []).flatMap((chunk) => readChunk<T>(root, chunk.file));
}

/**
 * The default page at `offset` of a list folder as the handler answers it: the window of its chunks, the
 * total from the manifest, the meta the build stores (a static envelope's) with its pagination.
 */
export function readListPage<T = unknown>(root: string, route: string, key = 'all', offset = 0): Envelope<T[]> {
  const data = readListItems<T>(root, route, key).slice(offset, offset + DEFAULT_LIMIT);
  const total = readManifest(root).totals[route]?.[key] ?? 0;
  const { meta } = readEnvelope(root, 'health.json');
  return { success: true, data, meta: { ...meta, pagination: pagination(total, DEFAULT_LIMIT, offset, data.length) } };
}
