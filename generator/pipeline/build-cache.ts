/**
 * Values a build computes from a record's text (its rendered body, its search text and terms), kept from
 * one build to the next when the caller keeps the cache (`npm run dev` keeps one for its whole run), so a
 * rebuild computes them only for the text that changed. Keyed by the text itself, so an edit can never be
 * served a stale value; what no build has used for a while is let go (endBuild).
 */
export interface BuildCache {
  /** The value of `table` for `key`: the kept one, or `make()`'s. */
  memo<T>(table: string, key: string, make: () => T): T;
  /**
   * The keys of `table` this build's content still has, asked for only when the table is swept: their values
   * stay kept, used or not (the bodies of pages carried over, which a later edit may make again).
   */
  live(table: string, keys: () => Iterable<string>): void;
  /** Ends the build; a table grown by more than an eighth since it was last swept lets go of what no build used since. */
  endBuild(): void;
}

/** A value, and the last build that used it. */
interface Entry {
  value: unknown;
  build: number;
}

interface Table {
  entries: Map<string, Entry>;
  /** Its size when last swept, and the first build after that. */
  size: number;
  since: number;
  live: (() => Iterable<string>) | undefined;
}

/**
 * A table is swept once it has grown past its size at the last sweep by this share (and a few values): an edit
 * adds a value or two, and a walk of every value per edit (100,000 bodies) cost more than keeping them a while.
 */
const GROWTH = 1 / 8;
const FEW = 64;

export function createBuildCache(): BuildCache {
  const tables = new Map<string, Table>();
  let build = 0;
  const tableOf = (name: string) => {
    let table = tables.get(name);
    if (!table) {
      table = { entries: new Map(), size: 0, since: build, live: undefined };
      tables.set(name, table);
    }
    return table;
  };
  const sweep = (table: Table) => {
    for (const key of table.live?.() ?? []) {
      const entry = table.entries.get(key);
      if (entry) entry.build = build;
    }
    for (const [key, entry] of table.entries) if (entry.build < table.since) table.entries.delete(key);
    table.size = table.entries.size;
    table.since = build + 1;
  };
  return {
    // One map per table, keyed by the text itself: a body's hash is computed once per build and shared by
    // every table, where a joined `table + text` key cost a copy and a hash of the whole text per look-up.
    memo<T>(name: string, key: string, make: () => T): T {
      const table = tableOf(name);
      const entry = table.entries.get(key);
      if (entry) {
        entry.build = build;
        return entry.value as T;
      }
      const value = make();
      table.entries.set(key, { value, build });
      return value;
    },
    live(name, keys) {
      tableOf(name).live = keys;
    },
    endBuild() {
      for (const table of tables.values()) {
        if (table.entries.size > table.size * (1 + GROWTH) + FEW) sweep(table);
        table.live = undefined;
      }
      build++;
    },
  };
}

/** A build that keeps nothing: every value is made anew. */
export const NO_CACHE: BuildCache = { memo: (_table, _key, make) => make(), live: () => {}, endBuild: () => {} };
