/** Turns a zod issue into the words an editor needs: which field, what is wrong, what is allowed. */
import type { z } from 'zod';
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

type AnySchema = z.ZodType & { shape?: Record<string, z.ZodType>; element?: z.ZodType; unwrap?: () => z.ZodType };

/** The object schema reached by following `path`, unwrapping optional/default/pipe wrappers. */
function objectSchemaAt(schema: z.ZodType, path: FieldPath): Record<string, z.ZodType> | undefined {
  let current: AnySchema | undefined = schema as AnySchema;
  const unwrap = () => {
    for (let guard = 0; current && guard < 10; guard++) {
      const def = (current as unknown as { _zod: { def: { innerType?: AnySchema; in?: AnySchema } } })._zod.def;
      const inner = def.innerType ?? def.in;
      if (!inner) break;
      current = inner;
    }
  };
  unwrap();
  for (const segment of path) {
    if (typeof segment === 'number') current = current?.element as AnySchema | undefined;
    else current = current?.shape?.[segment] as AnySchema | undefined;
    unwrap();
  }
  return current?.shape;
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
