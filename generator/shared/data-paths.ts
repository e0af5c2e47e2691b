/**
 * Where things live in the build output. The generator writes these paths and the handler, the pages and
 * the documents that link them read them, so all import them from here.
 *
 * Lists are stored as chunks of CHUNK_SIZE items, one JSON item per line, so that any window (limit <=
 * CHUNK_SIZE) spans at most two chunks whatever the size of the collection; a default page (20 items at
 * a multiple of 20) is inside one. (Complete envelopes of every default page, kept until 1.3, were as many
 * bytes again as the chunks, for one read where a chunk needs one too.)
 */

import { API_BASE_PATH } from './policy.ts';

/** Folder of the generated data inside the build output, outside `/v1/` so the edge can fetch it. */
export const DATA_DIR = '_api';
export const MANIFEST_PATH = `${DATA_DIR}/manifest.json`;
/** The route table the handler serves (see shared/operations.ts), written from the collections table. */
export const OPERATIONS_PATH = `${DATA_DIR}/operations.json`;
export const CHUNK_SIZE = 100;
/** The precomputed responses, in folders that mirror the API's paths. */
const DATA_ROOT = `${DATA_DIR}${API_BASE_PATH}`;

/** The filters a list is narrowed by, as name and value pairs in the documented order of its filters. */
export type AppliedFilters = readonly (readonly [name: string, value: string])[];

/** `all`, or `category=seo/industry=retail`: one folder per filter combination, filters in documented order. */
export function filterKey(filters: AppliedFilters): string {
  return filters.length ? filters.map(([name, value]) => `${name}=${value}`).join('/') : 'all';
}

/** Numbered parts (list chunks, the search index's parts) a folder holds: 1,000, so 10,000 folders at 10 million parts. */
export const PARTS_PER_FOLDER = 1000;

/** Part `n` of a numbered series, under a folder of its thousand: `0/7`, `12/12345`. No client asks for one by its path. */
export const partPath = (n: number) => `${Math.floor(n / PARTS_PER_FOLDER)}/${n}`;

export const chunkPath = (route: string, filters: AppliedFilters, chunk: number) =>
  `${DATA_ROOT}/${route}/${filterKey(filters)}/chunk/${partPath(chunk)}.ndjson`;

/**
 * A stable, evenly spread number for `key` (FNV-1a over its UTF-16 units): records are spread over folders
 * by it, so that no folder of the output grows with a collection (Netlify refuses a deploy with more than
 * 54,000 files in one folder; the build keeps every folder under 10,000 entries).
 */
function spread(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** The fan-out folder of `key`: `digits` hexadecimal digits of its spread. */
export const fanOut = (key: string, digits: number) => (spread(key) % 16 ** digits).toString(16).padStart(digits, '0');

/**
 * Folders record files are spread over under each get route: 256 (16^2), 10,000 files each at 2.5 million,
 * as many as the record pages. More would only cost a cold build: at 4,000 records, 4,096 folders meant
 * 2,500 folders made for 4,000 files.
 */
const RECORD_FAN_OUT = 2;
/** Folders record pages are spread over in each collection: 256 (16^2), 10,000 pages each at 2.5 million. */
export const PAGE_FAN_OUT = 2;

/** `id` must already be validated (docs/api.md: letters, digits, `.`, `_`, `-`) and lowercased. */
export const recordPath = (route: string, id: string) => `${DATA_ROOT}/${route}/${fanOut(id, RECORD_FAN_OUT)}/${id}.json`;

/**
 * The folder of a record's page, site-relative without slashes around it: `intelligence/7e/rag-evaluation`.
 * The fan-out folder keeps the address short and stable (it depends on the slug alone).
 */
export const recordPageFolder = (collectionPath: string, slug: string) => `${collectionPath}/${fanOut(slug, PAGE_FAN_OUT)}/${slug}`;

export const staticPath = (route: string) => `${DATA_ROOT}/${route || 'index'}.json`;

export const latestPath = (route: string, count: number) => `${DATA_ROOT}/${route}/${count}.json`;

/** The OpenAPI document, served as it is (not an envelope) at `/v1/openapi.json`. */
export const OPENAPI_PATH = `${DATA_ROOT}/openapi.json`;
