/**
 * A table of files kept beside the output (each part of `<out>.digests/` and `<out>.inputs/`, table-parts.ts;
 * the content witnesses in `<out>.build.bin`, content-witnesses.ts), written as columns: the paths as one
 * string, each text column as one string, each number column as one array. At 230,000 files, an object with
 * a key and a small array per file took seconds to parse and to write, and as many small objects for the
 * garbage collector; a few long strings and arrays take a fraction of that.
 * The record is a file anyone can edit: a table whose columns are not all of one length is no table.
 */

/** The separator of paths and text values; a path that holds it is left out of the table (never trusted). */
const SEPARATOR = '\n';

export interface Columns {
  paths: string;
  text: Record<string, string>;
  numbers: Record<string, number[]>;
}

/** Whether a row is kept as columns: neither its path nor its text (`texts`, the text columns) holds the separator. */
export const fitsColumns = <T>(file: string, row: T, texts: readonly ((row: T) => string)[]): boolean =>
  !file.includes(SEPARATOR) && !texts.some((of) => of(row).includes(SEPARATOR));

/** The table of `rows` (a path and its values), with the text and number columns named. */
export function toColumns<T>(
  rows: Iterable<[string, T]>,
  text: Record<string, (row: T) => string>,
  numbers: Record<string, (row: T) => number> = {},
): Columns {
  const paths: string[] = [];
  const textOf = Object.entries(text).map(([name, of]) => ({ name, of, cells: [] as string[] }));
  const numberOf = Object.entries(numbers).map(([name, of]) => ({ name, of, cells: [] as number[] }));
  const texts = textOf.map((column) => column.of);
  for (const [file, row] of rows) {
    if (!fitsColumns(file, row, texts)) continue;
    paths.push(file);
    for (const column of textOf) column.cells.push(column.of(row));
    for (const column of numberOf) column.cells.push(column.of(row));
  }
  return {
    paths: paths.join(SEPARATOR),
    text: Object.fromEntries(textOf.map((column) => [column.name, column.cells.join(SEPARATOR)])),
    numbers: Object.fromEntries(numberOf.map((column) => [column.name, column.cells])),
  };
}

/**
 * The table of rows already held as columns (`paths` and each column in the same order), as toColumns makes
 * it: a row whose path or text holds the separator is left out.
 */
export function columnsOf(paths: string[], text: Record<string, string[]>, numbers: Record<string, number[]> = {}): Columns {
  const fits = (value: string) => !value.includes(SEPARATOR);
  const columns = Object.values(text);
  if (paths.every(fits) && columns.every((cells) => cells.every(fits)))
    return { paths: paths.join(SEPARATOR), text: mapValues(text, (cells) => cells.join(SEPARATOR)), numbers };
  const rows = paths.map((_, row) => row).filter((row) => fits(paths[row]!) && columns.every((cells) => fits(cells[row]!)));
  const pick = <T>(cells: T[]) => rows.map((row) => cells[row]!);
  return {
    paths: pick(paths).join(SEPARATOR),
    text: mapValues(text, (cells) => pick(cells).join(SEPARATOR)),
    numbers: mapValues(numbers, pick),
  };
}

const mapValues = <T, U>(record: Record<string, T>, of: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([name, value]) => [name, of(value)]));

/** Each row of a table read back: its path, its text cells and its numbers, by column; undefined for a table of another shape. */
export function fromColumns(
  value: unknown,
  text: readonly string[],
  numbers: readonly string[] = [],
): { paths: string[]; text: Record<string, string[]>; numbers: Record<string, number[]> } | undefined {
  const table = value as Partial<Columns> | undefined;
  if (typeof table?.paths !== 'string' || typeof table.text !== 'object' || typeof table.numbers !== 'object') return undefined;
  const paths = table.paths === '' ? [] : table.paths.split(SEPARATOR);
  const texts: Record<string, string[]> = {};
  for (const name of text) {
    const column = table.text?.[name];
    if (typeof column !== 'string') return undefined;
    texts[name] = column === '' && paths.length === 0 ? [] : column.split(SEPARATOR);
    if (texts[name].length !== paths.length) return undefined;
  }
  const values: Record<string, number[]> = {};
  for (const name of numbers) {
    const column = table.numbers?.[name];
    if (!Array.isArray(column) || column.length !== paths.length || !column.every((n) => typeof n === 'number')) return undefined;
    values[name] = column;
  }
  return { paths, text: texts, numbers: values };
}
