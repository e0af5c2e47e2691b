/**
 * Answers any `limit`/`offset` window of a list from the one or two precomputed chunks it falls in (a
 * default page, 20 items at a multiple of 20, is always inside one). The work never grows with the list.
 */
import { CHUNK_SIZE, chunkPath, type AppliedFilters } from '../shared/data-paths.ts';
import type { Assets } from './assets.ts';

export interface Window {
  /** The data JSON array. */
  data: string;
  count: number;
}

async function mustRead(assets: Assets, path: string): Promise<string> {
  const text = await assets.read(path);
  // The manifest promised this file: its absence is a broken deploy, not a client error.
  if (text === null) throw new Error(`missing data file ${path}`);
  return text;
}

export async function readWindow(
  assets: Assets,
  route: string,
  filters: AppliedFilters,
  total: number,
  limit: number,
  offset: number,
): Promise<Window> {
  if (offset >= total) return { data: '[]', count: 0 };
  const count = Math.min(limit, total - offset);
  const first = Math.floor(offset / CHUNK_SIZE);
  const last = Math.floor((offset + count - 1) / CHUNK_SIZE);
  const chunks = await Promise.all(
    Array.from({ length: last - first + 1 }, (_, index) => mustRead(assets, chunkPath(route, filters, first + index))),
  );
  const lines = chunks.length === 1 ? chunks[0]!.split('\n') : chunks.flatMap((chunk) => chunk.split('\n'));
  const start = offset - first * CHUNK_SIZE;
  return { data: `[${lines.slice(start, start + count).join(',')}]`, count };
}
