/** Checks across collections: every referenced id exists, ids and slugs are unique, images are there. */
import type { CollectionTable, Reference } from '../../schemas/collections.ts';
import { dataOf } from '../load/load-file.ts';
import type { FieldPath } from '../load/parse-yaml.ts';
import type { Problem } from '../problems.ts';
import type { Checked, CheckedContent } from './checked.ts';

type AnyChecked = Checked;

const allowedList = (ids: Iterable<string>) => {
  const list = [...ids];
  return list.length ? list.join(', ') : 'none are defined';
};

function problemAt(record: AnyChecked, path: FieldPath, message: string): Problem {
  return { file: record.raw.file, line: record.raw.locate(path), field: path.join('.'), message };
}

/** Checks one reference field (a single id or a list) against the ids of the collection(s) it points to. */
function checkField(records: AnyChecked[], field: string, known: Set<string>, what: string, where: string, problems: Problem[]) {
  /** An item of a list at `index`, else the field's single value. */
  const check = (record: AnyChecked, item: unknown, index?: number) => {
    if (typeof item !== 'string' || known.has(item)) return;
    const allowed = what === 'image' ? `no such file; images live under ${where}` : `one of ${where}: ${allowedList(known)}`;
    problems.push(problemAt(record, index === undefined ? [field] : [field, index], `unknown ${what} "${item}" (${allowed})`));
  };
  // Plain loops, no list or closure made a record: this runs for every record's every reference field, every build.
  for (const record of records) {
    const value = record.value[field];
    if (Array.isArray(value)) for (let index = 0; index < value.length; index++) check(record, value[index], index);
    else if (value !== undefined) check(record, value);
  }
}

/** A Markdown collection whose files are all in one folder (its pattern's one `*` is in the file name). */
const inOneFolder = (pattern: string) => /^[^*]*\*\.md$/.test(pattern);

/** List collections: each id once. Markdown collections: ids and slugs together form one name space. */
function checkUnique(key: string, records: AnyChecked[], collections: CollectionTable, problems: Problem[]) {
  const owners = new Map<string, AnyChecked>();
  const collection = collections[key]!;
  const isMarkdown = collection.kind === 'markdown';
  // Files of one folder have unique names, so slugs are unique: while no record sets an id of its own, there is
  // nothing to find, and 100,000 names in a map took a tenth of a second of every build.
  if (isMarkdown && inOneFolder(collection.pattern) && records.every((record) => record.value.id === record.value.slug)) return;
  // Each record's names without a set or a list of its own: 100,000 of each were made every build.
  const claim = (record: AnyChecked, name: string) => {
    const owner = owners.get(name);
    if (owner && owner !== record) {
      const data = dataOf(record.raw);
      const field = data && typeof data === 'object' && 'id' in data ? ['id'] : [];
      const other = `${owner.raw.file}:${owner.raw.locate(['id'])}`;
      const here = `${record.raw.file}:${record.raw.locate(field)}`;
      const rule = isMarkdown
        ? `ids and slugs must be unique within ${collections[key]!.name}; change the id or rename the file`
        : `ids must be unique in ${record.raw.file}; remove or rename one of them`;
      problems.push(problemAt(record, field.length ? field : ['id'], `"${name}" is also used by ${other} (${rule})`));
      if (owner.raw.file !== record.raw.file) {
        problems.push(problemAt(owner, ['id'], `"${name}" is also used by ${here} (${rule})`));
      }
    } else {
      owners.set(name, record);
    }
  };
  for (const record of records) {
    const id = record.value.id as string;
    claim(record, id);
    const slug = record.value.slug as string;
    if (isMarkdown && slug !== id) claim(record, slug);
  }
}

/** The ids a reference may name, and how a problem names them: "unknown category ... (one of categories.yaml: ...)". */
function describeReference(reference: Reference, content: CheckedContent, images: Set<string>, collections: CollectionTable) {
  if (reference === 'images') return { known: images, what: 'image', where: 'images/ in the content folder' };
  if (typeof reference === 'string') {
    // `site.<list>`: a list in site.yaml, such as resource_types.
    const field = reference.slice('site.'.length);
    return {
      known: new Set(content.site.value[field] as string[]),
      what: field.replace(/_/g, ' ').replace(/s$/, ''),
      where: `${field} in site.yaml`,
    };
  }
  const targets = reference.map((key) => collections[key]!);
  return {
    known: new Set(reference.flatMap((key) => (content[key] ?? []).map((record) => record.value.id as string))),
    what: targets.map((target) => ('noun' in target ? target.noun : target.name)).join(' or '),
    where: targets.map((target) => ('pattern' in target ? target.pattern : target.file)).join(' and '),
  };
}

/** A list collection that must hold exactly the ids the content model fixes. */
export function checkExactIds(file: string, required: readonly string[], records: AnyChecked[], noun: string): Problem[] {
  const present = new Set(records.map((record) => record.value.id));
  const missing = required.filter((id) => !present.has(id));
  if (!missing.length) return [];
  const what = missing.length === 1 ? noun : `${noun.replace(/y$/, 'ie')}s`;
  return [{ file, line: 1, field: '-', message: `missing ${what} ${missing.join(', ')} (exactly ${required.join(', ')})` }];
}

export function checkReferences(content: CheckedContent, images: Set<string>, collections: CollectionTable): Problem[] {
  const problems: Problem[] = [];
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind === 'document') continue;
    checkUnique(key, content[key] ?? [], collections, problems);
    if (collection.kind === 'list' && collection.exactly)
      problems.push(...checkExactIds(collection.file, collection.exactly, content[key] ?? [], collection.noun));
  }
  for (const [key, collection] of Object.entries(collections)) {
    if (collection.kind !== 'markdown') continue;
    for (const [field, reference] of Object.entries(collection.references ?? {})) {
      const { known, what, where } = describeReference(reference, content, images, collections);
      checkField(content[key] ?? [], field, known, what, where, problems);
    }
  }
  return problems;
}
