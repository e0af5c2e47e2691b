/**
 * One example per operation, read from the files the build has just made, so the reference shows real
 * responses. Examples stay short: at most two items, and record bodies cut to a preview.
 */
import { pagination, type MetaFields } from '../../../shared/envelope.ts';
import { chunkPath, latestPath, MANIFEST_PATH, recordPath, staticPath } from '../../../shared/data-paths.ts';
import type { Manifest } from '../../../shared/manifest.ts';
import type { Operation } from '../../../shared/operations.ts';
import type { SearchResult } from '../../../schemas/api.ts';
import type { OutputFile } from '../output-file.ts';

const MAX_ITEMS = 2;
const MAX_HTML = 200;

interface Envelope {
  success: true;
  data: unknown;
  meta: MetaFields;
}

type Item = Record<string, unknown> & { id: string; slug: string; url: string; summary: string };

/**
 * Reads a built body as an example. Times are set to `timestamp` (the request time in `meta`, the build time
 * in health's `built_at`), so the document does not change with the clock of the build that wrote it.
 */
type Reader = ((path: string) => Envelope) & { bodies: ReadonlyMap<string, string> };

function createReader(bodies: ReadonlyMap<string, string>, timestamp: string): Reader {
  const read = (path: string): Envelope => {
    const body = bodies.get(path);
    if (body === undefined) throw new Error(`OpenAPI example: the build made no ${path}; the example would not be a real response`);
    const envelope = JSON.parse(body) as Envelope;
    envelope.meta.timestamp = timestamp;
    const data = envelope.data as { built_at?: unknown };
    if (data && typeof data === 'object' && 'built_at' in data) data.built_at = timestamp;
    return envelope;
  };
  return Object.assign(read, { bodies });
}

/** Cuts `content_html` to a preview, wherever it sits. */
function shortenHtml(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shortenHtml);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'content_html' && typeof inner === 'string' && inner.length > MAX_HTML ? `${inner.slice(0, MAX_HTML)}…` : shortenHtml(inner),
    ]),
  );
}

/** The first items of a page; a paginated page becomes the true answer to `limit=2`. */
function shortenPage(page: Envelope): Envelope {
  if (!Array.isArray(page.data)) return shortenHtml(page) as Envelope;
  const data = page.data.slice(0, MAX_ITEMS);
  const total = page.meta.pagination?.total;
  const meta = total === undefined ? page.meta : { ...page.meta, pagination: pagination(total, MAX_ITEMS, 0, data.length) };
  return { ...page, data, meta };
}

const routeOf = (operations: readonly Operation[], kind: Operation['kind'], collection: Operation['collection']) =>
  operations.find((operation) => operation.kind === kind && operation.collection === collection);

/** The first items of a list, from its first chunk (one JSON item a line). */
const firstItems = (bodies: ReadonlyMap<string, string>, operation: Operation | undefined): Item[] => {
  const chunk = operation && bodies.get(chunkPath(operation.path, [], 0));
  return chunk ? chunk.split('\n', MAX_ITEMS).map((line) => JSON.parse(line) as Item) : [];
};

/** A list's first page as the API answers `limit=2`: its first items, the total from the manifest. */
function listExample(read: Reader, operation: Operation): Envelope {
  const { meta } = read(staticPath('health'));
  const data = firstItems(read.bodies, operation);
  const total = (JSON.parse(read.bodies.get(MANIFEST_PATH)!) as Manifest).totals[operation.path]?.all ?? 0;
  return { success: true, data, meta: { ...meta, pagination: pagination(total, MAX_ITEMS, 0, data.length) } };
}

/**
 * Search runs per request in the handler, so the build has no search answer to show: the example is
 * made from the first record of each searched collection, with illustrative scores.
 */
