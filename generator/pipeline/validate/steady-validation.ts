/**
 * Validation of a steady build (npm run dev): the records of the build before are kept with their checks,
 * and the counts that say whether the checks across collections would find anything (reference-counts.ts)
 * are kept up to date, so a build checks only the records that are not the ones the build before checked (a
 * file not changed keeps its raw records, load-content.ts). While nothing is a problem the content is made
 * from what is kept; once something is, validate-content.ts reports every problem as a build from nothing
 * does, with its file, line and field.
 */
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import type { Content } from '../../schemas/content.ts';
import type { RawContent, RawRecord } from '../load/load-content.ts';
import type { Problem } from '../problems.ts';
import { checkExactIds } from './check-references.ts';
import { checkOnce } from './check-record.ts';
import type { Checked } from './checked.ts';
import { createReferenceCounts, type ReferenceCounts } from './reference-counts.ts';

export interface SteadyValidation {
  readonly collections: CollectionTable;
  /** The content, when nothing in it is a problem; undefined when something is (validate-content.ts reports it). */
  validate(raw: RawContent): Content | undefined;
  /** Records the last validation checked: those that were not the previous validation's. */
  readonly checked: number;
}

/** A collection's records as last validated, their checks beside them, and their values once all passed. */
interface Kept {
  raws: readonly RawRecord[];
  checks: (Checked | undefined)[];
  values: unknown[] | undefined;
}

interface State {
  collections: Map<string, Kept>;
  counts: ReferenceCounts;
  /** Records whose own check found a problem. */
  failing: Set<RawRecord>;
  images: ReadonlySet<string> | undefined;
  site: Checked | undefined;
}

/** How one validation checks a record new to it, and lets go of one it no longer has. */
interface Run {
  state: State;
  check(key: string, record: RawRecord): Checked | undefined;
  drop(key: string, record: RawRecord, result: Checked | undefined): void;
}

/** Brings a collection's kept records to `raws`; whether any record changed. */
function update(run: Run, key: string, raws: readonly RawRecord[]): boolean {
  const before = run.state.collections.get(key) ?? { raws: [], checks: [], values: [] };
  if (before.raws.length === raws.length) {
    // The common case, an edit: the same records in the same places but the edited ones.
    let checks: (Checked | undefined)[] | undefined;
    let values = before.values;
    for (let at = 0; at < raws.length; at++) {
      if (raws[at] === before.raws[at]) continue;
      if (!checks) {
        checks = before.checks.slice();
        values = values?.slice();
      }
      run.drop(key, before.raws[at]!, before.checks[at]);
      const result = run.check(key, raws[at]!);
      checks[at] = result;
      if (values && result) values[at] = result.value;
      else values = undefined;
    }
    run.state.collections.set(key, { raws, checks: checks ?? before.checks, values });
    return checks !== undefined;
  }
  // Records added or removed: the others are known by their identity.
  const now = new Set(raws);
  const was = new Map<RawRecord, Checked | undefined>();
  before.raws.forEach((record, at) => {
    if (now.has(record)) was.set(record, before.checks[at]);
    else run.drop(key, record, before.checks[at]);
  });
  const checks = raws.map((record) => (was.has(record) ? was.get(record) : run.check(key, record)));
  run.state.collections.set(key, { raws, checks, values: undefined });
  return true;
}

/** The content as validateContent gives it, from what is kept; only once nothing failed, so every record has its value. */
function contentOf(state: State, collections: CollectionTable): Content {
  const plain: Record<string, unknown> = {};
  for (const [key, collection] of Object.entries(collections)) {
    const kept = state.collections.get(key)!;
    if (collection.kind === 'document') plain[key] = kept.checks[0]?.value;
    else {
      kept.values ??= kept.checks.map((result) => result!.value);
      // A copy: the content is the build's to use as it likes.
      plain[key] = kept.values.slice();
    }
  }
  return plain as Content;
}

export function createSteadyValidation(collections: CollectionTable): SteadyValidation {
  const ownTable = collections === siteCollections;
  const fresh = (): State => ({
    collections: new Map(),
    counts: createReferenceCounts(collections),
    failing: new Set(),
    images: undefined,
    site: undefined,
  });
  let checked = 0;
  const run: Run = {
    state: fresh(),
    check(key, record) {
      const problems: Problem[] = [];
      const result = checkOnce(record, collections[key]!, problems, ownTable);
      checked++;
      if (problems.length > 0) run.state.failing.add(record);
      if (result) run.state.counts.add(key, result);
      return result;
    },
    drop(key, record, result) {
      run.state.failing.delete(record);
      if (result) run.state.counts.remove(key, result);
    },
  };
  const validate = (raw: RawContent): Content | undefined => {
    const { state } = run;
    checked = 0;
    for (const [key, collection] of Object.entries(collections)) {
      const changed = update(run, key, raw.records[key] ?? []);
      if (changed && collection.kind === 'list' && collection.exactly) {
        const present = state.collections.get(key)!.checks.filter((result) => result !== undefined);
        state.counts.setInexact(key, checkExactIds(collection.file, collection.exactly, present, collection.noun).length > 0);
      }
    }
    const site = state.collections.get('site')?.checks[0];
    if (site && site !== state.site) state.counts.setSite(site.value);
    state.site = site;
    if (raw.images !== state.images) state.counts.setImages(raw.images);
    state.images = raw.images;
    const clean = raw.problems.length === 0 && state.failing.size === 0 && site !== undefined && state.counts.clean();
    return clean ? contentOf(state, collections) : undefined;
  };
  return {
    collections,
    validate(raw) {
      try {
        return validate(raw);
      } catch (error) {
        // Counts moved for some records and not others: the next validation starts from nothing.
        run.state = fresh();
        throw error;
      }
    },
    get checked() {
      return checked;
    },
  };
}
