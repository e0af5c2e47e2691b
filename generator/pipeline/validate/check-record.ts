/**
 * One record against its collection's schema, once per raw record: the same raw record (a file not changed
 * since, load-content.ts) is not checked again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { id } from '../../schemas/fields.ts';
import type { CollectionTable, MarkdownCollection } from '../../schemas/collections.ts';
import type { RawRecord } from '../load/load-content.ts';
import { bodyOf, dataOf } from '../load/load-file.ts';
import type { Problem } from '../problems.ts';
import type { Checked } from './checked.ts';
import { describeIssues } from './describe-issue.ts';

function problemsFor(raw: RawRecord, error: z.ZodError, schema: z.ZodType): Problem[] {
  return error.issues.flatMap((issue) =>
    describeIssues(issue, dataOf(raw), schema).map(({ path, message }) => ({
      file: raw.file,
      line: raw.locate(path),
      field: path.length ? path.join('.') : '-',
      message,
    })),
  );
}

/** The file name is the slug and part of every URL, so it follows the id rule even when `id` is set. */
function slugProblems(raw: RawRecord): Problem[] {
  const result = id.safeParse(raw.slug);
  if (result.success) return [];
  const suggestion = raw
    .slug!.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const rename = suggestion ? `rename the file, e.g. to "${suggestion}.md"` : 'rename the file';
  return [{ file: raw.file, line: 1, field: '-', message: `the file name "${raw.slug}" ${result.error.issues[0]!.message} (${rename})` }];
}

const isObject = (data: unknown): data is Record<string, unknown> => data !== null && typeof data === 'object' && !Array.isArray(data);

/**
 * Each Markdown entry's raw record, whose text its outputs may let go (letTextGo): a property of the entry under
 * a symbol, not enumerable, so no spread, Object.assign, JSON or structured clone takes it. A weak map of the
 * entries held 100,000 of them every build, 0.08 s to fill in a body edit at 100,000 articles, and entries the
 * garbage collector traces as ephemerons.
 */
const RAW = Symbol('raw record');
const rawOf = (entry: object): RawRecord | undefined => (entry as { [RAW]?: RawRecord })[RAW];

/** Lets the text of `entry`'s file go: its body is read again from the file if asked (load-file.ts markdownRecord). */
export const letTextGo = (entry: object): void => rawOf(entry)?.letTextGo?.();

/** The line of `entry`'s file its body starts on (1 for a record that is not a Markdown file's). */
export const bodyLineOf = (entry: object): number => rawOf(entry)?.bodyLine?.() ?? 1;

/**
 * `entry` with `field` set to `value`, its other properties as they are (its raw record too, a property of its
 * own): a body read lazily stays lazy, from the same file.
 */
export function withField<T extends object>(entry: T, field: string, value: unknown): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(entry)) as T;
  Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * An entry's body, read when asked for: a record the load store kept reads its file only if one of its
 * outputs is made. One getter for every entry, finding its raw record by the entry: a getter of each entry's
 * own (a closure) gave each entry a shape of its own, so its properties went into a dictionary (100,000 of
 * them every build, slower to make and to read).
 */
const BODY: PropertyDescriptor = {
  get(this: object) {
    return bodyOf(rawOf(this)!) ?? '';
  },
  enumerable: true,
  configurable: true,
};

function addEntryMeta(raw: RawRecord, value: Record<string, unknown>, collection: MarkdownCollection): Record<string, unknown> {
  // Assigned field by field, in the order a spread would give them: 100,000 spreads with a getter among
  // the properties cost about a second a build.
  const entry: Record<string, unknown> = Object.assign({}, value);
  entry.id = value.id ?? raw.slug;
  entry.slug = raw.slug;
  // A collection with a publication date defaults `updated` to it; the other collections require it.
  entry.updated = value.updated ?? (collection.fields.date && value[collection.fields.date]);
  Object.defineProperty(entry, 'body', BODY);
  entry.file = raw.file;
  Object.defineProperty(entry, RAW, { value: raw });
  return entry;
}

/**
 * What a record's value under its schema depends on besides its file: the schemas, this folder, the locked
 * dependencies (zod's version) and Node's. A value kept by an earlier build under another scope is not used.
 */
let scopeOnce: string | undefined;
function validationScope(): string {
  if (scopeOnce !== undefined) return scopeOnce;
  const digest = createHash('sha1').update(process.version);
  for (const folder of ['../../schemas/', './']) {
    const dir = fileURLToPath(new URL(folder, import.meta.url));
    for (const name of readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .sort()) {
      digest.update(`\0${folder}${name}\0`).update(readFileSync(path.join(dir, name)));
    }
  }
  try {
    digest.update(readFileSync(fileURLToPath(new URL('../../../package-lock.json', import.meta.url))));
  } catch {
    digest.update('no lock file');
  }
  scopeOnce = digest.digest('base64');
  return scopeOnce;
}

/**
 * One record against its collection's schema; undefined when nothing of it can take part in later checks.
 * A Markdown record of the site's own collections whose file an earlier build validated (npm run build's
 * load store) takes the value kept then, under the same scope; a value it makes is kept for the next build.
 */
export function checkRecord(
  record: RawRecord,
  collection: CollectionTable[string],
  problems: Problem[],
  ownTable: boolean,
): Checked | undefined {
  const keeps = ownTable && collection.kind === 'markdown' && (record.checked || record.keepChecked);
  const scope = keeps ? validationScope() : undefined;
  // A kept value was kept by a build that passed, its slug too: the slug is the file's name, which keys the
  // store, and its rule is in the scope.
  if (scope && record.checked?.scope === scope && collection.kind === 'markdown')
    return { value: addEntryMeta(record, record.checked.value as Record<string, unknown>, collection), raw: record };
  if (collection.kind === 'markdown') problems.push(...slugProblems(record));
  const data = dataOf(record);
  const result = collection.schema.safeParse(data ?? {});
  if (scope && result.success) record.keepChecked?.({ scope, value: result.data });
  if (!result.success) {
    problems.push(...problemsFor(record, result.error, collection.schema));
    // A record that fails its schema still takes part in the checks across collections with its raw
    // fields, so its bad references show in the same run and others may still refer to its id.
    // Settings that failed leave nothing to check against.
    if (collection.kind === 'document' || !isObject(data)) return undefined;
  }
  const value = (result.success ? result.data : data) as Record<string, unknown>;
  return { value: collection.kind === 'markdown' ? addEntryMeta(record, value, collection) : value, raw: record };
}

/** Checks kept with the raw record they were made from: the same object while its file is unchanged (load-content.ts). */
const checks = new WeakMap<RawRecord, { collection: CollectionTable[string]; checked: Checked | undefined; problems: Problem[] }>();

/** `checkRecord`, once per raw record and collection. */
export function checkOnce(
  record: RawRecord,
  collection: CollectionTable[string],
  problems: Problem[],
  ownTable: boolean,
): Checked | undefined {
  let known = checks.get(record);
  if (known?.collection !== collection) {
    const own: Problem[] = [];
    known = { collection, checked: checkRecord(record, collection, own, ownTable), problems: own };
    checks.set(record, known);
  }
  problems.push(...known.problems);
  return known.checked;
}
