/**
 * The files behind one list operation: for every combination of its filters, a complete envelope per
 * default page and the chunks any other window is cut from (see shared/layout.ts).
 */
import { DEFAULT_LIMIT, filterParams, type Operation } from '../../../shared/operations.ts';
import { serializeEnvelope, pagination, type MetaFields } from '../../../shared/envelope.ts';
import { CHUNK_SIZE, chunkPath, filterKey, pagePath, type FilterValues } from '../../../shared/data-paths.ts';
import type { OutputFile } from '../output-file.ts';

export interface ListSource<T> {
  operation: Operation;
  /** Items in contract order. */
  items: T[];
  /** Each item serialized once, in the same order. */
  json: string[];
  /** Allowed values per filter name. */
  values: Record<string, readonly string[]>;
  matches(item: T, filter: string, value: string): boolean;
}

/** Every combination of filters, each absent or set to one value, in documented filter order. */
function filterCombinations(names: string[], values: Record<string, readonly string[]>): FilterValues[] {
  let combinations: [string, string][][] = [[]];
  for (const name of names) {
    const next: [string, string][][] = [];
    for (const combination of combinations) {
      next.push(combination);
      for (const value of values[name] ?? []) next.push([...combination, [name, value]]);
    }
    combinations = next;
  }
  return combinations;
}

/**
 * Selects each combination's items now (their totals go into the manifest) and writes the files only when
 * `files()` is iterated, so a large list never sits in memory as text all at once.
 */
export function buildListFiles<T>(source: ListSource<T>, baseMeta: Omit<MetaFields, 'pagination'>) {
  const route = source.operation.path;
  const names = filterParams(source.operation).map((param) => param.name);
  const totals: Record<string, number> = {};
  const selections: { filters: FilterValues; indexes: number[] }[] = [];
  for (const filters of filterCombinations(names, source.values)) {
    const indexes: number[] = [];
    source.items.forEach((item, index) => {
      if (filters.every(([name, value]) => source.matches(item, name, value))) indexes.push(index);
    });
    totals[filterKey(filters)] = indexes.length;
    selections.push({ filters, indexes });
  }

  function* files(): Generator<OutputFile> {
    for (const { filters, indexes } of selections) {
      const selected = indexes.map((index) => source.json[index]!);
      for (let offset = 0; offset === 0 || offset < selected.length; offset += DEFAULT_LIMIT) {
        const page = selected.slice(offset, offset + DEFAULT_LIMIT);
        const meta = { ...baseMeta, pagination: pagination(selected.length, DEFAULT_LIMIT, offset, page.length) };
        yield { path: pagePath(route, filters, offset), body: serializeEnvelope(`[${page.join(',')}]`, meta) };
      }
      for (let chunk = 0; chunk * CHUNK_SIZE < selected.length; chunk++) {
        yield { path: chunkPath(route, filters, chunk), body: selected.slice(chunk * CHUNK_SIZE, (chunk + 1) * CHUNK_SIZE).join('\n') };
      }
    }
  }

  return { totals, files };
}
