/**
 * `index.bin` of the search index's store (search-store.ts) as it is on disk: the documents' ids and keys, and
 * the paths and digests of the index's parts, each as one string and where each entry ends in it.
 */
import type { StoredIndex } from './search-store.ts';

/**
 * Strings as `index.bin` keeps them: one text and where each string ends in it. At 100,000 documents, the ids
 * and keys as 200,000 strings took an edit some 75 ms to deserialize, at the start of the outputs that the
 * build's thread makes alone; one string each, cut by their ends, take a fraction of that.
 */
interface Strings {
  text: string;
  ends: Uint32Array;
}

function toStrings(list: readonly string[]): Strings {
  const ends = new Uint32Array(list.length);
  let end = 0;
  for (let at = 0; at < list.length; at++) ends[at] = end += list[at]!.length;
  return { text: list.join(''), ends };
}

/** The strings back, or undefined when the ends do not cut the text. */
function fromStrings(value: unknown): string[] | undefined {
  const strings = value as Strings | undefined;
  if (typeof strings?.text !== 'string' || !(strings.ends instanceof Uint32Array)) return undefined;
  const { text, ends } = strings;
  const list = new Array<string>(ends.length);
  let start = 0;
  for (let at = 0; at < ends.length; at++) {
    const end = ends[at]!;
    if (end < start || end > text.length) return undefined;
    list[at] = text.slice(start, end);
    start = end;
  }
  return start === text.length ? list : undefined;
}

/** `index.bin` as written: the documents' strings and the parts' digests by column. */
export function indexOnDisk({ ids, keys, digests, ...rest }: StoredIndex, version: number) {
  const parts = [...digests];
  return {
    version,
    ...rest,
    ids: toStrings(ids),
    keys: toStrings(keys),
    digests: {
      paths: toStrings(parts.map(([path]) => path)),
      digests: toStrings(parts.map(([, [digest]]) => digest)),
      sizes: Float64Array.from(parts, ([, [, size]]) => size),
    },
  };
}

/** The kept documents from what `index.bin` holds (indexOnDisk), or undefined when it is of another shape or `version`. */
export function indexFromDisk(value: unknown, version: number): StoredIndex | undefined {
  const read = value as Omit<StoredIndex, 'ids' | 'keys' | 'digests'> & { version: unknown; ids: unknown; keys: unknown; digests: unknown };
  if (read?.version !== version) return undefined;
  const { version: _, ...rest } = read;
  const ids = fromStrings(read.ids);
  const keys = fromStrings(read.keys);
  const columns = read.digests as { paths: unknown; digests: unknown; sizes: unknown } | undefined;
  const paths = fromStrings(columns?.paths);
  const digests = fromStrings(columns?.digests);
  const sizes = columns?.sizes;
  if (!ids || !keys || !paths || !digests || digests.length !== paths.length) return undefined;
  if (!(sizes instanceof Float64Array) || sizes.length !== paths.length) return undefined;
  const byPath = new Map<string, [string, number]>();
  for (let at = 0; at < paths.length; at++) byPath.set(paths[at]!, [digests[at]!, sizes[at]!]);
  const stored = { ...rest, ids, keys, digests: byPath };
  return isStored(stored) ? stored : undefined;
}

const isStored = (value: unknown): value is StoredIndex => {
  const stored = value as StoredIndex;
  return (
    typeof stored.scope === 'string' &&
    stored.keys.length === stored.ids.length &&
    typeof stored.inputs === 'string' &&
    stored.numbers instanceof Uint32Array &&
    stored.numbers.length === stored.ids.length &&
    stored.lengths instanceof Uint32Array &&
    typeof stored.synonyms === 'string' &&
    (stored.stamp === undefined || typeof stored.stamp === 'string')
  );
};
