/**
 * How a build tracks its outputs (output-tracker.ts): the tracker's scope, and the search index carried
 * over whole while its documents are unchanged.
 */
import type { CollectionTable } from '../schemas/collections.ts';
import type { Catalogue } from './catalogue/catalogue.ts';
import { createOutputTracker, type OutputTracker, type TrackedOutputs } from './output-tracker.ts';
import type { BuildHelper } from './helper/build-helper.ts';
import type { Emitted } from './emit/emit-files.ts';
import { readTrackedOutputs, recordTrackedOutputs } from './emit/tracked-outputs.ts';
import type { OutputFile } from './outputs/output-file.ts';
import { buildSearchIndex, buildSearchIndexInHelper, searchIndexBodies } from './outputs/search/search-file.ts';
import { inputsMark, searchInputs } from './outputs/search/search-inputs.ts';
import { openSearchStore, type SearchStore } from './outputs/search/search-store.ts';
import { storedSearch } from './outputs/search/stored-search.ts';
import { DEFAULT_SEARCH_INDEX_BUDGET_MB } from './build-settings.ts';
import type { KnownRecords, ReachEntry } from './edit-reach.ts';
import type { AnyEntry } from '../schemas/collections.ts';
import { memoize } from '../shared/memoize.ts';
import { recordsByFile } from './outputs/reached-records.ts';
import { orderFields } from './catalogue/order.ts';
import type { KeptOrder, PreviousOrders } from './catalogue/kept-order.ts';
import { isStoredOrder } from './catalogue/stored-order.ts';
import { titleReaders } from './outputs/records/title-readers.ts';
import { buildSitemap, lastModifiedOf, listPages } from './outputs/pages/sitemap.ts';

/** What a tracked build starts from: its scope, the content files' digests, and what the previous build made. */
export interface Tracking {
  scope: string;
  digests: ReadonlyMap<string, string>;
  previous: TrackedOutputs | undefined;
  verify?: boolean | undefined;
  /** Outputs tracked in memory between builds (npm run dev): each file's inputs are kept too. */
  inMemory?: boolean | undefined;
  /** The search index's state kept beside the output (npm run build; search-store.ts). */
  searchStore?: SearchStore | undefined;
  /** The emit step keeps the previous build's files it is not given: a steady build names only what it reached (carried-rest.ts). */
  sparse?: boolean | undefined;
  /** The content files changed since `previous` was made (build-fingerprint.ts), when known: the reach starts from them. */
  changed?: ReadonlySet<string> | undefined;
}

/**
 * The build's tracker, once the content's newest date is known. Its scope is what every tracked output may
 * print besides its own inputs: the generator and settings, the site's address, the content's newest date,
 * and every file that is not a Markdown record (the site's settings, the taxonomies, the synonyms).
 */
export function trackerOf(tracking: Tracking, siteUrl: string, collections: CollectionTable, made?: (tracker: OutputTracker) => void) {
  return (contentTime: string, catalogue: Catalogue) => {
    const scope = `${contentTime}\n${sharedScope(tracking, siteUrl, collections)}`;
    const { previous, digests, verify, inMemory, sparse } = tracking;
    const shownOf = memoize((key: string) => {
      const collection = catalogue.collection(key);
      // A title that orders its collection is a fact: its edit may reorder every list of it.
      return orderFields(collection).includes(collection.fields.title) ? [] : [collection.fields.title];
    });
    const entryOf = (key: string, record: AnyEntry): ReachEntry => ({ record, shown: shownOf(key), collection: key });
    function* records(): Generator<ReachEntry> {
      for (const [key, list] of Object.entries(catalogue.records)) for (const record of list) yield entryOf(key, record);
    }
    /** The records whose objects are not the previous build's (kept-order.ts: npm run dev). */
    const editedObjects = () => {
      const entries: ReachEntry[] = [];
      let count = 0;
      for (const [key, list] of Object.entries(catalogue.records)) {
        const edited = catalogue.edited(key);
        if (!edited) return undefined;
        for (const record of edited) entries.push(entryOf(key, record));
        count += list.length;
      }
      return { entries, count };
    };
    /**
     * The published records read from the files changed since the previous build (`changed`, from the content's
     * witnesses: npm run build). Every other file has the bytes it had then, so its record is published as then
     * unless it went live since: the reach's count of records finds that, once none of the changed files that the
     * previous build published has left. Undefined when one has: the reach then walks every record.
     */
    const changedFiles = (files: ReadonlySet<string>) => {
      const entries: ReachEntry[] = [];
      const found = new Set<string>();
      let count = 0;
      for (const [key, list] of Object.entries(catalogue.records)) {
        count += list.length;
        if (files.size === 0) continue;
        for (const record of list)
          if (files.has(record.file)) {
            entries.push(entryOf(key, record));
            found.add(record.file);
          }
      }
      for (const file of files) if (!found.has(file) && previous?.records?.byFile.has(file)) return undefined;
      return { entries, count };
    };
    const index: KnownRecords = {
      edited: () => editedObjects() ?? (tracking.changed && changedFiles(tracking.changed)),
      of: (files) =>
        Object.keys(catalogue.records).flatMap((key) => recordsByFile(catalogue, key, files).map((record) => entryOf(key, record))),
    };
    const readers = (files: ReadonlySet<string>) => titleReaders(catalogue, files);
    const tracker = createOutputTracker({ previous, scope, digests, verify, keepInputs: inMemory, records, readers, index, sparse });
    made?.(tracker);
    return tracker;
  };
}

