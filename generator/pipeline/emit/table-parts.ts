/**
 * A table of rows by path kept beside the output in parts (the output's record, previous-output.ts; the tracked
 * outputs' record, tracked-outputs.ts): parts by a hash of the path (path-part.ts), each a table of columns
 * (file-columns.ts) written whole under a name of its own (partName), and an index, written last by the record
 * that holds it, naming each part's digest, rows and weight (the bytes of the files it names); the search
 * index's files have parts of their own (partOf). Read and written whole, the records' 233,000 rows at 100,000
 * articles cost a one-article edit 1.5 s of its thread and as many small objects for the garbage collector; as
 * parts, an edit reads and writes only the parts its files fall in.
 *
 * A part whose bytes are not the ones the index names (missing, cut short, edited, or another build's) is no
 * part: its rows are unknown, as if the record never named them, so whoever asks for them makes the file again,
 * and the table counts its size from the parts it could read. A record written whole writes every part; one
 * brought up to date in place (the same table, read from the same place) writes only the parts it changed.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { partOfPath } from '../../shared/path-part.ts';
import { SEARCH_DIR } from '../../search/index-format.ts';
import { fitsColumns, fromColumns, toColumns } from './file-columns.ts';

/** Parts of their own for the search index's files, after the parts by a hash of the path. */
const SEARCH_PARTS = 16;
const SEARCH_FILES = `${SEARCH_DIR}/`;

/**
 * A file's part of `spread` parts by a hash of its path. The search index's files (12,700 at 100,000 articles),
 * which every edit makes again as one group, under a new key, fall in parts of their own: spread among the
 * others, they put every part in each edit's way.
 */
const partOf = (file: string, spread: number) =>
  file.startsWith(SEARCH_FILES) ? spread + partOfPath(file, SEARCH_PARTS) : partOfPath(file, spread);

/** Each part's digest ('' for an empty part, which has no file), rows, and weight. */
export type PartsIndex = [digest: string, rows: number, weight: number][];

/**
 * How a table's rows are kept: in how many parts by a hash of the path (more for a table an edit reads a few
 * rows of, fewer for one read whole), their text and number columns, the row read back, and a row's weight.
 */
export interface RowLayout<Row> {
  spread: number;
  text: Record<string, (row: Row) => string>;
  numbers: Record<string, (row: Row) => number>;
  row(text: Record<string, string[]>, numbers: Record<string, number[]>, at: number): Row;
  weight?: (row: Row) => number;
}

/** Where a table's parts are: a folder, and the start of each part's name in it. */
export interface PartsPlace {
  dir: string;
  prefix: string;
}

/**
 * A part's file, named by its slot and the digest of its bytes: a part written anew is a new file, never a rename
 * over the old one, which the file system makes wait for the new bytes to reach the disk (1 s for 200 parts of an
 * edit at 100,000 articles under load). The old one is removed once the index that no longer names it is in place.
 */
const partName = (prefix: string, part: number, digest: string) => `${prefix}${part.toString(16).padStart(3, '0')}-${digest}.json`;
const partFile = ({ dir, prefix }: PartsPlace, part: number, digest: string) => `${dir}/${partName(prefix, part, digest)}`;
const digestOf = (bytes: string | Buffer) => hash('sha1', bytes, 'hex');

/** Parts parsed by this thread, by place: a steady edit parses a few (test/pipeline/record-parts.test.ts). */
export const partsParsed = new Map<string, number>();

/** A part's bytes when they are the ones `digest` names; undefined for a part missing, cut short, edited or another build's. */
function partBytes(place: PartsPlace, part: number, digest: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(partFile(place, part, digest));
  } catch {
    return undefined;
  }
  return digestOf(bytes) === digest ? bytes : undefined;
}

