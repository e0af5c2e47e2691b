/**
 * Values a build computes from a record's text (its rendered body, its search text and terms), kept from
 * one build to the next when the caller keeps the cache (`npm run dev` keeps one for its whole run), so a
 * rebuild computes them only for the text that changed. Keyed by the text itself, so an edit can never be
 * served a stale value; only what the latest build used is kept.
 */
export interface BuildCache {
  /** The value of `table` for `key`: the kept one, or `make()`'s. */
  memo<T>(table: string, key: string, make: () => T): T;
  /** Keeps `key`'s value, if there is one, as if this build had used it (a body whose page was carried over). */
  keep(table: string, key: string): void;
  /** Forgets what the build that just ended did not use, in the tables it used. */
  endBuild(): void;
}

type Tables = Map<string, Map<string, unknown>>;

export function createBuildCache(): BuildCache {
  let kept: Tables = new Map();
  let used: Tables = new Map();
  const tableOf = (tables: Tables, table: string) => {
    let entries = tables.get(table);
    if (!entries) {
      entries = new Map();
      tables.set(table, entries);
    }
    return entries;
  };
  return {
    // One map per table, keyed by the text itself: a body's hash is computed once per build and shared by
    // every table, where a joined `table + text` key cost a copy and a hash of the whole text per look-up.
    memo<T>(table: string, key: string, make: () => T): T {
      const now = tableOf(used, table);
      if (now.has(key)) return now.get(key) as T;
      const before = kept.get(table);
      const value = (before?.has(key) ? before.get(key) : make()) as T;
      now.set(key, value);
      return value;
    },
    keep(table: string, key: string) {
      const before = kept.get(table);
      if (before?.has(key)) tableOf(used, table).set(key, before.get(key));
    },
    endBuild() {
      // A table this build did not use at all (the search index carried over whole) is kept as it was.
      for (const [table, entries] of kept) if (!used.has(table)) used.set(table, entries);
      kept = used;
      used = new Map();
    },
  };
}

/** A build that keeps nothing: every value is made anew. */
export const NO_CACHE: BuildCache = { memo: (_table, _key, make) => make(), keep: () => {}, endBuild: () => {} };
