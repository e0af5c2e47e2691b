/**
 * Values a build computes from a record's text (its rendered body, its search text and terms), kept from
 * one build to the next when the caller keeps the cache (`npm run dev` keeps one for its whole run), so a
 * rebuild computes them only for the text that changed. Keyed by the text itself, so an edit can never be
 * served a stale value; what the latest builds did not use is let go (endBuild).
 */
export interface BuildCache {
  /** The value of `table` for `key`: the kept one, or `make()`'s. */
  memo<T>(table: string, key: string, make: () => T): T;
  /** Keeps `key`'s value, if there is one, as if this build had used it (a body whose page was carried over). */
  keep(table: string, key: string): void;
  /** Ends the build: in the tables it used, what it did not use is let go once that is more than a few values. */
  endBuild(): void;
}

/** A value, and the last build that used it. */
interface Entry {
  value: unknown;
  build: number;
}

interface Table {
  entries: Map<string, Entry>;
  /** Entries the build under way used. */
  used: number;
}

/**
 * Past this share of a table left unused by the build that just ended, the unused are let go: an edit leaves a
 * value or two behind, and a walk of every value per edit (100,000 bodies) cost more than keeping them a while.
 */
const UNUSED_SHARE = 1 / 8;

export function createBuildCache(): BuildCache {
  const tables = new Map<string, Table>();
  let build = 0;
  const use = (table: Table, entry: Entry) => {
    if (entry.build === build) return;
    entry.build = build;
    table.used++;
  };
  return {
    // One map per table, keyed by the text itself: a body's hash is computed once per build and shared by
    // every table, where a joined `table + text` key cost a copy and a hash of the whole text per look-up.
    memo<T>(name: string, key: string, make: () => T): T {
      let table = tables.get(name);
      if (!table) {
        table = { entries: new Map(), used: 0 };
        tables.set(name, table);
      }
      const entry = table.entries.get(key);
      if (entry) {
        use(table, entry);
        return entry.value as T;
      }
      const value = make();
      table.entries.set(key, { value, build });
      table.used++;
      return value;
    },
    keep(name: string, key: string) {
      const table = tables.get(name);
      const entry = table?.entries.get(key);
      if (entry) use(table!, entry);
    },
    endBuild() {
      for (const table of tables.values()) {
        // A table this build did not use at all (the search index carried over whole) is kept as it was.
        if (table.used === 0) continue;
        if (table.entries.size - table.used > table.used * UNUSED_SHARE) {
          for (const [key, entry] of table.entries) if (entry.build !== build) table.entries.delete(key);
        }
        table.used = 0;
      }
      build++;
    },
  };
}

/** A build that keeps nothing: every value is made anew. */
export const NO_CACHE: BuildCache = { memo: (_table, _key, make) => make(), keep: () => {}, endBuild: () => {} };
