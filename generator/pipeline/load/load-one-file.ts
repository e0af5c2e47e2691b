/**
 * One file's load, as load-content.ts keeps it: its records, problems and digest, and the identity the scan
 * gave the file it was read from.
 */
import type { CollectionTable } from '../../schemas/collections.ts';
import type { BuildCache } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import { type ContentSource, digestOf, loadMarkdownFile, type RawRecord, readText } from './load-file.ts';
import { loadYamlFile } from './load-yaml-file.ts';
import type { Checked, FileKey, LoadStore, StoredFile } from './load-store.ts';
import type { FileIdentity } from './read-approved.ts';

/** Files changed this close to now are read anew: a coarse clock could hide a second edit in the same tick. */
const RACY_MS = 2000;

/** One file's load: its records, problems and digest, and the identity the scan gave the file it was read from. */
export interface FileLoad {
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
export function loadFile(source: ContentSource, file: string, collection: Collection, cache: BuildCache, store?: LoadStore): FileLoad {
  const identity = source.identities.get(file);
  const witnessed = identity?.changedMs !== undefined && identity.changedMs < Date.now() - RACY_MS;
  // A file too new to be known by its key is kept under none: only its bytes can confirm it.
  const key = witnessed && identity.size !== undefined ? (identity as FileKey) : undefined;
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
  if (store) for (const record of records) record.keepChecked = keeperOf(store);
  own.digests.clear();
  own.keep = undefined;
  return loaded;
}

export type Collection = CollectionTable[string];

/**
 * What keeps a record's validated value in `store`, one function per store for every record (it reads the
 * record's file from `this`), where each record had a closure of its own.
 */
const keepers = new WeakMap<LoadStore, (this: RawRecord, checked: Checked) => void>();
function keeperOf(store: LoadStore): (this: RawRecord, checked: Checked) => void {
  let keeper = keepers.get(store);
  if (!keeper) {
    keeper = function keepChecked(this: RawRecord, checked: Checked) {
      store.check(this.file, checked);
    };
    keepers.set(store, keeper);
  }
  return keeper;
}

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
 * and a file's loaders keep only the folder, the scan's identities and the digests of the bytes read, which it shares. At 100,000 files, a
 * new object and map per file was a measurable share of the garbage a steady build makes.
 */
const scratches = new WeakMap<ContentSource, ContentSource>();
function scratchOf(source: ContentSource): ContentSource {
  let own = scratches.get(source);
  if (!own) {
    own = {
      root: source.root,
      identities: source.identities,
      problems: [],
      digests: new Map(),
      fileDigests: source.fileDigests,
      keep: undefined,
    };
    scratches.set(source, own);
  }
  return own;
}

/** What `store` kept of `file` when its bytes are still those it was kept from (its key moved: a fresh checkout). */
function confirmed(source: ContentSource, file: string, key: FileKey | undefined, store?: LoadStore): StoredFile | undefined {
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
