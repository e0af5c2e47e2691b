/**
 * The rest of a steady build (edit-reach.ts): when the emit step keeps the previous build's files it is not
 * given (npm run dev), each producer is asked only for the outputs of the records the edit touched and the list
 * windows that hold them, and every other tracked file of the previous build is carried over as it was: its
 * key, digest and inputs taken from the previous build's tables as they stand, never named output by output.
 * The emit step is told which files those are (`CarriedRest`), and keeps them.
 */
import type { TrackedOutputs } from './output-tracker.ts';
import type { RecordFacts } from './edit-reach.ts';
import type { CarriedRest } from './outputs/output-file.ts';

type Group = { key: string; files: string[] };

/**
 * The previous build's tracked files not made again: all but `made` and the files of the groups made again
 * under other files (`remade`: the names of the groups this build made), which are gone.
 */
export function carriedRest(
  previous: TrackedOutputs,
  made: ReadonlyMap<string, string>,
  groups: ReadonlyMap<string, Group>,
  remade: ReadonlySet<string>,
): CarriedRest & { dropped: ReadonlySet<string> } {
  const dropped = new Set<string>();
  for (const name of remade) {
    const before = previous.groups.get(name)?.files ?? [];
    const files = groups.get(name)?.files ?? [];
    // A group made again under the same files, in the same order (the search index after most edits), drops none.
    if (files.length === before.length && files.every((file, at) => file === before[at])) continue;
    const now = new Set(files);
    for (const file of before) if (!now.has(file) && !made.has(file)) dropped.add(file);
  }
  let size = previous.files.size;
  for (const file of made.keys()) if (previous.files.has(file)) size--;
  for (const file of dropped) if (previous.files.has(file)) size--;
  return {
    dropped,
    size: () => size,
    has: (file) => previous.files.has(file) && !made.has(file) && !dropped.has(file),
  };
}

/** Notes the groups a build made; gives its rest once every file was given, when the build is `sparse()`. */
export function restKeeper(
  previous: TrackedOutputs | undefined,
  made: ReadonlyMap<string, string>,
  groups: ReadonlyMap<string, Group>,
  sparse: () => boolean,
) {
  const remade = new Set<string>();
  let rest: ReturnType<typeof carriedRest> | undefined;
  return {
    remade: (name: string) => remade.add(name),
    carried: () => {
      if (!previous || !sparse()) return undefined;
      rest ??= carriedRest(previous, made, groups, remade);
      return rest;
    },
  };
}

/**
 * What a build made, for the next build: the files it made with the digests the emit step took; with a rest
 * carried, the previous build's tables taken over and brought up to date in place, less the dropped files, with
 * the files this build made. Only a build whose files were put in place settles, so a build that fails leaves
 * them as they were; one that settles is their only reader from then on. A copy of each (233,000 paths at
 * 100,000 articles, twice) cost every edit more than the files it made.
 */
export function settleTracked(build: {
  previous: TrackedOutputs | undefined;
  made: ReadonlyMap<string, string>;
  groups: ReadonlyMap<string, Group>;
  emitted: ReadonlyMap<string, string>;
  rest: ReturnType<typeof carriedRest> | undefined;
  inputs: { scoped: string; before: ReadonlyMap<string, string> | undefined; now: Map<string, string> } | undefined;
  kept: TrackedOutputs['kept'];
  records: RecordFacts | undefined;
}): TrackedOutputs {
  const { previous, made, emitted, rest, inputs, kept, records } = build;
  const carried = rest && previous;
  const files = carried ? (previous.files as Map<string, [string, string]>) : new Map<string, [string, string]>();
  const byPath = inputs && (carried && inputs.before ? (inputs.before as Map<string, string>) : inputs.now);
  for (const file of rest?.dropped ?? []) {
    files.delete(file);
    byPath?.delete(file);
  }
  for (const [path, key] of made) {
    const digest = emitted.get(path);
    const before = carried && files.get(path);
    // A row as it was is not set again: that would rewrite its part beside the output (table-parts.ts).
    if (digest === undefined) files.delete(path);
    else if (before?.[0] !== key || before[1] !== digest) files.set(path, [key, digest]);
  }
  if (byPath && byPath !== inputs!.now) for (const [path, text] of inputs!.now) byPath.set(path, text);
  const groups = carried ? new Map([...previous.groups, ...build.groups]) : build.groups;
  return { files, groups, kept, inputs: byPath && { scoped: inputs!.scoped, byPath }, records };
}