function createSearchExample(read: Reader, operations: readonly Operation[], types: readonly string[]): Envelope {
  const data: SearchResult[] = [];
  for (const type of types) {
    const list = routeOf(operations, 'list', type);
    const [item] = firstItems(read.bodies, list);
    if (!list || !item || data.length >= MAX_ITEMS) continue;
    const title = String(item.title ?? item.name);
    data.push({
      type,
      id: item.id,
      slug: item.slug,
      title,
      summary: item.summary,
      url: item.url,
      score: Number((12.3456 / (data.length + 1)).toFixed(4)),
    });
  }
  const { meta } = read(staticPath('health'));
  return { success: true, data, meta: { ...meta, pagination: pagination(data.length, 20, 0, data.length) } };
}

/** The collections search's `type` narrows to (every value but `all`). */
const searchTypes = (operation: Operation) =>
  operation.params.flatMap((param) => (param.kind === 'enum' ? param.values.filter((value) => value !== 'all') : []));

/** The example of one operation, or undefined when the content has nothing to show (an empty collection). */
function selectExample(operation: Operation, read: Reader, operations: readonly Operation[]): Envelope | undefined {
  switch (operation.kind) {
    case 'list':
      return listExample(read, operation);
    case 'get': {
      const [first] = firstItems(read.bodies, routeOf(operations, 'list', operation.collection));
      return first ? (shortenHtml(read(recordPath(operation.path, first.id))) as Envelope) : undefined;
    }
    case 'latest':
      return read(latestPath(operation.path, MAX_ITEMS));
    case 'index':
    case 'static':
      return shortenPage(read(staticPath(operation.path)));
    case 'search':
      return createSearchExample(read, operations, searchTypes(operation));
    case 'openapi':
      // The document would have to contain itself.
      return undefined;
  }
}

/**
 * Keeps, from the API files as they stream past to the emit step, the few bodies the examples are made of:
 * each list's first chunk (then the record of its first item, which comes later), the static routes,
 * `latest/2` and the manifest (the lists' totals). `collect()` then gives the examples by operation path.
 * `readCarried`: a carried file's text from the previous output (carried-files.ts readIntact), so that
 * an edit reads the few it wants rather than make them again (some 50 ms at 100,000 articles).
 */
export function createExampleCollector(
  operations: readonly Operation[],
  readCarried?: (file: { path: string; carried: string }) => string | undefined,
) {
  const wanted = new Set<string>([MANIFEST_PATH]);
  const recordRouteOfPage = new Map<string, string>();
  for (const operation of operations) {
    if (operation.kind === 'list') {
      const chunk = chunkPath(operation.path, [], 0);
      wanted.add(chunk);
      const getRoute = routeOf(operations, 'get', operation.collection);
      if (getRoute) recordRouteOfPage.set(chunk, getRoute.path);
    } else if (operation.kind === 'static' || operation.kind === 'index') {
      wanted.add(staticPath(operation.path));
    } else if (operation.kind === 'latest') {
      wanted.add(latestPath(operation.path, MAX_ITEMS));
    }
  }
  const bodies = new Map<string, string>();
  return {
    offer(file: OutputFile): void {
      if (!wanted.has(file.path) || 'copyFrom' in file) return;
      // A file carried over from the previous build is read from it, or else made again: the examples print it.
      const body = 'body' in file ? file.body : (readCarried?.(file) ?? file.make());
      if (typeof body !== 'string') return;
      bodies.set(file.path, body);
      const getRoute = recordRouteOfPage.get(file.path);
      const [first] = getRoute && body ? [JSON.parse(body.split('\n', 1)[0]!) as Item] : [];
      if (getRoute && first) wanted.add(recordPath(getRoute, first.id));
    },
    /** The examples by operation path, every time in them set to `timestamp`. */
    collect(timestamp: string): Map<string, unknown> {
      const read = createReader(bodies, timestamp);
      const examples = new Map<string, unknown>();
      for (const operation of operations) {
        const example = selectExample(operation, read, operations);
        if (example !== undefined) examples.set(operation.path, example);
      }
      return examples;
    },
  };
}
