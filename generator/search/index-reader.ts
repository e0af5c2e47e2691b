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
import { readTypoFile, type TypoFile } from './typo-dictionary.ts';

/** How the reader gets a file of the build output: text or bytes, null when there is none. */
export interface IndexSource {
  read(path: string): Promise<string | null>;
  readBytes(path: string): Promise<Uint8Array | null>;
}

/**
 * Bytes of parts an isolate keeps, with what is decoded from them (text parts counted at two bytes a
 * character, as the engine stores them; a shard with its records' decoded columns, record-reader.ts): the
 * top-level file, the dictionary blocks, typo files and postings of a few hundred distinct words, and the
 * result cards. The least recently used part goes first. The result cards have a share of their own
 * (CARDS_SHARE), card by card: a page reads one cards file per result and uses one card of its eight, and
 * letting whole files push out a common term's shard (up to 650 KB read again, its block table decoded
 * again) made warm queries pay that.
 * Measured at 100,000 documents (docs/search-measurements.md): the bench's 200 warm queries hold 42 MB of
 * index parts, 64 MB once decoded, and 19 MB of cards; with 32 MB for everything, every round read and
 * decoded each query's shards again (warm p99 9 ms of CPU). An isolate holds at most this much of the
 * index: a quarter of the 512 MB a Netlify Edge deployment's functions share.
 */
export const DEFAULT_CACHE_BYTES = 128 * 1024 * 1024;

/** The share of the cache's bytes the result cards have; the index's other parts have the rest. */
export const CARDS_SHARE = 1 / 16;

export interface IndexParts {
  meta(): Promise<SearchMeta>;
  block(index: number): Promise<DictionaryBlock>;
  /** null: no term has that shape (typo files exist only where some term does). */
  typos(key: string): Promise<TypoFile | null>;
  shard(index: number): Promise<Uint8Array>;
  /** Counts `bytes` more against shard `index` while the cache holds it: what its records take decoded. */
  charge(index: number, bytes: number): void;
  synonyms(): Promise<SynonymTable>;
  /** Entry `slot` of cards file `chunk` (undefined when it has none), kept by itself rather than with its file. */
  card(chunk: number, slot: number): Promise<ResultCard | undefined>;
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

/** A cache of parts bounded at `limit` bytes, the least recently used going first. */
function createPool(limit: number) {
  const cache = new Map<string, Entry>();
  let used = 0;

  const evict = () => {
    for (const [key, entry] of cache) {
      if (used <= limit) break;
      cache.delete(key);
      used -= entry.bytes;
    }
  };

  return {
    /** One read per path at a time; a failed read is forgotten, so the next query tries again. */
    load<T>(path: string, read: () => Promise<{ value: T; bytes: number }>): Promise<T> {
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
    },
    /** Counts `bytes` more against `path`'s entry while it is held (what was made from it). */
    charge(path: string, bytes: number): void {
      const entry = cache.get(path);
      if (!entry || entry.bytes === 0) return;
      entry.bytes += bytes;
      used += bytes;
      evict();
    },
    used: () => used,
    clear() {
      cache.clear();
      used = 0;
    },
  };
}

export function createIndexParts(source: IndexSource, cacheBytes = DEFAULT_CACHE_BYTES): IndexParts {
  const cardsBytes = Math.floor(cacheBytes * CARDS_SHARE);
  const pool = createPool(cacheBytes - cardsBytes);
  const cardsPool = createPool(cardsBytes);
  const load = pool.load;

  const json = <T>(path: string, optional = false) =>
    load(path, async () => {
      const text = await source.read(path);
      return { value: parseJson<T>(path, text, optional), bytes: (text?.length ?? 0) * 2 };
    });

  // A cards file read once for the cards a page asks of it at the same time, then let go: each card asked for
  // is kept by itself (a page's results are far apart, so a file's other cards are rarely the next asked).
  const reading = new Map<number, Promise<ResultCard[]>>();
  const cardsFile = (chunk: number) => {
    let file = reading.get(chunk);
    if (!file) {
      const path = cardsPath(chunk);
      file = source.read(path).then((text) => parseJson<ResultCard[]>(path, text, false)!);
      const settled = () => reading.delete(chunk);
      file.then(settled, settled);
      reading.set(chunk, file);
    }
    return file;
  };
  const cardBytes = (card: ResultCard | undefined) => (card ? card.reduce((bytes, text) => bytes + text.length * 2, 64) : 0);

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
    typos: (key) =>
      load(typoPath(key), async () => {
        const bytes = await source.readBytes(typoPath(key));
        if (bytes === null) return { value: null, bytes: 0 };
        try {
          return { value: readTypoFile(bytes), bytes: bytes.byteLength };
        } catch (error) {
          throw partError(typoPath(key), (error as Error).message);
        }
      }),
    shard: (index) =>
      load(postingsPath(index), async () => {
        const bytes = await source.readBytes(postingsPath(index));
        if (bytes === null) throw partError(postingsPath(index), 'missing; rebuild the site');
        return { value: bytes, bytes: bytes.byteLength };
      }),
    charge: (index, bytes) => pool.charge(postingsPath(index), bytes),
    synonyms: () => json<SynonymTable>(SEARCH_SYNONYMS_PATH).then(checkSynonyms),
    card: (chunk, slot) =>
      cardsPool.load(`${cardsPath(chunk)}#${slot}`, async () => {
        const file = await cardsFile(chunk);
        const card = Array.isArray(file) ? file[slot] : undefined;
        if (card !== undefined && !(Array.isArray(card) && card.every((text) => typeof text === 'string')))
          throw partError(cardsPath(chunk), 'not a list of result cards; rebuild the site');
        return { value: card, bytes: cardBytes(card) };
      }),
    bytes: (path) => load(path, () => source.readBytes(path).then((value) => ({ value, bytes: value?.byteLength ?? 0 }))),
    cachedBytes: () => pool.used() + cardsPool.used(),
    clear: () => {
      pool.clear();
      cardsPool.clear();
    },
  };
}
