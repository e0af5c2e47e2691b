/** Assets read from a build folder on disk, for the local server. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Assets } from '../edge/assets.ts';

export interface FileAssetsOptions {
  /** Bytes of file text kept in memory; the oldest entries go first. 0 turns the cache off. */
  cacheBytes?: number;
}

/**
 * The server reads each build from a snapshot that never changes (served-builds.ts), so file texts are kept
 * in a bounded cache instead of being read per request.
 */
export function createFileAssets(distDir: string, options: FileAssetsOptions = {}): Assets {
  const root = path.resolve(distDir);
  const cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
  const cache = new Map<string, string>();
  let cachedBytes = 0;

  const remember = (file: string, text: string) => {
    if (text.length * 2 > cacheBytes) return;
    cache.set(file, text);
    cachedBytes += text.length * 2;
    for (const [key, value] of cache) {
      if (cachedBytes <= cacheBytes) break;
      cache.delete(key);
      cachedBytes -= value.length * 2;
    }
  };

  return {
    async read(file) {
      const cached = cache.get(file);
      if (cached !== undefined) return cached;
      const target = path.resolve(root, file);
      // The handler only builds paths from validated ids; this guard keeps that true whatever a caller does.
      if (!target.startsWith(root + path.sep)) return null;
      try {
        const text = await readFile(target, 'utf8');
        remember(file, text);
        return text;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw error;
      }
    },
  };
}
