/**
 * The large static files the build compresses once, beside themselves (`x.js.br`, `x.js.gz`), so the
 * local server does not compress megabytes per request. Only these few: a sibling beside every file would
 * double the files of every folder.
 */

/** A static file this large or larger, of a type below, is stored compressed too. */
export const PRECOMPRESS_MIN_BYTES = 256 * 1024;

/** The content type of each extension that is precompressed, as the server sends it. */
export const PRECOMPRESSED_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The file name extension of each stored encoding. */
export const PRECOMPRESSED_EXTENSIONS = { br: '.br', gzip: '.gz' } as const;
