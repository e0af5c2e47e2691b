/**
 * Where things live in the build output. The generator writes these paths and the handler, the pages and
 * the documents that link them read them, so all import them from here.
 *
 * Lists are stored twice: complete envelopes for every default page (`limit=20`, offsets 0, 20, ...),
 * answered with one read, and chunks of CHUNK_SIZE items, one JSON item per line, so that any other
 * window (limit <= CHUNK_SIZE) spans at most two chunks whatever the size of the collection.
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

export type FilterValues = readonly (readonly [name: string, value: string])[];

/** `all`, or `category=seo/industry=retail`: one folder per filter combination, filters in documented order. */
export function filterKey(filters: FilterValues): string {
  return filters.length ? filters.map(([name, value]) => `${name}=${value}`).join('/') : 'all';
}

export const pagePath = (route: string, filters: FilterValues, offset: number) =>
  `${DATA_ROOT}/${route}/${filterKey(filters)}/page-${offset}.json`;

export const chunkPath = (route: string, filters: FilterValues, chunk: number) =>
  `${DATA_ROOT}/${route}/${filterKey(filters)}/chunk-${chunk}.ndjson`;

/** `id` must already be validated (CONTRACT: letters, digits, `.`, `_`, `-`) and lowercased. */
export const recordPath = (route: string, id: string) => `${DATA_ROOT}/${route}/${id}.json`;

export const staticPath = (route: string) => `${DATA_ROOT}/${route || 'index'}.json`;

export const latestPath = (route: string, count: number) => `${DATA_ROOT}/${route}/${count}.json`;

/** The OpenAPI document, served as it is (not an envelope) at `/v1/openapi.json`. */
export const OPENAPI_PATH = `${DATA_ROOT}/openapi.json`;

/** The static resource feed and the JSON Schema of one entry (spec "Resource feed document"). */
export const FEED_PATH = 'api/resources.json';
export const ENTRY_SCHEMA_PATH = 'api/resources-entry.schema.json';
