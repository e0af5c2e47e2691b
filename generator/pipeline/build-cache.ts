/**
 * Values a build computes from a record's text (its rendered body, its search text and terms), kept from
 * one build to the next when the caller keeps the cache (`npm run dev` keeps one for its whole run), so a
 * rebuild computes them only for the text that changed. Keyed by the text itself, so an edit can never be
 * served a stale value; only what the latest build used is kept.
 */
export interface BuildCache {
  /** The value of `table` for `key`: the kept one, or `make()`'s. */
  memo<T>(table: string, key: string, make: () => T): T;
  /** Forgets what the build that just ended did not use. */
  endBuild(): void;
}

export function createBuildCache(): BuildCache {
  let kept = new Map<string, unknown>();
  let used = new Map<string, unknown>();
  return {
    memo<T>(table: string, key: string, make: () => T): T {
      const id = `${table}\n${key}`;
      const value = (used.has(id) ? used.get(id) : kept.has(id) ? kept.get(id) : make()) as T;
      used.set(id, value);
      return value;
    },
    endBuild() {
      kept = used;
      used = new Map();
    },
  };
}

/** A build that keeps nothing: every value is made anew. */
export const NO_CACHE: BuildCache = { memo: (_table, _key, make) => make(), endBuild: () => {} };
