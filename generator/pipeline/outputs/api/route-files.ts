/**
 * The single-file routes: each collection's extra routes as the collections table declares them (taxonomy
 * terms with counts, subsets, latest), the health check and the index of operations.
 */
import type { HealthData, IndexData } from '../../../schemas/api.ts';
import type { AnyEntry, ApiCollection, ExtraRoute } from '../../../schemas/collections.ts';
import { latestPath, staticPath } from '../../../shared/data-paths.ts';
import { folderAddress, SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import { serializeEnvelope, type MetaFields } from '../../../shared/envelope.ts';
import type { Operation } from '../../../shared/operations.ts';
import { API_BASE_PATH } from '../../../shared/policy.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import type { createShaper } from '../records/shape-records.ts';

/**
 * A collection the API serves, with its published records. Their list items are shaped by the shaper when
 * an output asks (once per build each): after an edit most outputs are carried over and need none.
 */
export interface ServedCollection {
  key: string;
  collection: ApiCollection;
  shaper: ReturnType<typeof createShaper>;
  records: readonly AnyEntry[];
}

function countValues(records: readonly AnyEntry[], field: string, counts: Map<string, number>): void {
  for (const record of records) {
    const value = record[field];
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') counts.set(id, (counts.get(id) ?? 0) + 1);
  }
}

/** A taxonomy's terms in the shape of its `item` schema, each with the published records that use it. */
function termItems(route: Extract<ExtraRoute, { kind: 'terms' }>, catalogue: Catalogue): Record<string, unknown>[] {
  // Facts of every record: a steady build (output-tracker.ts) takes the previous build's counts.
  const counts = catalogue.track.steadyKept(`term counts\n${route.taxonomy}\n${JSON.stringify(route.counts)}`, () => {
    const made = new Map<string, number>();
    for (const { collection, field } of route.counts) countValues(catalogue.records[collection] ?? [], field, made);
    return made;
  });
  const taxonomy = catalogue.collections[route.taxonomy];
  if (taxonomy?.kind !== 'list') throw new Error(`route ${route.path}: "${route.taxonomy}" is not a list collection`);
  const keys = Object.keys(taxonomy.item.shape);
  return (catalogue.terms[route.taxonomy] ?? []).map((term) =>
    Object.fromEntries(keys.map((key) => [key, key === 'count' ? (counts.get(term.id) ?? 0) : (term[key] ?? null)])),
  );
}

function* extraRouteFiles(served: ServedCollection, catalogue: Catalogue, meta: MetaFields): Generator<OutputFile> {
  const { api } = served.collection;
  for (const route of api.routes ?? []) {
    const path = `${api.path}/${route.path}`;
    if (route.kind === 'latest') {
      for (let count = 1; count <= route.max; count++) {
        const json = served.records.slice(0, count).map(served.shaper.itemJson);
        yield { path: latestPath(path, count), body: serializeEnvelope(`[${json.join(',')}]`, meta) };
      }
      continue;
    }
    const data =
      route.kind === 'terms'
        ? termItems(route, catalogue)
        : served.records
            .filter((record) => Object.entries(route.where).every(([field, value]) => served.shaper.field(record, field) === value))
            .map(served.shaper.item);
    yield { path: staticPath(path), body: serializeEnvelope(JSON.stringify(data), meta) };
  }
}

function createIndex(catalogue: Catalogue, operations: readonly Operation[]): IndexData {
  const { site, siteUrl } = catalogue;
  const baseUrl = `${siteUrl}${API_BASE_PATH}/`;
  return {
    name: `${site.name} API`,
    version: site.api_version,
    documentation: `${siteUrl}${folderAddress(SITE_ADDRESSES.reference)}`,
    openapi: `${baseUrl}openapi.json`,
    resource_feed: `${siteUrl}/${SITE_ADDRESSES.resourceFeed}`,
    operations: operations
      .filter((op) => op.path !== '')
      .map((op) => ({
        path: `${API_BASE_PATH}/${op.path}`,
        url: `${baseUrl}${op.path}`,
        method: 'GET',
        summary: op.summary,
        parameters: op.params.map((param) => param.name),
      })),
  };
}

/** Extra routes of every served collection, then health and the index. */
export function buildRouteFiles(
  catalogue: Catalogue,
  served: readonly ServedCollection[],
  operations: readonly Operation[],
  meta: MetaFields,
): OutputFile[] {
  const files = served.flatMap((collection) => [...extraRouteFiles(collection, catalogue, meta)]);
  const records = Object.fromEntries(served.map(({ collection, records }) => [collection.api.path, records.length]));
  const health: HealthData = {
    status: 'healthy',
    version: catalogue.site.api_version,
    resources: Object.keys(records),
    built_at: catalogue.builtAt,
    records,
  };
  files.push({ path: staticPath('health'), body: serializeEnvelope(JSON.stringify(health), meta) });
  files.push({ path: staticPath(''), body: serializeEnvelope(JSON.stringify(createIndex(catalogue, operations)), meta) });
  return files;
}
