/** Turns a zod issue into the words an editor needs: which field, what is wrong, what is allowed. */
import { z } from 'zod';
import type { FieldPath } from '../load/parse-yaml.ts';

export interface IssueReport {
  path: FieldPath;
  message: string;
}

/** The value at `path` in `data`, or undefined. */
function valueAt(data: unknown, path: FieldPath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

/** The schema an optional, nullable, default or pipe wraps (its definition's `innerType` or `in`), if it wraps one. */
function wrappedBy(schema: z.ZodType): z.ZodType | undefined {
  const def: object = schema._zod.def;
  return asSchema('innerType' in def ? def.innerType : 'in' in def ? def.in : undefined);
}

const asSchema = (value: unknown): z.ZodType | undefined => (value instanceof z.ZodType ? value : undefined);

/** The object schema reached by following `path`, unwrapping optional/default/pipe wrappers. */
function objectSchemaAt(schema: z.ZodType, path: FieldPath): Record<string, z.ZodType> | undefined {
  let current: z.ZodType | undefined = schema;
  const unwrap = () => {
    for (let guard = 0, inner = current && wrappedBy(current); inner && guard < 10; guard++, inner = wrappedBy(inner)) current = inner;
  };
  unwrap();
  for (const segment of path) {
    if (typeof segment === 'number') current = current instanceof z.ZodArray ? asSchema(current.element) : undefined;
    else current = current instanceof z.ZodObject ? asSchema(current.shape[segment]) : undefined;
    unwrap();
  }
  return current instanceof z.ZodObject ? current.shape : undefined;
}

/** Levenshtein distance, for "did you mean" on misspelt field names. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

function unknownFieldMessage(key: string, allowed: string[]): string {
  const nearest = allowed
    .map((name) => ({ name, cost: distance(key.toLowerCase(), name) }))
    .filter(({ cost }) => cost <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.cost - b.cost)[0];
  const hint = nearest ? `did you mean "${nearest.name}"? ` : '';
  return `unknown field (${hint}allowed: ${allowed.join(', ')})`;
}

export function describeIssues(issue: z.core.$ZodIssue, data: unknown, schema: z.ZodType): IssueReport[] {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const allowed = Object.keys(objectSchemaAt(schema, path) ?? {});
    return issue.keys.map((key) => ({ path: [...path, key], message: unknownFieldMessage(key, allowed) }));
  }
  const missing = valueAt(data, path) === undefined;
  return [{ path, message: missing ? `is required (${issue.message})` : issue.message }];
}
