/**
 * The load store's parts by column (load-store.ts): how a part is laid out on disk, made from entries, read
 * back row by row, and checked for shape when it is read.
 */
import type { Entry, StoredFile } from './load-store.ts';

/** A file as the scan saw it: its identity, size and latest change time (read-approved.ts FileIdentity). */
export interface FileKey {
  dev: number;
  ino: number;
  size: number;
  changedMs: number;
}

/** Numbers a file's key takes in `Columns.keys`. */
const KEY_WIDTH = 4;

/**
 * A part's entries by column, as kept on disk. Per file there is its path and its value's own objects; the
 * keys are numbers of one array, the digests cells of one string, the scope one of a few shared strings. An
 * entry of objects per file (an array, an entry, a checked value and their strings) was a third more for
 * an edit at 100,000 articles to deserialize, and more for the collector to copy while it lived; a key as
 * text cost each file four numbers written as text to be compared.
 */
export interface Columns {
  files: string[];
  /** Each file's key, KEY_WIDTH numbers a file; NaN for a file kept under none. */
  keys: Float64Array;
  digests: string;
  /** Where each file's cell of `digests` ends (it starts where the one before ends). */
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

/** Whether row `row`'s digest is `digest`, without making a string of it. */
export function digestIs(columns: Columns, row: number, digest: string): boolean {
  const start = cellStart(columns.digestEnds, row);
  return columns.digestEnds[row]! - start === digest.length && columns.digests.startsWith(digest, start);
}

/** Whether row `row` was kept under `key`. */
export function keyIs(columns: Columns, row: number, key: FileKey): boolean {
  const at = row * KEY_WIDTH;
  const { keys } = columns;
  return keys[at] === key.dev && keys[at + 1] === key.ino && keys[at + 2] === key.size && keys[at + 3] === key.changedMs;
}

function keyAt(columns: Columns, row: number): FileKey | undefined {
  const at = row * KEY_WIDTH;
  const { keys } = columns;
  return Number.isNaN(keys[at]) ? undefined : { dev: keys[at]!, ino: keys[at + 1]!, size: keys[at + 2]!, changedMs: keys[at + 3]! };
}

/** What `get` and `confirm` hand back of a kept row: its digest, value and front matter. */
export function storedAt(columns: Columns, row: number): StoredFile {
  const scope = columns.scopeOf[row]!;
  const stored: StoredFile = { digest: columns.digests.slice(cellStart(columns.digestEnds, row), columns.digestEnds[row]) };
  if (columns.hasData[row] === 1) stored.data = columns.data[row];
  if (scope >= 0) stored.checked = { scope: columns.scopes[scope]!, value: columns.values[row] };
  return stored;
}

export const entryAt = (columns: Columns, row: number): Entry => ({ key: keyAt(columns, row), ...storedAt(columns, row) });

/** The columns of `entries`, in their order. */
export function columnsOf(entries: readonly (readonly [string, Entry])[]): Columns {
  const count = entries.length;
  const scopes = new Map<string, number>();
  const columns: Columns = {
    files: entries.map(([file]) => file),
    keys: new Float64Array(count * KEY_WIDTH).fill(Number.NaN),
    digests: entries.map(([, entry]) => entry.digest).join(''),
    digestEnds: new Uint32Array(count),
    scopes: [],
    scopeOf: new Int32Array(count).fill(-1),
    values: new Array(count),
    hasData: new Uint8Array(count),
    data: new Array(count),
  };
  let digestEnd = 0;
  entries.forEach(([, entry], row) => {
    const { key, checked } = entry;
    if (key) columns.keys.set([key.dev, key.ino, key.size, key.changedMs], row * KEY_WIDTH);
    columns.digestEnds[row] = digestEnd += entry.digest.length;
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

/**
 * Whether `value` comes back the same from JSON: null, booleans, strings, finite numbers but -0, dense arrays
 * and plain objects of such, with no property `undefined` or named `__proto__`. Iterative: a value nested
 * however deep costs no stack.
 */
function survivesJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next === 'string' || typeof next === 'boolean') continue;
    if (typeof next === 'number') {
      if (!Number.isFinite(next) || Object.is(next, -0)) return false;
      continue;
    }
    if (typeof next !== 'object') return false;
    if (Array.isArray(next)) {
      for (let index = 0; index < next.length; index++) {
        if (!(index in next)) return false;
        pending.push(next[index]);
      }
      continue;
    }
    if (Object.getPrototypeOf(next) !== Object.prototype) return false;
    for (const key in next) {
      if (key === '__proto__' || !Object.hasOwn(next, key)) return false;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/**
 * A part as written: its columns, the values as JSON text where every value survives JSON, which parses in
 * half the time V8's deserializer takes for the same objects (the values are most of what an edit at 100,000
 * articles reads of the store); as they are otherwise.
 */
export function onDisk(columns: Columns): Omit<Columns, 'values'> & { values: unknown[] | string } {
  const safe = columns.values.every((value, row) => (columns.scopeOf[row]! >= 0 ? survivesJson(value) : value === undefined));
  // A row with no value is a hole, which JSON writes as null.
  return { ...columns, values: safe ? JSON.stringify(columns.values) : columns.values };
}

/** A part's columns as read (onDisk's), or undefined when they are of another shape. */
export function fromDisk(value: unknown): Columns | undefined {
  const columns = value as Omit<Columns, 'values'> & { values: unknown };
  if (typeof columns?.values === 'string') {
    try {
      const values = JSON.parse(columns.values) as unknown;
      if (!Array.isArray(values) || values.length !== columns.files?.length) return undefined;
      // A row with no value kept was written as null: undefined, as columnsOf leaves it.
      for (let row = 0; row < values.length; row++) if (columns.scopeOf?.[row] === -1) values[row] = undefined;
      columns.values = values;
    } catch {
      return undefined;
    }
  }
  return isColumns(columns) ? columns : undefined;
}

/** Whether `value` has the shape of a part's columns, every column as long as its files. */
function isColumns(value: unknown): value is Columns {
  const columns = value as Columns;
  const count = Array.isArray(columns?.files) ? columns.files.length : -1;
  const sized = (column: unknown, type: { new (length: number): ArrayLike<number> }, width = 1) =>
    column instanceof type && (column as ArrayLike<number>).length === count * width;
  return (
    count >= 0 &&
    columns.files.every((file) => typeof file === 'string') &&
    sized(columns.keys, Float64Array, KEY_WIDTH) &&
    typeof columns.digests === 'string' &&
    sized(columns.digestEnds, Uint32Array) &&
    (count === 0 || columns.digestEnds[count - 1] === columns.digests.length) &&
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
