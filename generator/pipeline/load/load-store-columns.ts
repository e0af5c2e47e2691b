/**
 * The load store's parts by column (load-store.ts): how a part is laid out on disk, made from entries, read
 * back row by row, and checked for shape when it is read.
 */
import type { Entry, StoredFile } from './load-store.ts';

/**
 * A part's entries by column, as kept on disk. Per file there is its path and its value's own objects; the
 * keys and digests are cells of one string each, and the scope one of a few shared strings. An entry of
 * objects per file (an array, an entry, a checked value and their strings) was a third more for an edit at
 * 100,000 articles to deserialize, and more for the collector to copy while it lived.
 */
export interface Columns {
  files: string[];
  keys: string;
  /** Where each file's cell of `keys` ends (it starts where the one before ends). */
  keyEnds: Uint32Array;
  digests: string;
  digestEnds: Uint32Array;
  /** The scopes of the kept values, each once, and each file's (-1: no value kept). */
  scopes: string[];
  scopeOf: Int32Array;
  values: unknown[];
  /** 1 where the file's front matter is kept, in `data`. */
  hasData: Uint8Array;
  data: unknown[];
}

const cellStart = (ends: Uint32Array, row: number) => (row === 0 ? 0 : ends[row - 1]!);
const cell = (text: string, ends: Uint32Array, row: number) => text.slice(cellStart(ends, row), ends[row]);

/** Whether a cell is `value`, without making a string of it. */
export function cellIs(text: string, ends: Uint32Array, row: number, value: string): boolean {
  const start = cellStart(ends, row);
  return ends[row]! - start === value.length && text.startsWith(value, start);
}

/** What `get` and `confirm` hand back of a kept row: its digest, value and front matter. */
export function storedAt(columns: Columns, row: number): StoredFile {
  const scope = columns.scopeOf[row]!;
  const stored: StoredFile = { digest: cell(columns.digests, columns.digestEnds, row) };
  if (columns.hasData[row] === 1) stored.data = columns.data[row];
  if (scope >= 0) stored.checked = { scope: columns.scopes[scope]!, value: columns.values[row] };
  return stored;
}

export const entryAt = (columns: Columns, row: number): Entry => ({
  key: cell(columns.keys, columns.keyEnds, row),
  ...storedAt(columns, row),
});

/** The columns of `entries`, in their order. */
export function columnsOf(entries: readonly (readonly [string, Entry])[]): Columns {
  const count = entries.length;
  const scopes = new Map<string, number>();
  const columns: Columns = {
    files: entries.map(([file]) => file),
    keys: entries.map(([, entry]) => entry.key).join(''),
    keyEnds: new Uint32Array(count),
    digests: entries.map(([, entry]) => entry.digest).join(''),
    digestEnds: new Uint32Array(count),
    scopes: [],
    scopeOf: new Int32Array(count).fill(-1),
    values: new Array(count),
    hasData: new Uint8Array(count),
    data: new Array(count),
  };
  let keyEnd = 0;
  let digestEnd = 0;
  entries.forEach(([, entry], row) => {
    columns.keyEnds[row] = keyEnd += entry.key.length;
    columns.digestEnds[row] = digestEnd += entry.digest.length;
    const { checked } = entry;
    if (checked) {
      if (!scopes.has(checked.scope)) scopes.set(checked.scope, scopes.size);
      columns.scopeOf[row] = scopes.get(checked.scope)!;
      columns.values[row] = checked.value;
    } else if ('data' in entry) {
      // Beside a kept value, no front matter (StoredFile `data`): at 100,000 articles it was half of what
      // every edit deserialized, and a million objects held by the build to the end.
      columns.hasData[row] = 1;
      columns.data[row] = entry.data;
    }
  });
  columns.scopes = [...scopes.keys()];
  return columns;
}

/** Whether `value` has the shape of a part's columns, every column as long as its files. */
export function isColumns(value: unknown): value is Columns {
  const columns = value as Columns;
  const count = Array.isArray(columns?.files) ? columns.files.length : -1;
  const sized = (column: unknown, type: { new (length: number): ArrayLike<number> }) =>
    column instanceof type && (column as ArrayLike<number>).length === count;
  return (
    count >= 0 &&
    columns.files.every((file) => typeof file === 'string') &&
    typeof columns.keys === 'string' &&
    typeof columns.digests === 'string' &&
    sized(columns.keyEnds, Uint32Array) &&
    sized(columns.digestEnds, Uint32Array) &&
    (count === 0 || (columns.keyEnds[count - 1] === columns.keys.length && columns.digestEnds[count - 1] === columns.digests.length)) &&
    Array.isArray(columns.scopes) &&
    columns.scopes.every((one) => typeof one === 'string') &&
    sized(columns.scopeOf, Int32Array) &&
    columns.scopeOf.every((one) => one >= -1 && one < columns.scopes.length) &&
    Array.isArray(columns.values) &&
    sized(columns.hasData, Uint8Array) &&
    Array.isArray(columns.data) &&
    columns.hasData.every((one, row) => one === 1 || columns.scopeOf[row]! >= 0)
  );
}
