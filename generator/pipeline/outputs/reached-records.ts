/**
 * The records of a collection that a steady build's edit reached, when the build names only their outputs
 * (output-tracker.ts `reached`): a producer is asked for these and the windows that hold them, not for every record.
 */
import type { AnyEntry } from '../../schemas/collections.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';

/** Each record's position in the order of `key`, by its file (kept between builds of the same facts: catalogue.ts). */
export const ranksByFile = (catalogue: Catalogue, key: string): ReadonlyMap<string, number> => catalogue.rank(key);

/** The records of `key` read from `files`, in the collection's order: found by their positions, not by a walk of the collection. */
export function recordsByFile(catalogue: Catalogue, key: string, files: ReadonlySet<string>): AnyEntry[] {
  const rank = ranksByFile(catalogue, key);
  const places = [...files].flatMap((file) => rank.get(file) ?? []).sort((a, b) => a - b);
  return places.map((place) => catalogue.records[key]![place]!);
}

/** The reached records of each collection, once per build: asked for by every list page of a collection. */
const byBuild = new WeakMap<Catalogue, Map<string, readonly AnyEntry[]>>();

/** The reached records of `key`, in the collection's order; undefined when every output is named (not such a build). */
export function reachedRecords(catalogue: Catalogue, key: string): readonly AnyEntry[] | undefined {
  const reached = catalogue.track.reached();
  if (!reached) return undefined;
  const made = byBuild.get(catalogue) ?? new Map<string, readonly AnyEntry[]>();
  byBuild.set(catalogue, made);
  const known = made.get(key);
  if (known) return known;
  const rank = ranksByFile(catalogue, key);
  const records = reached.flatMap((entry) => (entry.collection === key ? [entry.record as AnyEntry] : []));
  made.set(
    key,
    records.sort((a, b) => rank.get(a.file)! - rank.get(b.file)!),
  );
  return made.get(key);
}

/** The positions of the reached records of `key` in its order, ascending; undefined as above. */
export function reachedIndexes(catalogue: Catalogue, key: string): number[] | undefined {
  const records = reachedRecords(catalogue, key);
  const rank = records && ranksByFile(catalogue, key);
  return records?.map((record) => rank!.get(record.file)!);
}
