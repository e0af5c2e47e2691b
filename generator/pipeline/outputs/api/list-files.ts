/**
 * The files behind one list operation: for every combination of its filters, the chunks every window is
 * cut from (see shared/data-paths.ts).
 */
import type { Operation } from '../../../shared/operations.ts';
import { CHUNK_SIZE, chunkPath, filterKey, type AppliedFilters } from '../../../shared/data-paths.ts';
import type { OutputFile } from '../output-file.ts';
import type { AnyEntry } from '../../../schemas/collections.ts';
import type { OutputTracker } from '../../output-tracker.ts';
import { firstAtOrAfter } from '../../../shared/sorted-search.ts';

/** A list filter as the build applies it: its allowed values and the item fields it matches. */
export interface ListFilter {
  name: string;
  /** An item matches when one of these fields is the value or, for a list, holds it. */
  fields: readonly string[];
  values: readonly string[];
}

export interface ListSource {
  operation: Operation;
  /** Records in contract order. */
  records: readonly AnyEntry[];
  /** A field of a record's list item (stored fields are read without shaping the item). */
  field: (record: AnyEntry, name: string) => unknown;
  /** A record's list item serialized (once per build): asked only for the chunks that are made. */
  json: (record: AnyEntry) => string;
  /** What a record's item is made from (output-tracker.ts): asked only for the windows whose key is made. */
  inputs: (record: AnyEntry) => string;
  /** In documented order. */
  filters: readonly ListFilter[];
  track: OutputTracker;
  /**
   * The indexes of the records a steady build's edit reached, when only their windows are named
   * (reached-records.ts): the other chunks are carried over unnamed. Undefined: every chunk is named.
   */
  reached?: readonly number[] | undefined;
}

/** Every combination of filters, each absent or set to one value, in documented filter order. */
function filterCombinations(filters: readonly ListFilter[]): AppliedFilters[] {
  let combinations: [string, string][][] = [[]];
  for (const filter of filters) {
    const next: [string, string][][] = [];
    for (const combination of combinations) {
      next.push(combination);
      for (const value of filter.values) next.push([...combination, [filter.name, value]]);
    }
    combinations = next;
  }
  return combinations;
}

/** The values of one filter each item holds (in any of the filter's fields), as the indexes of the items that hold each. */
function holders(source: ListSource, filter: ListFilter): Map<string, number[]> {
  const held = new Map<string, number[]>(filter.values.map((value) => [value, []]));
  source.records.forEach((record, index) => {
    const values = new Set(
      filter.fields.flatMap((field) => {
        const value = source.field(record, field);
        return Array.isArray(value) ? value : [value];
      }),
    );
    for (const value of values) if (typeof value === 'string') held.get(value)?.push(index);
  });
  return held;
}

/** The indexes in every one of these ascending lists, ascending. */
function intersect(lists: readonly (readonly number[])[]): number[] {
  const [first = [], ...others] = [...lists].sort((a, b) => a.length - b.length);
  return others.reduce<number[]>((kept, list) => {
    const out: number[] = [];
    let at = 0;
    for (const index of kept) {
      while (at < list.length && list[at]! < index) at++;
      if (list[at] === index) out.push(index);
    }
    return out;
  }, first as number[]);
}

/** The indexes of the records an edit touched (output-tracker.ts), when the build is steady; undefined: every record. */
function touchedIndexes(source: ListSource): readonly number[] | undefined {
  if (source.reached) return source.reached;
  if (!source.track.steady()) return undefined;
  const indexes: number[] = [];
  source.records.forEach((record, index) => {
    if (source.track.touched(record.file)) indexes.push(index);
  });
  return indexes;
}

/** The chunks of a selection (ascending record indexes) that hold a touched record; undefined: every chunk. */
function chunksHolding(selection: readonly number[], touched: readonly number[] | undefined): Set<number> | undefined {
  if (!touched) return undefined;
  const chunks = new Set<number>();
  for (const index of touched) {
    const at = firstAtOrAfter(selection, index);
    if (selection[at] === index) chunks.add(Math.floor(at / CHUNK_SIZE));
  }
  return chunks;
}

/** Each combination's items (record positions, ascending) and totals: a pass over every record per filter. */
function selectAll(source: ListSource) {
  // Each item is read once per filter; a combination's items are the intersection of its values' holders.
  const held = new Map(source.filters.map((filter) => [filter.name, holders(source, filter)]));
  const every = source.records.map((_, index) => index);
  const totals: Record<string, number> = {};
  const selections: { filters: AppliedFilters; indexes: number[] }[] = [];
  for (const filters of filterCombinations(source.filters)) {
    const indexes = filters.length ? intersect(filters.map(([name, value]) => held.get(name)!.get(value)!)) : every;
    totals[filterKey(filters)] = indexes.length;
    selections.push({ filters, indexes });
  }
  return { totals, selections };
}

/**
 * Selects each combination's items now (their totals go into the manifest) and writes the files only when
 * `files()` is iterated, so a large list never sits in memory as text all at once. The selections are by
 * position, so a steady build (no record's facts changed) takes the previous build's (output-tracker.ts).
 */
export function buildListFiles(source: ListSource) {
  const route = source.operation.path;
  const { totals, selections } = source.track.steadyKept(`list selections\n${route}`, () => selectAll(source));

  // A chunk is made from its items alone (it prints no total): carried over while they are the same, in order.
  const windowInputs = (indexes: readonly number[], from: number, to: number) =>
    indexes
      .slice(from, to)
      .map((index) => source.inputs(source.records[index]!))
      .join('\n');
  const touched = touchedIndexes(source);
  function* files(): Generator<OutputFile> {
    for (const { filters, indexes } of selections) {
      const total = indexes.length;
      const json = (from: number, to: number) => indexes.slice(from, to).map((index) => source.json(source.records[index]!));
      const touchedChunks = chunksHolding(indexes, touched);
      for (let chunk = 0; chunk * CHUNK_SIZE < total; chunk++) {
        const [from, to] = [chunk * CHUNK_SIZE, (chunk + 1) * CHUNK_SIZE];
        const untouched = touchedChunks !== undefined && !touchedChunks.has(chunk);
        // Unnamed when carried with the rest, but for the list's first chunk: the OpenAPI examples print it.
        if (untouched && source.reached && (chunk > 0 || filters.length > 0)) continue;
        yield source.track.file(
          chunkPath(route, filters, chunk),
          () => `chunk\n${windowInputs(indexes, from, to)}`,
          () => json(from, to).join('\n'),
          untouched,
        );
      }
    }
  }

  return { totals, files };
}
