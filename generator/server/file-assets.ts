/** Assets read from a build folder on disk, for the local server. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Assets } from '../edge/assets.ts';

export interface FileAssetsOptions {
  /** Bytes of files kept in memory (text counted at two bytes a character); the oldest entries go first. 0 turns the cache off. */
  cacheBytes?: number;
}

type Cached = string | Uint8Array;
const sizeOf = (value: Cached) => (typeof value === 'string' ? value.length * 2 : value.byteLength);

/**
 * The server reads each build from a snapshot that never changes (served-builds.ts), so files are kept in a
 * bounded cache instead of being read per request.
 */
export function createFileAssets(distDir: string, options: FileAssetsOptions = {}): Assets {
  const root = path.resolve(distDir);
  const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
  const cache = new Map<string, Cached>();
  let cachedBytes = 0;

  const remember = (key: string, value: Cached) => {
    if (sizeOf(value) > cacheBytes) return;
    cache.set(key, value);
    cachedBytes += sizeOf(value);
    for (const [oldest, entry] of cache) {
      if (cachedBytes <= cacheBytes) break;
      cache.delete(oldest);
      cachedBytes -= sizeOf(entry);
    }
  };

  async function load<T extends Cached>(file: string, key: string, read: (target: string) => Promise<T>): Promise<T | null> {
    const cached = cache.get(key);
    if (cached !== undefined) return cached as T;
    const target = path.resolve(root, file);
    // The handler only builds paths from validated ids; this guard keeps that true whatever a caller does.
    if (!target.startsWith(root + path.sep)) return null;
    try {
      const value = await read(target);
      remember(key, value);
      return value;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw error;
    }
  }

  return {
    read: (file) => load(file, `text:${file}`, (target) => readFile(target, 'utf8')),
    readBytes: (file) => load(file, `bytes:${file}`, async (target) => new Uint8Array(await readFile(target))),
  };
}
