/**
 * The catalogue's groups and order by position, kept between builds whose records have the same facts
 * (output-tracker.ts `steadyKept`): a group is the positions of its members in the collection's order, and a
 * record's rank its position, by file. An edited record is a new object, so what is kept holds none: a
 * group's members are read from this build's records when it is asked for, one group at a time. Before, each
 * build grouped and ranked every record to answer an edit's few look-ups.
 */
import type { AnyEntry } from '../../schemas/collections.ts';

const asList = (value: unknown) => (Array.isArray(value) ? value : [value]);

/** The positions of the records holding each value of `field` (one entry per value of a list field), ascending. */
export function groupPositions(records: readonly AnyEntry[], field: string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  records.forEach((record, index) => {
    for (const key of asList(record[field])) {
      if (typeof key !== 'string') continue;
      const group = groups.get(key);
      if (group) group.push(index);
      else groups.set(key, [index]);
    }
  });
  return groups;
}

/** The groups of `positions` over this build's `records`: each group's members made when first asked for. */
export function groupsOver(
  positions: ReadonlyMap<string, readonly number[]>,
  records: readonly AnyEntry[],
): ReadonlyMap<string, AnyEntry[]> {
  return new GroupsOver(positions, records);
}

class GroupsOver extends Map<string, AnyEntry[]> {
  constructor(
    private readonly positions: ReadonlyMap<string, readonly number[]>,
    private readonly records: readonly AnyEntry[],
  ) {
    super();
  }
  override get(value: string): AnyEntry[] | undefined {
    const known = super.get(value);
    if (known) return known;
    const indexes = this.positions.get(value);
    if (!indexes) return undefined;
    const group = indexes.map((index) => this.records[index]!);
    super.set(value, group);
    return group;
  }
  override has(value: string): boolean {
    return this.positions.has(value);
  }
  override get size(): number {
    return this.positions.size;
  }
  override keys(): MapIterator<string> {
    return this.positions.keys() as MapIterator<string>;
  }
  /** Every group, in the order the values were first met (as a walk of every record gives them). */
  private all(): Map<string, AnyEntry[]> {
    return new Map([...this.positions.keys()].map((value) => [value, this.get(value)!]));
  }
  override entries(): MapIterator<[string, AnyEntry[]]> {
    return this.all().entries();
  }
  override values(): MapIterator<AnyEntry[]> {
    return this.all().values();
  }
  override [Symbol.iterator](): MapIterator<[string, AnyEntry[]]> {
    return this.entries();
  }
  override forEach(each: (group: AnyEntry[], value: string, map: Map<string, AnyEntry[]>) => void, self?: unknown): void {
    for (const [value, group] of this.all()) each.call(self, group, value, this);
  }
}

/** Each record's position in `records`, by file. */
export const positionsByFile = (records: readonly AnyEntry[]): Map<string, number> =>
  new Map(records.map((record, index) => [record.file, index]));
