/**
 * Compressed copies of the large static files (see shared/precompressed.ts). Brotli at its best setting
 * takes seconds on a 5 MB script, so each copy is made once per source file's bytes and kept under
 * node_modules/.cache (safe to delete); a build only copies it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { PRECOMPRESS_MIN_BYTES, PRECOMPRESSED_EXTENSIONS, PRECOMPRESSED_TYPES } from '../../shared/precompressed.ts';
import type { OutputFile } from './output-file.ts';
import { writeWhole } from '../whole-file.ts';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/precompressed/', import.meta.url));

const compressors = {
  // Quality 9 of 11: within 10% of the smallest, at a tenth of the time.
  br: (body: Buffer) =>
    zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body: Buffer) => zlib.gzipSync(body, { level: 9 }),
};

/** The cached copy of `body` in `encoding`, made when missing; written whole, then renamed into place. */
function cachedCopy(body: Buffer, encoding: keyof typeof compressors): string | Uint8Array {
  const name = `${createHash('sha256').update(body).digest('hex')}${PRECOMPRESSED_EXTENSIONS[encoding]}`;
  const file = path.join(CACHE, name);
  if (existsSync(file)) return file;
  const compressed = compressors[encoding](body);
  try {
    mkdirSync(CACHE, { recursive: true });
    writeWhole(file, compressed);
    return file;
  } catch {
    return compressed; // A read-only cache: the build still gets its copy, made this time.
  }
}

/** The compressed copies of one file, if it is large enough and of a type worth compressing. */
function copiesOf(file: OutputFile): OutputFile[] {
  if (!PRECOMPRESSED_TYPES[path.extname(file.path)]) return [];
  const made = 'carried' in file ? file.make() : undefined;
  const size = 'copyFrom' in file ? statSync(file.copyFrom).size : Buffer.byteLength('body' in file ? file.body : made!);
  if (size < PRECOMPRESS_MIN_BYTES) return [];
  const body = 'copyFrom' in file ? readFileSync(file.copyFrom) : Buffer.from('body' in file ? file.body : made!);
  return (['br', 'gzip'] as const).map((encoding) => {
    const copy = cachedCopy(body, encoding);
    const target = `${file.path}${PRECOMPRESSED_EXTENSIONS[encoding]}`;
    return typeof copy === 'string' ? { path: target, copyFrom: copy } : { path: target, body: copy };
  });
}

/**
 * The copies of each copied file, by its path, its source and the source's stats, for as long as the process
 * runs (npm run dev builds again and again): the content manager's megabytes are read and hashed again only
 * when they change, and a copy is trusted only while its cached file is still there.
 */
const copiesByStats = new Map<string, OutputFile[]>();
function keptCopiesOf(file: OutputFile & { copyFrom: string }): OutputFile[] {
  const stats = statSync(file.copyFrom);
  const stamp = `${file.path}\n${file.copyFrom}\n${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  const kept = copiesByStats.get(stamp);
  if (kept?.every((copy) => !('copyFrom' in copy) || existsSync(copy.copyFrom))) return kept;
  const copies = copiesOf(file);
  copiesByStats.set(stamp, copies);
  return copies;
}

/** The compressed copies of `files` that are large enough and of a type worth compressing. */
export function precompressedCopies(files: readonly OutputFile[]): OutputFile[] {
  return files.flatMap((file) => ('copyFrom' in file ? keptCopiesOf(file) : copiesOf(file)));
}
