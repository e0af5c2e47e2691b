/** Reads every file of every collection into raw records: parsed but not yet validated. */
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import { type BuildCache, NO_CACHE } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import { type ContentSource, digestOf, loadMarkdownFile, loadYamlFile, type RawContent, type RawRecord, readText } from './load-file.ts';
import type { LoadStore, StoredFile } from './load-store.ts';
import type { FileIdentity } from './read-approved.ts';
import { type ContentEntry, type ContentLimits, DEFAULT_LIMITS, readImage, scanContent } from './scan-content.ts';

export type { RawContent, RawRecord } from './load-file.ts';
/** Files changed this close to now are read anew: a coarse clock could hide a second edit in the same tick. */
const RACY_MS = 2000;

/** One file's load: its records, problems and digest, and the identity the scan gave the file it was read from. */
interface FileLoad {
  records: RawRecord[];
  problems: Problem[];
  digest: string | undefined;
  identity: FileIdentity | undefined;
  /** Known by its identity: changed longer than RACY_MS before it was read, so a later change moves its identity. */
  witnessed: boolean;
}

/**
 * One file's records, with its problems and digest: a pure function of its path and bytes, so kept across
 * builds by the file's identity, size and times as the scan saw them, in memory (npm run dev, kept-loads
 * below) or on disk (npm run build, load-store.ts). An edit reads one file.
 */
function loadFile(source: ContentSource, file: string, collection: Collection, cache: BuildCache, store?: LoadStore): FileLoad {
  const identity = source.identities.get(file);
  const witnessed = identity?.changedMs !== undefined && identity.changedMs < Date.now() - RACY_MS;
  // A file too new to be known by its key is kept under none: only its bytes can confirm it.
  const key = witnessed ? `${identity.dev}:${identity.ino}:${identity.size}:${identity.changedMs}` : '';
  const stored = store && (store.get(file, key) ?? confirmed(source, file, key, store));
  const own = scratchOf(source);
  const records = loadRecords(own, file, collection, cache, stored);
  const loaded = {
    records,
    problems: own.problems.length > 0 ? own.problems.splice(0) : [],
    digest: own.digests.get(file),
    identity,
    // A file that is not there has nothing to race with: the scan finding it moves its identity.
    witnessed: witnessed || identity === undefined,
  };
  if (store && !stored && own.keep && loaded.problems.length === 0) store.set(file, key, own.keep);
  if (store) for (const record of records) record.keepChecked = (checked) => store.check(file, checked);
  own.digests.clear();
  own.keep = undefined;
  return loaded;
}

type Collection = CollectionTable[string];

function loadRecords(source: ContentSource, file: string, collection: Collection, cache: BuildCache, stored?: StoredFile): RawRecord[] {
  if (collection.kind === 'markdown') {
    const record = loadMarkdownFile(source, file, cache, stored);
    return record ? [record] : [];
  }
  const optional = collection.kind === 'document' && collection.optional;
  return loadYamlFile(source, file, collection.kind, optional, stored);
}

/**
 * One file's own view of the content source, so that what loading it reports (problems, digest, what to
 * keep) is its own and can be kept with it. One per load, emptied after each file: loading is synchronous
 * and a file's loaders keep only the folder and the scan's identities, which it shares. At 100,000 files, a
 * new object and map per file was a measurable share of the garbage a steady build makes.
 */
const scratches = new WeakMap<ContentSource, ContentSource>();
function scratchOf(source: ContentSource): ContentSource {
  let own = scratches.get(source);
  if (!own) {
    own = { root: source.root, identities: source.identities, problems: [], digests: new Map(), keep: undefined };
    scratches.set(source, own);
  }
  return own;
}

/** What `store` kept of `file` when its bytes are still those it was kept from (its key moved: a fresh checkout). */
function confirmed(source: ContentSource, file: string, key: string, store?: LoadStore): StoredFile | undefined {
  if (!store?.has(file)) return undefined;
  let text: string | undefined;
  try {
    text = readText(source, file);
  } catch {
    return undefined;
  }
  const stored = text === undefined ? undefined : store.confirm(file, digestOf(file, text), key);
  return stored && { ...stored, text: text! };
}

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

/**
 * What a load keeps for the next load of the same folder with the same build cache (npm run dev keeps one
 * for its whole run): each file's load, taken again while the file keeps its identity, so a steady build
 * reads, parses and hashes only the files whose identity moved, and walks each of the others once.
 */
interface KeptLoads {
  root: string;
  collections: CollectionTable;
  limits: ContentLimits;
  /** Every file the last scan found readable: its load, or null when no collection loads it (an image). */
  files: Map<string, FileLoad | null>;
  /** Each Markdown collection's files, in order. */
  matched: Map<string, string[]>;
  digests: Map<string, string>;
  /** Site paths of the files under `images/`: the same while the files are. */
  images: Set<string>;
}

