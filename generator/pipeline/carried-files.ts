/**
 * How a tracker carries files over from the previous build (output-tracker.ts): one file under its key, or a
 * group's files under the group's key.
 */
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from './outputs/output-file.ts';
import type { OutputTracker, TrackedOutputs } from './output-tracker.ts';

/**
 * How files are carried over from `previous`: `carry` gives the file carried when the previous build made it
 * under the same key (made anyway and checked with `verify`); `keptKey`, a file's previous key for a steady
 * build's untouched output (with its previous inputs, when inputs are kept in memory), if there is one.
 */
export function carrier(
  previous: TrackedOutputs | undefined,
  verify: boolean | undefined,
  inputsBefore: ReadonlyMap<string, string> | undefined,
  inputsNow: Map<string, string> | undefined,
) {
  let carried = 0;
  const keptKey = (path: string): string | undefined => {
    const key = previous?.files.get(path)?.[0];
    if (key === undefined || !inputsNow) return key;
    const inputs = inputsBefore?.get(path);
    if (inputs === undefined) return undefined;
    inputsNow.set(path, inputs);
    return key;
  };
  const carry = (path: string, key: string, make: () => string | Uint8Array): OutputFile | undefined => {
    const before = previous?.files.get(path);
    if (before?.[0] !== key) return undefined;
    if (verify) {
      const body = make();
      if (hash('sha1', body, 'base64') !== before[1]) throw new Error(`${path} would be carried over, but its inputs missed a change`);
      return { path, body };
    }
    carried++;
    return { path, carried: before[1], make };
  };
  return { carry, keptKey, carried: () => carried };
}

/** Notes the files of group `name`, made under `key`. */
export function madeFiles(
  groups: Map<string, { key: string; files: string[] }>,
  made: Map<string, string>,
  name: string,
  key: string,
  files: readonly OutputFile[],
): void {
  groups.set(name, { key, files: files.map((file) => file.path) });
  for (const file of files) made.set(file.path, key);
}

/** A group's files carried over under its previous key, each made (all at once, by `make`) only if asked. */
export function carriedFiles(
  before: { key: string; files: string[] },
  make: () => readonly OutputFile[],
  made: Map<string, string>,
  carry: ReturnType<typeof carrier>['carry'],
): OutputFile[] {
  let bodies: Map<string, string | Uint8Array> | undefined;
  const bodyOf = (file: string) => {
    bodies ??= new Map(
      make().map((one) => [one.path, 'body' in one ? one.body : 'copyFrom' in one ? readFileSync(one.copyFrom) : one.make()]),
    );
    return bodies.get(file) ?? '';
  };
  return before.files.map((file) => {
    made.set(file, before.key);
    return carry(file, before.key, () => bodyOf(file))!;
  });
}

/**
 * A tracker's groups carried over whole: `carriedGroup` while their inputs are the same; `steadyGroup` in a
 * steady build (in the rest, unnamed, when the build is `sparse`).
 */
export function groupCarrier(tracker: {
  previous: TrackedOutputs | undefined;
  made: Map<string, string>;
  groups: Map<string, { key: string; files: string[] }>;
  carry: ReturnType<typeof carrier>['carry'];
  keyOf: (inputs: string) => string;
  setGroup: (name: string, key: string, files: readonly OutputFile[]) => void;
  steady: () => boolean;
  sparse: () => boolean;
}): Pick<OutputTracker, 'carriedGroup' | 'steadyGroup'> {
  const { previous, made, groups, carry, keyOf, sparse } = tracker;
  return {
    carriedGroup(name, inputs, make) {
      const key = keyOf(inputs);
      const before = previous?.groups.get(name);
      if (before?.key !== key || before.files.some((file) => previous?.files.get(file)?.[0] !== key)) return undefined;
      groups.set(name, { key, files: before.files });
      return carriedFiles(before, make, made, carry);
    },
    steadyGroup(name, make) {
      const before = previous?.groups.get(name);
      if (tracker.steady() && before?.files.every((file) => previous?.files.get(file)?.[0] === before.key)) {
        groups.set(name, before);
        // With the rest carried unnamed, its files are in the rest.
        return sparse() ? [] : carriedFiles(before, make, made, carry);
      }
      if (sparse()) throw new Error(`${name} was not made by the build before, which a steady build follows`);
      const files = make();
      const bytes = files.map((file) => `${file.path}\n${'body' in file ? hash('sha1', file.body, 'base64') : ''}`);
      tracker.setGroup(name, keyOf(`${name}\n${bytes.join('\n')}`), files);
      return [...files];
    },
  };
}

/**
 * The bytes of `file` in the output folder `dir` (the previous build's), only when they hash to `digest`, the one
 * recorded for it: then they are the bytes its outputs' `make()` would give. Undefined when changed or gone.
 * What reads a carried file rather than make it again (the search index's parts, the API reference's examples).
 */
export function readIntact(dir: string, file: string, digest: string): Buffer | undefined {
  try {
    const bytes = readFileSync(path.join(dir, file));
    return hash('sha1', bytes, 'base64') === digest ? bytes : undefined;
  } catch {
    return undefined;
  }
}