/** A part's columns when its bytes are the ones `entry` names; undefined otherwise. */
export function readPartColumns(place: PartsPlace, part: number, entry: PartsIndex[number], layout: { text: string[]; numbers: string[] }) {
  const [digest, rows] = entry;
  if (rows === 0) return emptyColumns(layout);
  const bytes = partBytes(place, part, digest);
  if (!bytes) return undefined;
  const key = `${place.dir}/${place.prefix}`;
  partsParsed.set(key, (partsParsed.get(key) ?? 0) + 1);
  try {
    const table = fromColumns(JSON.parse(bytes.toString('utf8')), layout.text, layout.numbers);
    return table?.paths.length === rows ? table : undefined;
  } catch {
    return undefined;
  }
}

const emptyColumns = (layout: { text: string[]; numbers: string[] }) => ({
  paths: [] as string[],
  text: Object.fromEntries(layout.text.map((name) => [name, [] as string[]])),
  numbers: Object.fromEntries(layout.numbers.map((name) => [name, [] as number[]])),
});

/** Whether every part `index` names holds the bytes it names (the damage check asks it off the build's thread). */
export function partsAreWhole(place: PartsPlace, index: PartsIndex): boolean {
  return index.every(([digest, rows], part) => rows === 0 || partBytes(place, part, digest) !== undefined);
}

/** An index as read from a record: undefined unless it is one entry per part of `layout`, each of the right types. */
export function partsIndexOf(value: unknown, layout: { spread: number }): PartsIndex | undefined {
  if (!Array.isArray(value) || value.length !== layout.spread + SEARCH_PARTS) return undefined;
  // The digest names the part's file: nothing but a digest is taken.
  const fits = (entry: unknown) =>
    Array.isArray(entry) &&
    /^(?:[0-9a-f]{40})?$/.test(entry[0]) &&
    Number.isInteger(entry[1]) &&
    entry[1] >= 0 &&
    typeof entry[2] === 'number';
  return value.every(fits) ? (value as PartsIndex) : undefined;
}

/** The rows of a record kept in parts, read part by part as they are asked for. */
export class PartedTable<Row> implements Map<string, Row> {
  private readonly parts: (Map<string, Row> | undefined)[] = [];
  private readonly changed = new Set<number>();
  private count: number;

  constructor(
    readonly place: PartsPlace,
    private readonly layout: RowLayout<Row>,
    private index: PartsIndex,
  ) {
    this.count = index.reduce((sum, [, rows]) => sum + rows, 0);
  }

  private part(file: string): Map<string, Row> {
    return this.load(partOf(file, this.layout.spread));
  }

  private load(part: number): Map<string, Row> {
    const loaded = this.parts[part];
    if (loaded) return loaded;
    const rows = new Map<string, Row>();
    const { text, numbers, row } = this.layout;
    const columns = readPartColumns(this.place, part, this.index[part]!, { text: Object.keys(text), numbers: Object.keys(numbers) });
    if (columns) for (let at = 0; at < columns.paths.length; at++) rows.set(columns.paths[at]!, row(columns.text, columns.numbers, at));
    // A part that is no part names no rows: the count is the parts' that could be read.
    this.count += rows.size - this.index[part]![1];
    this.parts[part] = rows;
    return rows;
  }

  /** The sum of the rows' weights (the output's bytes), from the index for the parts not read. */
  weight(): number {
    let sum = 0;
    for (let part = 0; part < this.index.length; part++) {
      const loaded = this.parts[part];
      if (!loaded) sum += this.index[part]![2];
      else for (const row of loaded.values()) sum += this.layout.weight?.(row) ?? 0;
    }
    return sum;
  }

  /** Writes the parts changed since the table was read into `place` (its own). */
  saveChanged(): PartsWrite {
    mkdirSync(this.place.dir, { recursive: true });
    const old: string[] = [];
    for (const part of this.changed) {
      const [digest, rows] = this.index[part]!;
      this.index[part] = writePart(this.place, part, this.parts[part]!, this.layout);
      if (rows > 0 && digest !== this.index[part]![0]) old.push(partFile(this.place, part, digest));
    }
    this.changed.clear();
    return { index: this.index, removeOld: () => removeFiles(old) };
  }

