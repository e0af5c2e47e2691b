/** Checks across collections: every referenced id exists, ids and slugs are unique, images are there. */
import { collections, type CollectionKey } from '../../schemas/collections.ts';
import { TECHNOLOGY_CATEGORY_IDS } from '../../schemas/taxonomies.ts';
import type { FieldPath } from '../load/parse-yaml.ts';
import type { Problem } from '../problems.ts';
import type { Checked, CheckedContent } from './validate-content.ts';

type AnyChecked = Checked<Record<string, unknown>>;

const allowedList = (ids: Iterable<string>) => {
  const list = [...ids];
  return list.length ? list.join(', ') : 'none are defined';
};

function problemAt(record: AnyChecked, path: FieldPath, message: string): Problem {
  return { file: record.raw.file, line: record.raw.locate(path), field: path.join('.'), message };
}

/** Checks one reference field (a single id or a list) against the ids of the collection(s) it points to. */
function checkField(records: AnyChecked[], field: string, known: Set<string>, what: string, where: string, problems: Problem[]) {
  for (const record of records) {
    const value = record.value[field];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    values.forEach((item, index) => {
      if (typeof item === 'string' && !known.has(item)) {
        const path = Array.isArray(value) ? [field, index] : [field];
        const allowed = what === 'image' ? `no such file; images live under ${where}` : `one of ${where}: ${allowedList(known)}`;
        problems.push(problemAt(record, path, `unknown ${what} "${item}" (${allowed})`));
      }
    });
  }
}

/** List collections: each id once. Markdown collections: ids and slugs together form one name space. */
function checkUnique(key: CollectionKey, records: AnyChecked[], problems: Problem[]) {
  const owners = new Map<string, AnyChecked>();
  const isMarkdown = collections[key].kind === 'markdown';
  for (const record of records) {
    const names = new Set([record.value.id as string, ...(isMarkdown ? [record.value.slug as string] : [])]);
    for (const name of names) {
      const owner = owners.get(name);
      if (owner && owner !== record) {
        const field = record.raw.data && typeof record.raw.data === 'object' && 'id' in record.raw.data ? ['id'] : [];
        const other = `${owner.raw.file}:${owner.raw.locate(['id'])}`;
        const here = `${record.raw.file}:${record.raw.locate(field)}`;
        const rule = isMarkdown
          ? `ids and slugs must be unique within ${collections[key].name}; change the id or rename the file`
          : `ids must be unique in ${record.raw.file}; remove or rename one of them`;
        problems.push(problemAt(record, field.length ? field : ['id'], `"${name}" is also used by ${other} (${rule})`));
        if (owner.raw.file !== record.raw.file) {
          problems.push(problemAt(owner, ['id'], `"${name}" is also used by ${here} (${rule})`));
        }
      } else {
        owners.set(name, record);
      }
    }
  }
}

export function checkReferences(content: CheckedContent, images: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const all = content as unknown as Record<CollectionKey, AnyChecked[]>;
  const ids = (key: CollectionKey) => new Set(all[key].map((record) => record.value.id as string));

  for (const key of Object.keys(collections) as CollectionKey[]) {
    if (key !== 'site') checkUnique(key, all[key], problems);
  }

  const categories = ids('categories');
  const industries = ids('industries');
  const topics = ids('topics');
  const technologies = new Set([...ids('technology'), ...ids('platforms')]);
  const resourceTypes = new Set(content.site.value.resource_types);

  for (const records of [all.services, all.expertise]) {
    checkField(records, 'category', categories, 'category', 'categories.yaml', problems);
    checkField(records, 'industries', industries, 'industry', 'industries.yaml', problems);
    checkField(records, 'technologies', technologies, 'technology or platform', 'technology/*.md and platforms.yaml', problems);
  }
  checkField(all.intelligence, 'topics', topics, 'topic', 'intelligence/topics.yaml', problems);
  checkField(all.intelligence, 'category', categories, 'category', 'categories.yaml', problems);
  checkField(all.intelligence, 'image', images, 'image', 'images/ in the content folder', problems);
  checkField(all.resources, 'category', categories, 'category', 'categories.yaml', problems);
  checkField(all.resources, 'type', resourceTypes, 'resource type', 'resource_types in site.yaml', problems);
  checkField(all.resources, 'image', images, 'image', 'images/ in the content folder', problems);

  const missing = TECHNOLOGY_CATEGORY_IDS.filter((id) => !ids('technologyCategories').has(id));
  if (missing.length) {
    problems.push({
      file: collections.technologyCategories.file,
      line: 1,
      field: '-',
      message: `missing technology categor${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')} (exactly ${TECHNOLOGY_CATEGORY_IDS.join(', ')})`,
    });
  }
  return problems;
}