/**
 * The order of each collection the previous build kept, whatever its scope: the order is the records'. In
 * memory (npm run dev: kept-order.ts), or stored beside the output (npm run build: stored-order.ts), with the
 * content files changed since, which come from witnesses written with the record that names the kept values.
 */
export const previousOrder = (tracking: Tracking): PreviousOrders => {
  const kept = (name: string) => tracking.previous?.kept?.get(name)?.value;
  const stored = (key: string) => {
    const order = kept(`stored order\n${key}`);
    return isStoredOrder(order) ? order : undefined;
  };
  return {
    kept: (key) => kept(`order\n${key}`) as KeptOrder | undefined,
    stored: tracking.inMemory ? undefined : { order: stored, changed: tracking.changed },
  };
};

/** The scope of every tracked output but the content's newest date: the generator and settings, the address, the other files. */
export function sharedScope(tracking: Tracking, siteUrl: string, collections: CollectionTable): string {
  const files = Object.values(collections).flatMap((collection) => (collection.kind === 'markdown' ? [] : [collection.file]));
  const shared = files.map((file) => `${file}:${tracking.digests.get(file) ?? ''}`);
  return [tracking.scope, siteUrl, Object.keys(collections).join(','), ...shared].join('\n');
}

/**
 * The search index: carried over whole when its documents are the same as the previous build's; else, with
 * a store on disk (`npm run build`), updated by term from it or written whole keeping it (stored-search.ts);
 * else made.
 */
export function trackedSearch(
  catalogue: Catalogue,
  helper: BuildHelper | undefined,
  budgetMb: number | undefined,
  tracking?: Tracking,
): { files: Promise<OutputFile[]> | OutputFile[]; documents: number } {
  const stored = tracking?.searchStore && {
    store: tracking.searchStore,
    scope: sharedScope(tracking, catalogue.siteUrl, catalogue.collections),
  };
  const previousStamp = tracking?.previous?.onDisk?.output;
  const inputs = searchInputs(catalogue, budgetMb, stored && (() => stored.store.stored(stored.scope)), previousStamp);
  const make = () => searchIndexBodies(catalogue, budgetMb);
  const carried = catalogue.track.carriedGroup('search index', inputs.key, make);
  if (carried) {
    stored?.store.keepCarried(stored.scope, inputsMark(budgetMb, inputs.key));
    return { files: carried, documents: inputs.documents };
  }
  if (stored && inputs.keys) {
    const kept = { keys: inputs.keys, mark: inputsMark(budgetMb, inputs.key) };
    const files = Promise.resolve(storedSearch(catalogue, helper, budgetMb ?? DEFAULT_SEARCH_INDEX_BUDGET_MB, stored, kept));
    return {
      files: files.then((made) => {
        catalogue.track.madeGroup('search index', inputs.key, made);
        return made;
      }),
      documents: inputs.documents,
    };
  }
  const search = helper ? buildSearchIndexInHelper(helper, catalogue, budgetMb) : buildSearchIndex(catalogue, budgetMb, inputs.keys);
  const files = Promise.resolve(search.files).then((made) => {
    catalogue.track.madeGroup('search index', inputs.key, made);
    return made;
  });
  return { files, documents: search.documents };
}

