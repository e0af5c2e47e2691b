/**
 * What a load keeps for the next load of the same folder with the same build cache (npm run dev keeps one
 * for its whole run): the scan, each file's load, each collection's files and records. A file's load is
 * taken again while the file keeps its identity, so a steady build reads, parses and hashes only the files
 * whose identity moved; when the scan knows which entries changed (scan-content.ts), it looks at those files
 * only, and puts an edited file's record in its place in a copy of its collection's records.
 */
import type { CollectionTable } from '../../schemas/collections.ts';
import type { BuildCache } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import type { ContentSource, RawRecord } from './load-file.ts';
import { type Collection, type FileLoad, loadFile } from './load-one-file.ts';
import type { ContentLimits } from './content-limits.ts';
import type { ContentScan } from './scan-content.ts';
import { firstAtOrAfter } from '../../shared/sorted-search.ts';

export interface KeptLoads {
  root: string;
  collections: CollectionTable;
  limits: ContentLimits;
  /** The last load's scan, taken up to date in place by the next one when it can be (scan-content.ts). */
  scan: ContentScan | undefined;
  /** Each file the last load loaded. */
  files: Map<string, FileLoad>;
  /** Each Markdown collection's files, in order. */
  matched: Map<string, string[]>;
  /** Each collection's records, as the last load gave them. */
  records: Map<string, RawRecord[]>;
  digests: Map<string, string>;
  /** Site paths of the files under `images/`. */
  images: Set<string>;
  /** Files whose load was not known by their identity (read within the racy window): read again each load until they are. */
  unwitnessed: Set<string>;
  /** Files whose load has problems. */
  troubled: Set<string>;
  /** Each Markdown collection's test of a path. */
  matchers: Map<string, (file: string) => boolean>;
}

const keptLoads = new WeakMap<BuildCache, KeptLoads>();

/**
 * A collection's file pattern (`folder/*.md`; the collections table's own, not content) as a test of a
 * content path: `*` stands for any name within one folder that does not start with a dot.
 */
function patternMatcher(pattern: string): (file: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('(?!\\.)[^/]*');
  const expression = new RegExp(`^${source}$`);
  return (file) => expression.test(file);
}

/** Nothing kept yet, for a load of `root` under these collections and limits. */
export function freshLoads(root: string, collections: CollectionTable, limits: ContentLimits): KeptLoads {
  const matchers = new Map<string, (file: string) => boolean>();
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind === 'markdown') matchers.set(key, patternMatcher(collection.pattern));
  }
  return {
    root,
    collections,
    limits,
    scan: undefined,
    files: new Map(),
    matched: new Map(),
    records: new Map(),
    digests: new Map(),
    images: new Set(),
    unwitnessed: new Set(),
    troubled: new Set(),
    matchers,
  };
}

/** What `cache` kept of the last load of this folder under these collections and limits; a new one otherwise. */
export function keptFor(cache: BuildCache, root: string, collections: CollectionTable, limits: ContentLimits): KeptLoads {
  const kept = keptLoads.get(cache);
  const sameLimits = kept?.limits.textBytes === limits.textBytes && kept.limits.imageBytes === limits.imageBytes;
  if (kept?.root === root && kept.collections === collections && sameLimits) return kept;
  const fresh = freshLoads(root, collections, limits);
  keptLoads.set(cache, fresh);
  return fresh;
}

/** Lets go of what `cache` kept: a load that failed half way leaves it neither the old nor the new. */
export const forgetLoads = (cache: BuildCache) => keptLoads.delete(cache);

/** Site paths of the files under `images/` among `readable`. */
export const imagesOf = (readable: ReadonlySet<string>) =>
  new Set([...readable].filter((file) => file.startsWith('images/')).map((file) => `/${file}`));

/**
 * Whether a settings or list file is loaded: when the scan found it readable, or found nothing wrong with it
 * (an absent file is its loader's to report); a file the scan refused gives no records.
 */
