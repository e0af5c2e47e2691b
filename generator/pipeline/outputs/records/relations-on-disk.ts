/**
 * The related objects' state (kept-relations.ts) as `npm run build` keeps it beside the output, in the record
 * of its tracked outputs (`<out>.inputs.json`), so that a fresh process relates again only the records an
 * edit may change, as `npm run dev` does in memory: at 100,000 articles, relating every record and hashing
 * what each envelope and page is made from took about 3 s of a one-article edit.
 *
 * Kept as columns of strings; each related object is parsed from its JSON only when an output that prints
 * it is made (a carried envelope or page needs only its key). A state from any earlier build is safe to use:
 * it holds what each record's related object was made from (the files' digests and the groups' heads), and
 * the next build relates again every record whose inputs differ from those. A state of any other shape is
 * no state: every record is related again.
 */
import type { KeptRelated, RelationState } from './kept-relations.ts';

/** A related object read back: its JSON, parsed once an output asks for the object. */
class StoredRelated implements KeptRelated {
  #related: Record<string, unknown> | undefined;
  json: string;
  inputs?: string;
  pageInputs?: string;
  constructor(json: string, inputs: string, pageInputs: string) {
    this.json = json;
    if (inputs) this.inputs = inputs;
    if (pageInputs) this.pageInputs = pageInputs;
  }
  get related(): Record<string, unknown> {
    this.#related ??= JSON.parse(this.json) as Record<string, unknown>;
    return this.#related;
  }
}

/** The state as JSON holds it: per collection, ids with their digests and related objects; the groups' heads. */
interface OnDisk {
  records: [collection: string, ids: string[], digests: string[]][];
  related: [collection: string, ids: string[], json: string[], inputs: string[], pageInputs: string[]][];
  heads: [groups: string[], heads: string[]];
}

export function relationsToDisk(value: unknown): OnDisk {
  const state = value as RelationState;
  return {
    records: [...state.records].map(([collection, digests]) => [collection, [...digests.keys()], [...digests.values()]]),
    related: [...state.related].map(([collection, kept]) => {
      const values = [...kept.values()];
      return [
        collection,
        [...kept.keys()],
        values.map((one) => one.json),
        values.map((one) => one.inputs ?? ''),
        values.map((one) => one.pageInputs ?? ''),
      ];
    }),
    heads: [[...state.heads.keys()], [...state.heads.values()]],
  };
}

const strings = (value: unknown, length?: number): value is string[] =>
  Array.isArray(value) && (length === undefined || value.length === length) && value.every((item) => typeof item === 'string');

/** Columns of one length each, all strings: a collection's name, then its columns. */
function rows(value: unknown, columns: number): [string, ...string[][]][] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const row of value) {
    if (!Array.isArray(row) || row.length !== columns + 1 || typeof row[0] !== 'string' || !strings(row[1])) return undefined;
    if (!row.slice(2).every((column) => strings(column, row[1].length))) return undefined;
  }
  return value as [string, ...string[][]][];
}

export function relationsFromDisk(value: unknown): RelationState | undefined {
  const disk = value as Partial<OnDisk> | undefined;
  const records = rows(disk?.records, 2);
  const related = rows(disk?.related, 4);
  const heads = disk?.heads;
  if (!records || !related || !Array.isArray(heads) || !strings(heads[0]) || !strings(heads[1], heads[0].length)) return undefined;
  const state: RelationState = { records: new Map(), related: new Map(), heads: new Map() };
  for (const [collection, ids, digests] of records) state.records.set(collection, new Map(ids!.map((id, row) => [id, digests![row]!])));
  for (const [collection, ids, json, inputs, pageInputs] of related) {
    const kept = new Map<string, KeptRelated>();
    for (let row = 0; row < ids!.length; row++) kept.set(ids![row]!, new StoredRelated(json![row]!, inputs![row]!, pageInputs![row]!));
    state.related.set(collection, kept);
  }
  for (let row = 0; row < heads[0].length; row++) state.heads.set(heads[0][row]!, heads[1][row]!);
  return state;
}