const keptLoads = new WeakMap<BuildCache, KeptLoads>();

/** What `cache` kept of the last load of this folder under these collections and limits; a new one otherwise. */
function keptFor(cache: BuildCache, root: string, collections: CollectionTable, limits: ContentLimits): KeptLoads {
  const kept = keptLoads.get(cache);
  if (kept?.root === root && kept.collections === collections && kept.limits === limits) return kept;
  const fresh = { root, collections, limits, files: new Map(), matched: new Map(), digests: new Map(), images: new Set<string>() };
  keptLoads.set(cache, fresh);
  return fresh;
}

/** Whether the scan found readable exactly the files it found last time (no file added or removed). */
function sameFiles(kept: KeptLoads, readable: ReadonlySet<string>): boolean {
  if (kept.files.size !== readable.size) return false;
  for (const file of readable) if (!kept.files.has(file)) return false;
  return true;
}

const sameIdentity = (a: FileIdentity | undefined, b: FileIdentity | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.changedMs === b.changedMs);

/** A collection's files among those the scan found readable, in sorted order, whatever the file system's order. */
function matchedFiles(readable: ReadonlySet<string>, pattern: string): string[] {
  const matches = patternMatcher(pattern);
  const files: string[] = [];
  for (const file of readable) if (matches(file)) files.push(file);
  return files.sort();
}

/**
 * Loads the whole content folder; records come in sorted file order, whatever the file system's order.
 * `cache`: a build cache kept from one build to the next keeps each file's load with it (KeptLoads).
 * `store`: Markdown files kept on disk by an earlier build, and where to keep this build's (the caller saves it).
 * `list`: the folder's listing, when the caller knows it without listing it (npm run dev, from its watcher).
 */
export async function loadContent(
  root: string,
  collections: CollectionTable = siteCollections,
  limits = DEFAULT_LIMITS,
  cache: BuildCache = NO_CACHE,
  store?: LoadStore,
  list?: (root: string) => ContentEntry[],
): Promise<RawContent> {
  const scan = await scanContent(root, limits, list?.(root));
  const problems: Problem[] = [...scan.problems];
  // The load store keeps what this build asks it for: with one, every file is asked for.
  const kept = store || cache === NO_CACHE ? undefined : keptFor(cache, root, collections, limits);
  const same = kept !== undefined && sameFiles(kept, scan.readable);
  const digests = same ? new Map(kept.digests) : new Map<string, string>();
  const source: ContentSource = { root, identities: scan.identities, problems, digests };
  const loads = same ? kept.files : new Map<string, FileLoad | null>();
  let read = 0;
  const loadOf = (file: string, collection: Collection): FileLoad => {
    const before = kept?.files.get(file);
    let load = before;
    if (!before?.witnessed || !sameIdentity(before.identity, scan.identities.get(file))) {
      load = loadFile(source, file, collection, cache, store);
      read++;
      if (load.digest === undefined) digests.delete(file);
      else digests.set(file, load.digest);
    } else if (!same && load!.digest !== undefined) digests.set(file, load!.digest);
    loads.set(file, load!);
    if (load!.problems.length > 0) problems.push(...load!.problems);
    return load!;
  };
  const records: Record<string, RawRecord[]> = {};
  const matched = new Map<string, string[]>();
  try {
    for (const [key, collection] of Object.entries(collections)) {
      if (collection.kind === 'markdown') {
        // Matched among what the scan found readable, so nothing is listed twice or reached through a link.
        const files = same ? kept.matched.get(key)! : matchedFiles(scan.readable, collection.pattern);
        matched.set(key, files);
        const loaded: RawRecord[] = [];
        for (const file of files) for (const record of loadOf(file, collection).records) loaded.push(record);
        records[key] = loaded;
      } else if (scan.readable.has(collection.file) || !scan.problems.some((problem) => problem.file === collection.file)) {
        records[key] = loadOf(collection.file, collection).records;
      } else {
        records[key] = [];
      }
    }
  } catch (error) {
    // Loads taken in place of the kept ones without their digests: the next load starts from nothing.
    keptLoads.delete(cache);
    throw error;
  }
  const images = same ? kept.images : new Set([...scan.readable].filter((file) => file.startsWith('images/')).map((file) => `/${file}`));
  if (kept) {
    if (!same) for (const file of scan.readable) if (!loads.has(file)) loads.set(file, null);
    kept.files = loads;
    kept.matched = matched;
    kept.digests = digests;
    kept.images = images;
  }
  const readImageAt = (sitePath: string) => {
    const file = sitePath.slice(1);
    const identity = scan.identities.get(file);
    if (!images.has(sitePath) || !identity) throw new Error(`${sitePath} is not an image of the content`);
    return readImage(root, file, identity);
  };
  return { root, records, images, readImage: readImageAt, problems, digests, read };
}
