/**
 * The records of a collection that a steady build's edit reached, when the build names only their outputs
 * (output-tracker.ts `reached`): a producer is asked for these and the windows that hold them, not for every record.
 */
import type { AnyEntry } from '../../schemas/collections.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';

/** The reached records of `key`, in the collection's order; undefined when every output is named (not such a build). */
export function reachedRecords(catalogue: Catalogue, key: string): AnyEntry[] | undefined {
  const reached = catalogue.track.reached();
  if (!reached) return undefined;
  const rank = catalogue.rank(key);
  const records = reached.flatMap((entry) => (entry.collection === key ? [entry.record as AnyEntry] : []));
  return records.sort((a, b) => rank.get(a)! - rank.get(b)!);
}

/** The positions of the reached records of `key` in its order, ascending; undefined as above. */
export function reachedIndexes(catalogue: Catalogue, key: string): number[] | undefined {
  const rank = catalogue.rank(key);
  return reachedRecords(catalogue, key)?.map((record) => rank.get(record)!);
}
