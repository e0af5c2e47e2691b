/** Assets read from a build folder on disk, for the local server. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Assets } from '../edge/assets.ts';

export function createFileAssets(distDir: string): Assets {
  const root = path.resolve(distDir);
  return {
    async read(file) {
      const target = path.resolve(root, file);
      // The handler only builds paths from validated ids; this guard keeps that true whatever a caller does.
      if (!target.startsWith(root + path.sep)) return null;
      try {
        return await readFile(target, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw error;
      }
    },
  };
}
