/**
 * Every `/v1/` response that does not depend on the request, as complete envelopes, plus the manifest and
 * the route table the handler reads. A pure function of the catalogue: `{ path, body }` files out.
 */
import { apiCollections, type ApiSpec } from '../../../schemas/collections.ts';
import { OPERATIONS_PATH, MANIFEST_PATH, recordPath } from '../../../shared/data-paths.ts';
import { serializeEnvelope, type MetaFields } from '../../../shared/envelope.ts';
import type { Manifest } from '../../../shared/manifest.ts';
import { createOperations, type Operation } from '../../../shared/operations.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { AfterEnvelope, OutputFile } from '../output-file.ts';
import { buildListFiles, type ListFilter } from './list-files.ts';
import { buildRouteFiles, type ServedCollection } from './route-files.ts';
import { createShaper, recordInputs } from '../records/shape-records.ts';
import { reachedIndexes, reachedRecords } from '../reached-records.ts';

export interface ApiFiles {
  /** Made as they are iterated (lists first), so the emit step writes them as they come. */
  files: Iterable<OutputFile>;
  manifest: Manifest;
  operations: Operation[];
}

/** The collections the API serves, each with its key, shaper and records. */
function serveCollections(catalogue: Catalogue): ServedCollection[] {
  return apiCollections(catalogue.collections).map(([key, collection]) => ({
    key,
    collection,
    shaper: createShaper(key, catalogue),
    records: catalogue.records[key]!,
  }));
}

/** A filter's allowed values: its taxonomies' ids in order, each once (docs/api.md: `topic` is a topic or a category). */
function allowedFilterValues(filter: ApiSpec['filters'][number], catalogue: Catalogue): string[] {
  return [...new Set(filter.taxonomies.flatMap((taxonomy) => (catalogue.terms[taxonomy] ?? []).map((term) => term.id)))];
}

/** Every record's envelope, under its id and, when they differ, its slug; carried over when its inputs are unchanged. */
function* recordFiles(
  served: ServedCollection,
  route: string,
  meta: MetaFields,
  catalogue: Catalogue,
  after: AfterEnvelope | undefined,
): Generator<OutputFile> {
  // In a steady build that names only what its edit reached, the other envelopes are carried over unnamed, but
  // the first record's: the OpenAPI examples print it.
  const reached = reachedRecords(catalogue, served.key);
  const first = served.records.slice(0, 1);
  for (const record of reached ? [...new Set([...first, ...reached])] : served.records) {
    let body: string | undefined;
    const make = () => (body ??= serializeEnvelope(JSON.stringify(served.shaper.record(record, served.shaper.item(record))), meta));
    // A record the edit did not touch keeps its previous key in a steady build: its inputs are not made.
    const inputs = () => `get\n${recordInputs(record, served.key, catalogue)}`;
    const untouched = !catalogue.track.touched(record.file);
    yield catalogue.track.file(recordPath(route, record.id), inputs, make, untouched);
    if (record.slug !== record.id) yield catalogue.track.file(recordPath(route, record.slug), inputs, make, untouched);
    const next = after?.(served.key, record);
    if (next) yield next;
  }
}

const byPath = (operations: readonly Operation[], path: string) => {
  const found = operations.find((operation) => operation.path === path);
  if (!found) throw new Error(`no operation ${path}`);
  return found;
};

/** `searchDocuments`: how many documents the search index holds, for the manifest. `after`: see AfterEnvelope. */
export function buildApiFiles(catalogue: Catalogue, searchDocuments = 0, after?: AfterEnvelope): ApiFiles {
  // The handler swaps in each request's own meta; the stored one carries the content's time, not the clock's,
  // so an unchanged site rebuilds to the same envelopes.
  const meta: MetaFields = {
    timestamp: catalogue.contentTime,
    request_id: 'build',
    processing_time_ms: 0,
    language: catalogue.site.language,
  };
  const collections = serveCollections(catalogue);
  const operations = createOperations(collections.map(({ collection }) => collection));
  const filters: Record<string, string[]> = {};
  const totals: Record<string, Record<string, number>> = {};
  const lists = collections.map((served) => {
    const { api } = served.collection;
    const listFilters = api.filters.map((filter): ListFilter => {
      filters[filter.source] ??= allowedFilterValues(filter, catalogue);
      return { name: filter.param, fields: filter.fields, values: filters[filter.source]! };
    });
    const operation = byPath(operations, `${api.path}/list`);
    const { field, itemJson, itemInputs } = served.shaper;
    const source = {
      operation,
      records: served.records,
      field,
      json: itemJson,
      inputs: itemInputs,
      filters: listFilters,
      track: catalogue.track,
      reached: reachedIndexes(catalogue, served.key),
    };
    const built = buildListFiles(source);
    totals[operation.path] = built.totals;
    return built.files;
  });
  const manifest: Manifest = {
    api_version: catalogue.site.api_version,
    language: catalogue.site.language,
    site_url: catalogue.siteUrl,
    built_at: catalogue.builtAt,
    filters,
    totals,
    search_documents: searchDocuments,
  };
  const small = [
    ...buildRouteFiles(catalogue, collections, operations, meta),
    { path: MANIFEST_PATH, body: JSON.stringify(manifest) },
    { path: OPERATIONS_PATH, body: JSON.stringify(operations) },
  ];

  function* files(): Generator<OutputFile> {
    for (const list of lists) yield* list();
    for (const served of collections) yield* recordFiles(served, `${served.collection.api.path}/get`, meta, catalogue, after);
    yield* small;
  }
  return { files: files(), manifest, operations };
}
