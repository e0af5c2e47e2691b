/** Assets read from a build folder on disk (and in dev its overlay of changed files), for the local server. */
import path from 'node:path';
import type { Assets } from '../edge/assets.ts';
import { type BuildFiles, readBuildFile } from './build-files.ts';

export interface FileAssetsOptions {
  /** Bytes of files kept in memory (text counted at two bytes a character); the oldest entries go first. 0 turns the cache off. */
  cacheBytes?: number;
}

type Cached = string | Uint8Array;
const asText = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
const sizeOf = (value: Cached) => (typeof value === 'string' ? value.length * 2 : value.byteLength);

/**
 * The server reads each build from a snapshot that never changes (served-builds.ts), so files are kept in a
 * bounded cache instead of being read per request.
 */
export function createFileAssets(build: string | BuildFiles, options: FileAssetsOptions = {}): Assets {
  const files = typeof build === 'string' ? { dir: build } : build;
  const root = path.resolve(files.dir);
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

  async function load<T extends Cached>(file: string, key: string, decode: (bytes: Uint8Array) => T): Promise<T | null> {
    const cached = cache.get(key);
    if (cached !== undefined) return cached as T;
    const target = path.resolve(root, file);
    // The handler only builds paths from validated ids; this guard keeps that true whatever a caller does.
    if (!target.startsWith(root + path.sep)) return null;
    const bytes = await readBuildFile(files, path.relative(root, target).split(path.sep).join('/'));
    if (bytes === null) return null;
    const value = decode(bytes);
    remember(key, value);
    return value;
  }

  return {
    read: (file) => load(file, `text:${file}`, asText),
    readBytes: (file) => load(file, `bytes:${file}`, (bytes) => bytes),
  };
}