/** The sitemap of `pages`: every page and its date, the same in a steady build (output-tracker.ts), carried over then. */
export function trackedSitemap(catalogue: Catalogue, pages: readonly string[], recordPages: boolean): OutputFile[] {
  const name = recordPages ? 'sitemap' : 'sitemap without record pages';
  return catalogue.track.steadyGroup(name, () => buildSitemap(catalogue, listPages(pages, lastModifiedOf(catalogue))));
}

/**
 * Where a build's previous tracked outputs come from and where its own go: the caller's `tracked` (npm run dev
 * keeps them in memory), else the record beside the output folder (npm run build), never trusted with `force`.
 * Without a scope, nothing is tracked. A build with its own emit step and no `tracked` keeps nothing.
 */
export function openTracking(options: {
  scope?: string | undefined;
  tracked?: { outputs?: TrackedOutputs | undefined } | undefined;
  force?: boolean | undefined;
  verifyCarried?: boolean | undefined;
  outDir: string;
  ownEmit: boolean;
  keepLoads?: boolean | undefined;
  /** The caller's emit step keeps the previous build's files it is not given (carried-rest.ts). */
  emitKeepsRest?: boolean | undefined;
  /** The content files changed since the last build's witnesses, with the output record's stamp they go with. */
  changed?: { files: ReadonlySet<string>; output: string } | undefined;
}) {
  const { scope, outDir } = options;
  const onDisk = scope !== undefined && !options.ownEmit && !options.tracked;
  const searchStore = onDisk && options.keepLoads ? openSearchStore(outDir, { trust: !options.force }) : undefined;
  const tracked = options.tracked ?? { outputs: onDisk && !options.force ? readTrackedOutputs(outDir) : undefined };
  // Only from witnesses written with the very record the tracked outputs name: then they describe its content.
  const { changed } = options;
  const changedSince = changed && changed.output === tracked.outputs?.onDisk?.output ? changed.files : undefined;
  let tracker: OutputTracker | undefined;
  /** Values made before the tracker is, kept with its own for the next build. */
  const pending = new Map<string, unknown>();
  return {
    /** What the previous build kept under `name` before its outputs were made, whatever its scope (npm run dev only). */
    previousKept: <T>(name: string) => tracked.outputs?.kept?.get(name)?.value as T | undefined,
    /** Keeps `value`, made before any output is, for the next build (in memory only, as the tracker's kept values). */
    keep: (name: string, value: unknown) => pending.set(name, value),
    /** What the previous build made, when there is a record of it (a cold build has none). */
    previous: scope === undefined ? undefined : tracked.outputs,
    /** `keepsRest`: the emit step keeps the previous build's files it is not given (in-place-base.ts decides it for an update in place). */
    start: (digests: ReadonlyMap<string, string>, keepsRest = options.emitKeepsRest): Tracking | undefined =>
      scope === undefined
        ? undefined
        : {
            scope,
            digests,
            previous: tracked.outputs,
            verify: options.verifyCarried,
            searchStore,
            inMemory: !!options.tracked,
            sparse: keepsRest,
            changed: changedSince,
          },
    made: (made: OutputTracker) => {
      tracker = made;
      for (const [name, value] of pending) made.keep(name, () => value);
    },
    /** Once every file was given: the previous build's files carried over unnamed, for the emit step to keep. */
    rest: () => tracker?.rest(),
    /** After the emit step: what it put in place is what the next build may carry over, and only that. */
    settle(written: Emitted): number | undefined {
      tracked.outputs = tracker?.settle(written.digests);
      if (onDisk) recordTrackedOutputs(outDir, tracked.outputs, written.identity, written.stamp);
      searchStore?.save(written.digests, written.stamp);
      // The rest a steady edit kept unnamed was carried over too (carried-rest.ts).
      return tracker && tracker.carried() + (tracker.rest()?.size() ?? 0);
    },
  };
}
