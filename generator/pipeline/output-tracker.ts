/**
 * Outputs tracked by what they are made from. A producer names, for each file, its inputs: the digests of
 * the records it shows and the facts about others it prints (a related record's title and address, a list
 * window's records and the list's length). The tracker joins them with the build's scope (the generator, the
 * settings and the facts every page prints: the site's address, its settings and taxonomies, the content's
 * newest date) into one key. When the previous build made the same path from the same key, the file is carried
 * over with the digest that build recorded, and `make()` (render, shape, serialize) is never called, unless
 * the emit step cannot use the previous file. Keys and digests are kept by `npm run dev` in memory and beside
 * the output by `npm run build` (`<out>.inputs.json`, trusted only for the folder it describes).
 */
import { hash } from 'node:crypto';
import type { CarriedRest, OutputFile } from './outputs/output-file.ts';
import { type EditReach, findReach, type KnownRecords, type ReachEntry, type RecordFacts } from './edit-reach.ts';
import { restKeeper, settleTracked } from './carried-rest.ts';
import { carrier, groupCarrier, madeFiles } from './carried-files.ts';

/** What one build made: each tracked file's key and digest, and each group's key and files. */
export interface TrackedOutputs {
  files: ReadonlyMap<string, [key: string, digest: string]>;
  groups: ReadonlyMap<string, { key: string; files: string[] }>;
  /**
   * Values outputs keep for the next build, each with the scope it was made under: in memory, all of them; beside
   * the output, the values of facts alone (`steadyKept`).
   */
  kept?: ReadonlyMap<string, { scope: string; value: unknown; facts?: boolean }>;
  /**
   * Each file's inputs, and the scope's digest they were keyed under (in memory only, npm run dev): a file whose
   * inputs are the same string as before takes its key without hashing them again.
   */
  inputs?: { scoped: string; byPath: ReadonlyMap<string, string> };
  /** Each published record's file digest and facts (edit-reach.ts): what the next build finds its edit's reach by. */
  records?: RecordFacts | undefined;
  /**
   * Read from beside the output (tracked-outputs.ts): the digest of the record's index, and the stamp of the
   * output's record it was written with (previous-output.ts).
   */
  onDisk?: { record: string; output: string } | undefined;
}

export interface OutputTracker {
  /** A content file's digest (its path and bytes); '' for a file the build did not load. */
  digest(file: string): string;
  /**
   * The file at `path`, made by `make()` from `inputs` (a string, or a function that makes it): carried over when
   * the previous build made it from the same. `untouched`: the producer says the file names no record the edit
   * touched (`touched` below), so in a steady build it keeps its previous key and `inputs` is never asked.
   */
  file(path: string, inputs: string | (() => string), make: () => string | Uint8Array, untouched?: boolean): OutputFile;
  /**
   * Whether the outputs of the record read from `file` may differ from the previous build's (edit-reach.ts):
   * only the edited records in a steady build, every record otherwise.
   */
  touched(file: string): boolean;
  /** True when the edit's reach is known: only the outputs that name a touched record can change. */
  steady(): boolean;
  /** True when the same records are published with the same facts as the build before (edit-reach.ts `sameFacts`). */
  sameFacts(): boolean;
  /**
   * In a steady build whose emit step keeps what it is not given (carried-rest.ts): the records the edit
   * touched, the only ones a producer is asked for (their outputs, and the windows that hold them); every
   * other tracked output is carried over unnamed. Undefined otherwise: every output is named.
   */
  reached(): readonly ReachEntry[] | undefined;
  /** After every file was given: the previous build's files carried over unnamed (none unless `reached()`). */
  rest(): CarriedRest | undefined;
  /**
   * The files of a group made together (the search index), carried over whole when its inputs are the same as
   * before; undefined when the group must be made (then `madeGroup` says which files it made).
   */
  carriedGroup(name: string, inputs: string, make: () => readonly OutputFile[]): OutputFile[] | undefined;
  madeGroup(name: string, inputs: string, files: readonly OutputFile[]): void;
  /**
   * The files of a group that every record may figure in but that no edit of a steady build changes (the
   * sitemap: every page, and each one's date, a fact): carried over whole in a steady build that follows one
   * which made it; else made by `make()`, keyed by their bytes.
   */
  steadyGroup(name: string, make: () => readonly OutputFile[]): OutputFile[];
  /**
   * What an output kept for the next build under `name` (kept values: relations per record), when the previous
   * build kept it under the same scope; undefined otherwise, and always in a build that tracks nothing.
   */
  previousKept<T>(name: string): T | undefined;
  /**
   * Keeps the value `value()` gives once the build is settled, for the next build, which may use it if this
   * build's outputs are put in place; asked only when values are kept (in memory, npm run dev).
   */
  keep(name: string, value: () => unknown): void;
  /**
   * A value made from the facts of every published record (which records, in which order, with which groups:
   * list selections by position, counts): the previous build's, kept under `name`, when no fact changed
   * (`sameFacts`); else `make()`'s. Kept for the next build either way (in memory, or beside the output). It must
   * hold no record itself (an edited record is a new object, and the value outlives the edit), only positions,
   * files and values, which the structured clone of the record beside the output keeps as they are.
   */
  steadyKept<T>(name: string, make: () => T): T;
  /** How many files were carried over unmade so far. */
  carried(): number;
  /** What this build made, given the digests the emit step took of every file; undefined when it has none. */
  settle(digests: ReadonlyMap<string, string> | undefined): TrackedOutputs | undefined;
}

