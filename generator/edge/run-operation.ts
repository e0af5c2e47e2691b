/**
 * Answers one operation of the route table from the precomputed files (or the search index): the part of
 * a response that depends on the operation and its parameters, not on the request's meta.
 */
import { latestPath, OPENAPI_PATH, recordPath, staticPath, filterKey } from '../shared/data-paths.ts';
import { extractData, pagination, type MetaFields } from '../shared/envelope.ts';
import { apiErrors, type ApiError } from '../shared/errors.ts';
import type { Manifest } from '../shared/manifest.ts';
import { filterParams, type Operation } from '../shared/operations.ts';
import type { ParsedParams } from '../shared/params.ts';
import type { Search, SearchQuery } from '../search/search.ts';
import type { Assets } from './assets.ts';
import { readWindow } from './read-window.ts';

/** What a route produced: the data JSON (or a raw document) and the pagination to report. */
export type RouteResult = { data: string; pagination?: MetaFields['pagination'] } | { document: string };

export interface OperationContext {
  assets: Assets;
  search: Search;
  manifest: Manifest;
}

/** The data of a precomputed envelope; a missing file is the client's 404 only where `notFound` says so. */
async function readData(assets: Assets, path: string, notFound?: () => ApiError): Promise<string> {
  const text = await assets.read(path);
  if (text === null) throw notFound?.() ?? new Error(`missing data file ${path}`);
  return extractData(text);
}

async function runList(operation: Operation, params: ParsedParams, { assets, manifest }: OperationContext): Promise<RouteResult> {
  const filters = filterParams(operation)
    .filter((param) => params[param.name] !== undefined)
    .map((param) => [param.name, params[param.name] as string] as const);
  const total = manifest.totals[operation.path]?.[filterKey(filters)] ?? 0;
  const limit = params.limit as number;
  const offset = params.offset as number;
  const window = await readWindow(assets, operation.path, filters, total, limit, offset);
  return { data: window.data, pagination: pagination(total, limit, offset, window.count) };
}

async function runSearch(params: ParsedParams, search: Search): Promise<RouteResult> {
  const query: SearchQuery = {
    q: params.q as string,
    type: params.type as string,
    limit: params.limit as number,
    offset: params.offset as number,
  };
  const found = await search.search(query);
  return { data: JSON.stringify(found.items), pagination: pagination(found.total, query.limit, query.offset, found.items.length) };
}

export async function runOperation(operation: Operation, params: ParsedParams, context: OperationContext): Promise<RouteResult> {
  const { assets } = context;
  switch (operation.kind) {
    case 'list':
      return runList(operation, params, context);
    case 'get': {
      const id = params.id as string;
      return {
        data: await readData(assets, recordPath(operation.path, id), () => apiErrors.recordNotFound(operation.noun ?? 'record', id)),
      };
    }
    case 'latest':
      return { data: await readData(assets, latestPath(operation.path, params.count as number)) };
    case 'search':
      return runSearch(params, context.search);
    case 'openapi': {
      const document = await assets.read(OPENAPI_PATH);
      if (document === null) throw new Error(`missing ${OPENAPI_PATH}`);
      return { document };
    }
    case 'index':
    case 'static':
      return { data: await readData(assets, staticPath(operation.path)) };
  }
}
