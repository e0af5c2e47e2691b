/** Reads every file of every collection into raw records: parsed but not yet validated. */
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import { type BuildCache, NO_CACHE } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import {
  forgetLoads,
  freshLoads,
  imagesOf,
  type KeptLoads,
  keepLoad,
  keptFor,
  keptProblems,
  loadChanged,
  loadsSingleFile,
} from './kept-loads.ts';
import type { ContentSource, RawContent, RawRecord } from './load-file.ts';
import { type Collection, type FileLoad, loadFile } from './load-one-file.ts';
import type { LoadStore } from './load-store.ts';
import type { FileIdentity } from './read-approved.ts';
import { type ContentEntry, type ContentScan, readImage, scanContent } from './scan-content.ts';
import { type ContentLimits, DEFAULT_LIMITS } from './content-limits.ts';

export type { RawContent, RawRecord } from './load-file.ts';

/** Whether the scan found readable exactly the files the last one found (no file added or removed). */
function sameFiles(before: ReadonlySet<string>, readable: ReadonlySet<string>): boolean {
  if (before.size !== readable.size) return false;
  for (const file of readable) if (!before.has(file)) return false;
  return true;
}

const sameIdentity = (a: FileIdentity | undefined, b: FileIdentity | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.changedMs === b.changedMs);

/** A collection's files among those the scan found readable, in sorted order, whatever the file system's order. */
function matchedFiles(readable: ReadonlySet<string>, matches: (file: string) => boolean): string[] {
  const files: string[] = [];
  for (const file of readable) if (matches(file)) files.push(file);
  return files.sort();
}

/**
 * Every file of every collection loaded, or taken from `kept` while the file keeps the identity it was read
 * under; what is kept brought up to date. The number of files read.
 */
function loadAll(
  scan: ContentScan,
  source: ContentSource,
  cache: BuildCache,
  store: LoadStore | undefined,
  kept: KeptLoads,
  onMarkdown?: (record: RawRecord) => void,
): number {
  const { collections } = kept;
  // With the same files as the load before, its order is taken as it is, and its loads are changed in place.
  const same = kept.scan !== undefined && sameFiles(kept.scan.readable, scan.readable);
  const before = kept.files;
  if (!same) {
    kept.files = new Map();
    kept.digests = new Map();
  }
  kept.unwitnessed = new Set();
  kept.troubled = new Set();
  let read = 0;
  const loadOf = (file: string, collection: Collection): FileLoad => {
    let load = before.get(file);
    if (!load?.witnessed || !sameIdentity(load.identity, scan.identities.get(file))) {
      load = loadFile(source, file, collection, cache, store);
      read++;
    }
    keepLoad(kept, file, load);
    return load;
  };
  const matched = new Map<string, string[]>();
  const records = new Map<string, RawRecord[]>();
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind === 'markdown') {
      // Matched among what the scan found readable, so nothing is listed twice or reached through a link.
      const files = same ? kept.matched.get(key)! : matchedFiles(scan.readable, kept.matchers.get(key)!);
      matched.set(key, files);
      const loaded: RawRecord[] = [];
      for (const file of files)
        for (const record of loadOf(file, collection).records) {
          loaded.push(record);
          onMarkdown?.(record);
        }
      records.set(key, loaded);
    } else if (loadsSingleFile(scan, collection.file)) {
      records.set(key, loadOf(collection.file, collection).records);
    } else {
      records.set(key, []);
    }
  }
  Object.assign(kept, { scan, matched, records, images: same ? kept.images : imagesOf(scan.readable) });
  return read;
}

/** How to load the content folder: every field may be left out. */
export interface LoadOptions {
  /** The collections to load (default: the site's). */
  collections?: CollectionTable;
  /** The limits the scan holds files to (default: DEFAULT_LIMITS). */
  limits?: ContentLimits;
  /**
   * A build cache kept from one build to the next keeps the load with it (kept-loads.ts), so a steady build
   * reads only the files that changed (default: none).
   */
  cache?: BuildCache;
  /** Markdown files kept on disk by an earlier build, and where to keep this build's (the caller saves it). */
  store?: LoadStore;
  /** The folder's listing, when the caller knows it without listing it (npm run dev, from its watcher). */
  list?: (root: string) => ContentEntry[];
  /**
   * Told each record of a Markdown collection as it is read, in a load of the whole folder (a cold build's
   * helper renders its body meanwhile: build-helper.ts renderAsRead).
   */
  onMarkdown?: (record: RawRecord) => void;
  /** Filled with the digest of each file read, as the nothing-changed check records it (content-digests.ts). */
  fileDigests?: Map<string, string>;
}

/** Loads the whole content folder; records come in sorted file order, whatever the file system's order. */
export async function loadContent(
  root: string,
  { collections = siteCollections, limits = DEFAULT_LIMITS, cache = NO_CACHE, store, list, onMarkdown, fileDigests }: LoadOptions = {},
): Promise<RawContent> {
  // The load store keeps what this build asks it for: with one, every file is asked for. Without a cache, what
  // is kept is this load's only.
  const remembers = !store && cache !== NO_CACHE;
  const kept = remembers ? keptFor(cache, root, collections, limits) : freshLoads(root, collections, limits);
  let scan: ContentScan;
  let read: number;
  try {
    scan = await scanContent(root, limits, list?.(root), remembers ? kept.scan : undefined);
    const source: ContentSource = { root, identities: scan.identities, problems: [], digests: kept.digests, fileDigests };
    read = scan.changed ? loadChanged(kept, scan, source, cache) : loadAll(scan, source, cache, store, kept, onMarkdown);
  } catch (error) {
    forgetLoads(cache);
    throw error;
  }
  const problems: Problem[] = [...scan.problems, ...keptProblems(kept)];
  // Copies: the content is the build's to use as it likes, what is kept the next load's.
  const records = Object.fromEntries([...kept.records].map(([key, loaded]) => [key, loaded.slice()]));
  const { images } = kept;
  // The identities only: the scan's listing, every entry with its stats, is not the build's to hold to its end.
  const { identities } = scan;
  const readImageAt = (sitePath: string) => {
    const file = sitePath.slice(1);
    const identity = identities.get(file);
    if (!images.has(sitePath) || !identity) throw new Error(`${sitePath} is not an image of the content`);
    return readImage(root, file, identity);
  };
  return { root, records, images, readImage: readImageAt, problems, digests: kept.digests, read };
}