export const loadsSingleFile = (scan: ContentScan, file: string) =>
  scan.readable.has(file) || !scan.problems.some((problem) => problem.file === file);

/** The collection `file` is a file of, if any. */
function collectionOf(kept: KeptLoads, file: string): string | undefined {
  for (const [key, collection] of Object.entries(kept.collections)) {
    if (collection.kind === 'markdown' ? kept.matchers.get(key)!(file) : collection.file === file) return key;
  }
  return undefined;
}

/** Notes a file's new load in what is kept. */
export function keepLoad(kept: KeptLoads, file: string, load: FileLoad): void {
  kept.files.set(file, load);
  if (load.digest === undefined) kept.digests.delete(file);
  else kept.digests.set(file, load.digest);
  if (load.witnessed) kept.unwitnessed.delete(file);
  else kept.unwitnessed.add(file);
  if (load.problems.length > 0) kept.troubled.add(file);
  else kept.troubled.delete(file);
}

function dropLoad(kept: KeptLoads, file: string): void {
  kept.files.delete(file);
  kept.digests.delete(file);
  kept.unwitnessed.delete(file);
  kept.troubled.delete(file);
}

/** The problems of the files kept with problems, in load order (each collection's in turn, its files sorted). */
export function keptProblems(kept: KeptLoads): Problem[] {
  if (kept.troubled.size === 0) return [];
  const order = Object.keys(kept.collections);
  const rank = (file: string) => order.indexOf(collectionOf(kept, file)!);
  const files = [...kept.troubled].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return files.flatMap((file) => kept.files.get(file)!.problems);
}

/** A collection's records again from its files' kept loads. */
const recordsOf = (kept: KeptLoads, files: readonly string[]) => {
  const records: RawRecord[] = [];
  for (const file of files) for (const record of kept.files.get(file)!.records) records.push(record);
  return records;
};

/**
 * Brings what is kept up to date with a scan that knows which entries changed since the kept one (its
 * `changed`): those files, and the files read within the racy window last time, are loaded again; the rest
 * is taken as kept. Each collection's records in a copy, the kept ones unchanged; the number of files read.
 */
export function loadChanged(kept: KeptLoads, scan: ContentScan, source: ContentSource, cache: BuildCache): number {
  let read = 0;
  let imagesMoved = false;
  const records = new Map(kept.records);
  const patched = new Set<string>();
  const rebuild = new Set<string>();
  const take = (file: string, collection: Collection) => {
    const load = loadFile(source, file, collection, cache);
    read++;
    keepLoad(kept, file, load);
    return load;
  };
  for (const file of new Set([...scan.changed!, ...kept.unwitnessed])) {
    imagesMoved ||= file.startsWith('images/');
    const key = collectionOf(kept, file);
    if (key === undefined) continue;
    const collection = kept.collections[key]!;
    if (collection.kind !== 'markdown') {
      const loads = loadsSingleFile(scan, file);
      if (!loads) dropLoad(kept, file);
      records.set(key, loads ? take(file, collection).records : []);
      continue;
    }
    const files = kept.matched.get(key)!;
    const at = firstAtOrAfter(files, file);
    const present = files[at] === file;
    if (!scan.readable.has(file)) {
      if (present) files.splice(at, 1);
      dropLoad(kept, file);
      rebuild.add(key);
      continue;
    }
    // A file of one record each, as every file of the collection was: its record takes the place of the old one.
    const aligned = present && kept.records.get(key)!.length === files.length;
    const load = take(file, collection);
    if (!present) files.splice(at, 0, file);
    if (!aligned || load.records.length !== 1) rebuild.add(key);
    else if (!rebuild.has(key)) {
      if (!patched.has(key)) records.set(key, records.get(key)!.slice());
      patched.add(key);
      records.get(key)![at] = load.records[0]!;
    }
  }
  for (const key of rebuild) records.set(key, recordsOf(kept, kept.matched.get(key)!));
  kept.records = records;
  if (imagesMoved) kept.images = imagesOf(scan.readable);
  kept.scan = scan;
  return read;
}