  get size() {
    return this.count;
  }
  get(file: string) {
    return this.part(file).get(file);
  }
  has(file: string) {
    return this.part(file).has(file);
  }
  set(file: string, row: Row) {
    const part = partOf(file, this.layout.spread);
    const rows = this.load(part);
    if (!rows.has(file)) this.count++;
    rows.set(file, row);
    this.changed.add(part);
    return this;
  }
  delete(file: string) {
    const part = partOf(file, this.layout.spread);
    if (!this.load(part).delete(file)) return false;
    this.count--;
    this.changed.add(part);
    return true;
  }
  clear() {
    for (let part = 0; part < this.index.length; part++) {
      this.parts[part] = new Map();
      this.changed.add(part);
    }
    this.count = 0;
  }
  *entries(): MapIterator<[string, Row]> {
    for (let part = 0; part < this.index.length; part++) yield* this.load(part);
  }
  *keys(): MapIterator<string> {
    for (const [file] of this.entries()) yield file;
  }
  *values(): MapIterator<Row> {
    for (const [, row] of this.entries()) yield row;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  forEach(each: (row: Row, file: string, map: Map<string, Row>) => void) {
    for (const [file, row] of this.entries()) each(row, file, this);
  }
  get [Symbol.toStringTag]() {
    return 'PartedTable';
  }
}

/** Parts written: their index, and the removal of the parts it no longer names, once it is in place. */
export interface PartsWrite {
  index: PartsIndex;
  removeOld(): void;
}

const removeFiles = (files: readonly string[]) => {
  for (const file of files) rmSync(file, { force: true });
};

/**
 * Writes `rows` into `place` as parts: only the changed parts when `rows` is the table read from that very place,
 * else every part (a part left empty is no file), and then any other file of the place is old.
 */
export function writeParts<Row>(place: PartsPlace, rows: ReadonlyMap<string, Row>, layout: RowLayout<Row>): PartsWrite {
  if (rows instanceof PartedTable && rows.place.dir === place.dir && rows.place.prefix === place.prefix) return rows.saveChanged();
  const parts = Array.from({ length: layout.spread + SEARCH_PARTS }, () => new Map<string, Row>());
  for (const [file, row] of rows) parts[partOf(file, layout.spread)]!.set(file, row);
  mkdirSync(place.dir, { recursive: true });
  const index = parts.map((part, at) => writePart(place, at, part, layout));
  const named = new Set(index.flatMap(([digest, rows], at) => (rows > 0 ? [partName(place.prefix, at, digest)] : [])));
  const old = () =>
    readdirSync(place.dir)
      .filter((name) => name.startsWith(place.prefix) && /^[0-9a-f]{3}-/.test(name.slice(place.prefix.length)) && !named.has(name))
      .map((name) => `${place.dir}/${name}`);
  return { index, removeOld: () => removeFiles(old()) };
}

function writePart<Row>(place: PartsPlace, part: number, rows: ReadonlyMap<string, Row>, layout: RowLayout<Row>): PartsIndex[number] {
  // A row left out of the columns (a path or text that holds the separator) is not named by the part, and weighs nothing.
  const texts = Object.values(layout.text);
  let kept = 0;
  let weight = 0;
  for (const [path, row] of rows)
    if (fitsColumns(path, row, texts)) {
      kept++;
      weight += layout.weight?.(row) ?? 0;
    }
  if (kept === 0) return ['', 0, 0];
  const bytes = JSON.stringify(toColumns(rows, layout.text, layout.numbers));
  const digest = digestOf(bytes);
  // A new name, written in place: a build killed while writing leaves a file no index names, or names with other bytes.
  writeFileSync(partFile(place, part, digest), bytes);
  return [digest, kept, weight];
}