/**
 * `previous` is what the build before made (undefined for a cold build); `scope` is what every tracked output
 * depends on. With `verify`, every carried file is made anyway and must have the recorded digest (tests).
 */
export function createOutputTracker(options: {
  previous: TrackedOutputs | undefined;
  scope: string;
  digests: ReadonlyMap<string, string>;
  verify?: boolean;
  /** Keeps each file's inputs for the next build (in memory), which then hashes only the inputs that changed. */
  keepInputs?: boolean;
  /** The published Markdown records (their files and validated values), for the edit's reach; none: every record is touched. */
  records?: () => Iterable<ReachEntry>;
  /** The files of the records that print a shown field of the records of `files` (edit-reach.ts). */
  readers?: (files: ReadonlySet<string>) => ReadonlySet<string> | undefined;
  /** What the build knows of its records without walking them (edit-reach.ts). */
  index?: KnownRecords;
  /** The emit step keeps the previous build's files it is not given: a steady build names only what it reached. */
  sparse?: boolean;
}): OutputTracker {
  const { previous, scope, digests, verify } = options;
  // The scope (settings, the site's address, taxonomies' digests) is long, and joined with every output's inputs.
  const scoped = hash('sha1', scope, 'base64');
  const reach: EditReach | undefined =
    options.records &&
    findReach(previous?.records, scoped, options.records, (file) => digests.get(file) ?? '', options.readers, options.index);
  const keyOf = (inputs: string) => hash('sha1', `${scoped}\n${inputs}`, 'base64');
  const inputsBefore = previous?.inputs?.scoped === scoped ? previous.inputs.byPath : undefined;
  const inputsNow = options.keepInputs ? new Map<string, string>() : undefined;
  const made = new Map<string, string>();
  const groups = new Map<string, { key: string; files: string[] }>();
  const kept = new Map<string, () => unknown>();
  /** The kept values made of facts alone (`steadyKept`). */
  const facts = new Set<string>();
  const { carry, keptKey, carried } = carrier(previous, verify, inputsBefore, inputsNow);
  // Asked before any output is named, so that every producer of the build sees the same answer.
  const sparse = (): boolean => !!options.sparse && !!previous && !verify && (reach?.steady() ?? false) && (!inputsNow || !!inputsBefore);
  const rest = restKeeper(previous, made, groups, sparse);
  const setGroup = (name: string, key: string, files: readonly OutputFile[]) => {
    rest.remade(name);
    madeFiles(groups, made, name, key, files);
  };
  return {
    carried,
    digest: (file) => digests.get(file) ?? '',
    previousKept<T>(name: string) {
      const before = previous?.kept?.get(name);
      return before?.scope === scope ? (before.value as T) : undefined;
    },
    keep: (name, value) => kept.set(name, value),
    steadyKept<T>(name: string, make: () => T): T {
      const before = previous?.kept?.get(name);
      const value = before?.scope === scope && reach?.sameFacts() ? (before.value as T) : make();
      kept.set(name, () => value);
      facts.add(name);
      return value;
    },
    touched: (file) => reach?.touched(file) ?? true,
    steady: () => reach?.steady() ?? false,
    sameFacts: () => reach?.sameFacts() ?? false,
    reached: () => (sparse() ? reach?.touchedRecords() : undefined),
    rest: rest.carried,
    file(path, inputs, make, untouched) {
      const kept = untouched && reach?.steady() ? keptKey(path) : undefined;
      if (kept !== undefined) {
        made.set(path, kept);
        return carry(path, kept, make)!;
      }
      const text = typeof inputs === 'string' ? inputs : inputs();
      // Comparing two strings costs a fraction of hashing one: thousands of files a build are carried over.
      const before = inputsBefore?.get(path) === text ? previous?.files.get(path) : undefined;
      const key = before ? before[0] : keyOf(text);
      inputsNow?.set(path, text);
      made.set(path, key);
      return carry(path, key, make) ?? { path, body: make() };
    },
    ...groupCarrier({ previous, made, groups, carry, keyOf, setGroup, steady: () => reach?.steady() ?? false, sparse }),
    madeGroup: (name, inputs, files) => setGroup(name, keyOf(inputs), files),
    settle(emitted) {
      if (!emitted) return undefined;
      // In memory (npm run dev) every kept value; beside the output (npm run build) those of facts alone (keptFacts).
      const before = reach?.sameFacts() ? previous : undefined;
      const values = inputsNow ? keptValues(kept, facts, scope, before) : keptFacts(kept, facts, scope, before);
      const inputs = inputsNow && { scoped, before: inputsBefore, now: inputsNow };
      return settleTracked({ previous, made, groups, emitted, rest: rest.carried(), inputs, kept: values, records: reach?.record() });
    },
  };
}

