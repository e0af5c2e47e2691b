/**
 * The index reader: the parts of index-format.ts, read on demand through the runtime's file access and kept
 * in a cache of bounded size for the isolate's life. Runtime-neutral.
 */
import {
  cardsPath,
  type DictionaryBlock,
  dictionaryPath,
  postingsPath,
  type ResultCard,
  SEARCH_INDEX_FORMAT,
  SEARCH_META_PATH,
  SEARCH_SYNONYMS_PATH,
  type SearchMeta,
  typoPath,
} from './index-format.ts';
import { RANKING } from './ranking.ts';
import type { SynonymTable } from './synonyms.ts';
import type { TypoFile } from './typo-dictionary.ts';

/** How the reader gets a file of the build output: text or bytes, null when there is none. */
export interface IndexSource {
  read(path: string): Promise<string | null>;
  readBytes(path: string): Promise<Uint8Array | null>;
}

/**
 * Bytes of parts an isolate keeps (text parts counted at two bytes a character, as the engine stores them).
 * Enough for the top-level file, the dictionary blocks and postings of a few hundred distinct words; the
 * least recently used part goes first.
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

export interface IndexParts {
  meta(): Promise<SearchMeta>;
  block(index: number): Promise<DictionaryBlock>;
  /** null: no term has that shape (typo files exist only where some term does). */
  typos(key: string): Promise<TypoFile | null>;
  shard(index: number): Promise<Uint8Array>;
  synonyms(): Promise<SynonymTable>;
  cards(index: number): Promise<ResultCard[]>;
  /** Any other part's bytes (the semantic index's), null when there is none. */
  bytes(path: string): Promise<Uint8Array | null>;
  /** Bytes the cache holds now. */
  cachedBytes(): number;
  /** Forgets every part read, so that a part found broken after it was read is read again. */
  clear(): void;
}

interface Entry {
  value: Promise<unknown>;
  bytes: number;
}

/** A part that failed to read or parse: the message names it, for the server log. */
export function partError(path: string, reason: string): Error {
  return new Error(`search index part ${path}: ${reason}`);
}

function parseJson<T>(path: string, text: string | null, optional: boolean): T | null {
  if (text === null) {
    if (optional) return null;
    throw partError(path, 'missing; rebuild the site');
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw partError(path, 'not valid JSON');
  }
}

/** The synonym table, or the part's error when it is not one. */
function checkSynonyms(table: SynonymTable | null): SynonymTable {
  if (typeof table?.expansions !== 'object' || table.expansions === null || typeof table.longest !== 'number')
    throw partError(SEARCH_SYNONYMS_PATH, 'not a synonym table; rebuild the site');
  return table;
}

export function createIndexParts(source: IndexSource, cacheBytes = DEFAULT_CACHE_BYTES): IndexParts {
  const cache = new Map<string, Entry>();
  let used = 0;

  const evict = () => {
    for (const [key, entry] of cache) {
      if (used <= cacheBytes) break;
      cache.delete(key);
      used -= entry.bytes;
    }
  };

  /** One read per path at a time; a failed read is forgotten, so the next query tries again. */
  const load = <T>(path: string, read: () => Promise<{ value: T; bytes: number }>): Promise<T> => {
    const hit = cache.get(path);
    if (hit) {
      cache.delete(path);
      cache.set(path, hit);
      return hit.value as Promise<T>;
    }
    const entry: Entry = { value: Promise.resolve(), bytes: 0 };
    entry.value = read().then(
      ({ value, bytes }) => {
        if (cache.get(path) === entry) {
          entry.bytes = bytes;
          used += bytes;
          evict();
        }
        return value;
      },
      (error: unknown) => {
        if (cache.get(path) === entry) cache.delete(path);
        throw error;
      },
    );
    cache.set(path, entry);
    return entry.value as Promise<T>;
  };

  const json = <T>(path: string, optional = false) =>
    load(path, async () => {
      const text = await source.read(path);
      return { value: parseJson<T>(path, text, optional), bytes: (text?.length ?? 0) * 2 };
    });

  return {
    meta: () =>
      json<SearchMeta>(SEARCH_META_PATH).then((meta) => {
        if (meta?.format !== SEARCH_INDEX_FORMAT)
          throw partError(SEARCH_META_PATH, `expected format ${SEARCH_INDEX_FORMAT}; rebuild the site`);
        if (meta.ranking !== JSON.stringify(RANKING))
          throw partError(SEARCH_META_PATH, 'written with other ranking knobs; rebuild the site');
        return meta;
      }),
    block: (index) => json<DictionaryBlock>(dictionaryPath(index)) as Promise<DictionaryBlock>,
    typos: (key) => json<TypoFile>(typoPath(key), true),
    shard: (index) =>
      load(postingsPath(index), async () => {
        const bytes = await source.readBytes(postingsPath(index));
        if (bytes === null) throw partError(postingsPath(index), 'missing; rebuild the site');
        return { value: bytes, bytes: bytes.byteLength };
      }),
    synonyms: () => json<SynonymTable>(SEARCH_SYNONYMS_PATH).then(checkSynonyms),
    cards: (index) => json<ResultCard[]>(cardsPath(index)) as Promise<ResultCard[]>,
    bytes: (path) => load(path, () => source.readBytes(path).then((value) => ({ value, bytes: value?.byteLength ?? 0 }))),
    cachedBytes: () => used,
    clear: () => {
      cache.clear();
      used = 0;
    },
  };
}
