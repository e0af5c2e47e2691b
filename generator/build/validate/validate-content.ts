/**
 * Validates raw records against their collection's schema, then checks what no single schema can see:
 * references between collections, unique ids and slugs, image files. Every problem is collected.
 */
import type { z } from 'zod';
import { collections, type CollectionKey, type Content, type MarkdownKey } from '../../schemas/registry.ts';
import type { RawContent, RawRecord } from '../load/load-content.ts';
import { ContentError, type Problem } from '../problems.ts';
import { checkReferences } from './check-references.ts';
import { describeIssues } from './describe-issue.ts';

/** A validated record beside the raw record it came from, so later checks can still name file and line. */
export interface Checked<T> {
  value: T;
  raw: RawRecord;
}

export type CheckedContent = { [K in keyof Content]: Content[K] extends (infer T)[] ? Checked<T>[] : Checked<Content[K]> };

function problemsFor(raw: RawRecord, error: z.ZodError, schema: z.ZodType): Problem[] {
  return error.issues.flatMap((issue) =>
    describeIssues(issue, raw.data, schema).map(({ path, message }) => ({
      file: raw.file,
      line: raw.locate(path),
      field: path.length ? path.join('.') : '-',
      message,
    })),
  );
}

function addEntryMeta(key: MarkdownKey, raw: RawRecord, value: Record<string, unknown>): Record<string, unknown> {
  return {
    ...value,
    id: value.id ?? raw.slug,
    slug: raw.slug,
    // Articles default `updated` to their publication date; the other collections require it.
    updated: value.updated ?? value.date,
    body: raw.body ?? '',
    file: raw.file,
  };
}

/** Validates everything; throws `ContentError` with every problem found, grouped later by file. */
export function validateContent(raw: RawContent): Content {
  const problems: Problem[] = [...raw.problems];
  const checked = {} as Record<CollectionKey, Checked<unknown>[]>;
  for (const [key, collection] of Object.entries(collections) as [CollectionKey, (typeof collections)[CollectionKey]][]) {
    checked[key] = [];
    for (const record of raw.records[key]) {
      const result = (collection.schema as z.ZodType).safeParse(record.data ?? {});
      if (!result.success) {
        problems.push(...problemsFor(record, result.error, collection.schema));
        continue;
      }
      const value =
        collection.kind === 'markdown' ? addEntryMeta(key as MarkdownKey, record, result.data as Record<string, unknown>) : result.data;
      checked[key].push({ value, raw: record });
    }
  }
  const [site] = checked.site;
  const content = { ...checked, site } as unknown as CheckedContent;
  if (site) problems.push(...checkReferences(content, raw.images));
  if (problems.length) throw new ContentError(problems);

  const plain = {} as Record<string, unknown>;
  for (const key of Object.keys(collections) as CollectionKey[]) {
    plain[key] = key === 'site' ? site!.value : checked[key].map((record) => record.value);
  }
  return plain as Content;
}