/**
 * The values a build keeps for the next, each with its scope; with `previous` (a build of the same facts), its
 * values of facts this build did not ask for (a group no edit read), as true as they were.
 */
function keptValues(kept: ReadonlyMap<string, () => unknown>, facts: ReadonlySet<string>, scope: string, previous?: TrackedOutputs) {
  const values = new Map<string, { scope: string; value: unknown; facts?: boolean }>(
    [...kept].map(([name, value]) => [name, { scope, value: value(), facts: facts.has(name) }]),
  );
  for (const [name, entry] of previous?.kept ?? []) if (entry.facts && entry.scope === scope && !values.has(name)) values.set(name, entry);
  return values;
}

/**
 * The values of facts a build keeps beside its output (the others, relations per record, would cost more to
 * write and read than to make): the previous build's very table when every one asked for is the previous value
 * itself (a steady build), so the file beside the output need not be written again.
 */
function keptFacts(kept: ReadonlyMap<string, () => unknown>, facts: ReadonlySet<string>, scope: string, previous?: TrackedOutputs) {
  const asked = [...facts].map((name) => [name, kept.get(name)!()] as const);
  const same = previous?.kept && asked.every(([name, value]) => previous.kept!.get(name)?.value === value);
  if (same) return previous.kept;
  const values = keptValues(new Map(asked.map(([name, value]) => [name, () => value])), facts, scope, previous);
  return values.size ? values : undefined;
}

/** A tracker that carries nothing over and records nothing: every file is made. */
export const UNTRACKED: OutputTracker = {
  carried: () => 0,
  digest: () => '',
  touched: () => true,
  steady: () => false,
  sameFacts: () => false,
  reached: () => undefined,
  rest: () => undefined,
  previousKept: () => undefined,
  keep: () => {},
  steadyKept: (_name, make) => make(),
  file: (path, _inputs, make) => ({ path, body: make() }),
  carriedGroup: () => undefined,
  madeGroup: () => {},
  steadyGroup: (_name, make) => [...make()],
  settle: () => undefined,
};
