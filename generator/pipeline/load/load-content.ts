/** Reads every file of every collection into raw records: parsed but not yet validated. */
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import { type BuildCache, NO_CACHE } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import { type ContentSource, digestOf, loadMarkdownFile, loadYamlFile, type RawContent, type RawRecord, readText } from './load-file.ts';
import type { LoadStore, StoredFile } from './load-store.ts';
import { type ContentEntry, DEFAULT_LIMITS, readImage, scanContent } from './scan-content.ts';

export type { RawContent, RawRecord } from './load-file.ts';
/** Files changed this close to now are read anew: a coarse clock could hide a second edit in the same tick. */
const RACY_MS = 2000;

type Load = (source: ContentSource, stored?: StoredFile) => RawRecord[];

/**
 * One file's records, with its problems and digest: a pure function of its path and bytes, so kept across
 * builds by the file's identity, size and times as the scan saw them, in memory (npm run dev) or on disk
 * (npm run build, load-store.ts). An edit reads one file.
 */
function loadFile(source: ContentSource, file: string, cache: BuildCache, load: Load, store?: LoadStore): RawRecord[] {
  const fresh = (stored?: StoredFile) => {
    const own = scratchOf(source);
    const records = load(own, stored);
    const loaded = {
      records,
      problems: own.problems.length > 0 ? own.problems.splice(0) : [],
      digest: own.digests.get(file),
      keep: own.keep,
    };
    own.digests.clear();
    own.keep = undefined;
    return loaded;
  };
  const identity = source.identities.get(file);
  const witness = identity?.changedMs !== undefined && identity.changedMs < Date.now() - RACY_MS;
  const key = `${identity?.dev}:${identity?.ino}:${identity?.size}:${identity?.changedMs}`;
  // A file too new to be known by its key is kept under none: only its bytes can confirm it.
  const kept = (stamp: string) => {
    const stored = store?.get(file, stamp) ?? confirmed(source, file, stamp, store);
    const loaded = fresh(stored);
    if (!stored && loaded.keep && loaded.problems.length === 0) store?.set(file, stamp, loaded.keep);
    if (store) for (const record of loaded.records) record.keepChecked = (checked) => store.check(file, checked);
    return loaded;
  };
  const loaded = witness ? cache.memo('content file', `${file}\n${key}`, () => kept(key)) : kept('');
  source.problems.push(...loaded.problems);
  if (loaded.digest !== undefined) source.digests.set(file, loaded.digest);
  return loaded.records;
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
 * Loads the whole content folder; records come in sorted file order, whatever the file system's order.
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
  const source: ContentSource = { root, identities: scan.identities, problems, digests: new Map() };
  const records: Record<string, RawRecord[]> = {};
  const loads = Object.entries(collections).map(async ([key, collection]) => {
    if (collection.kind === 'markdown') {
      // Matched among what the scan found readable, so nothing is listed twice or reached through a link.
      const matches = patternMatcher(collection.pattern);
      const loaded = [...scan.readable]
        .filter(matches)
        .sort()
        .flatMap((file) =>
          loadFile(
            source,
            file,
            cache,
            (own, stored) => {
              const record = loadMarkdownFile(own, file, cache, stored);
              return record ? [record] : [];
            },
            store,
          ),
        );
      records[key] = loaded;
    } else if (scan.readable.has(collection.file) || !scan.problems.some((problem) => problem.file === collection.file)) {
      const { file, kind } = collection;
      const optional = kind === 'document' && collection.optional;
      records[key] = loadFile(source, file, cache, (own, stored) => loadYamlFile(own, file, kind, optional, stored), store);
    } else {
      records[key] = [];
    }
  });
  await Promise.all(loads);
  const images = new Set([...scan.readable].filter((file) => file.startsWith('images/')).map((file) => `/${file}`));
  const readImageAt = (sitePath: string) => {
    const file = sitePath.slice(1);
    const identity = scan.identities.get(file);
    if (!images.has(sitePath) || !identity) throw new Error(`${sitePath} is not an image of the content`);
    return readImage(root, file, identity);
  };
  return { root, records, images, readImage: readImageAt, problems, digests: source.digests };
}
