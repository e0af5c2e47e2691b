/**
 * Decap CMS fields from the zod schemas: each front-matter field with the widget a person expects, marked
 * required as the schema requires it, with the schema's own patterns, length limits and error messages,
 * and select options from the taxonomies and records a reference field may name. Never written by hand:
 * test/cms compares every schema with the fields made from it.
 */
import type { z } from 'zod';
import type { Reference } from '../../../schemas/collections.ts';
import { date, imagePath, url } from '../../../schemas/fields.ts';
import { humanize } from '../labels.ts';

/** One Decap field (the subset of Decap's field options this site uses). */
export interface CmsField {
  name: string;
  label: string;
  widget: string;
  required?: false;
  hint?: string;
  pattern?: [string, string];
  options?: { label: string; value: string }[];
  multiple?: true;
  default?: unknown;
  fields?: CmsField[];
  value_type?: 'int';
  date_format?: string;
  time_format?: false;
  format?: string;
  collection?: string;
  search_fields?: string[];
  value_field?: string;
  display_fields?: string[];
  media_folder?: string;
  public_folder?: string;
}

/** What a reference field's select offers: its choices, by the collections the table names. */
export type ChoicesOf = (reference: Reference) => { label: string; value: string }[];

/**
 * The fields of a zod definition this file reads. zod types a schema's definition as what every kind shares
 * (`type`, `checks`); each field below exists on the kinds whose `type` the code checks before reading it.
 */
type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  defaultValue?: unknown;
};
const defOf = (schema: z.ZodType): Def => schema._zod.def as Def;

/** The schema under optional, default and transform wrappers, whether a value is required, and its default. */
export function unwrap(schema: z.ZodType): { inner: z.ZodType; required: boolean; defaultValue?: unknown } {
  let inner = schema;
  let required = true;
  let defaultValue: unknown;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable') {
      required = false;
      if (def.type === 'default') defaultValue = def.defaultValue;
      inner = def.innerType!;
    } else if (def.type === 'pipe' && def !== defOf(date)) inner = def.in!;
    else return { inner, required, defaultValue };
  }
}

/** The schema's own regex and length limit as one Decap pattern, with the schema's own message for a wrong value. */
function patternOf(schema: z.ZodType): [string, string] | undefined {
  const checks = (defOf(schema).checks ?? []).map((check) => check._zod.def);
  const regex = checks.find((check) => check.format === 'regex')?.pattern as RegExp | undefined;
  const max = checks.find((check) => check.check === 'max_length')?.maximum as number | undefined;
  if (!regex) return undefined;
  const source = max ? `^(?=[\\s\\S]{0,${max}}$)${regex.source.replace(/^\^/, '')}` : regex.source;
  const message = schema.safeParse('\u0000 not valid').error?.issues[0]?.message ?? `must match ${regex.source}`;
  return [source, message];
}

/** A field named by a reference: an image; a relation to the one collection of records it names; else a select of its choices. */
function referenceField(base: CmsField, reference: Reference, list: boolean, context: FieldContext): CmsField {
  if (reference === 'images') return { ...base, widget: 'image', ...(context.mediaFolder ? context.mediaFolder : {}) };
  const multiple = list ? { multiple: true as const } : {};
  const relation = Array.isArray(reference) && reference.length === 1 ? context.relationTo?.(reference[0]!) : undefined;
  if (relation) return { ...base, widget: 'relation', ...relation, value_field: '{{slug}}', ...multiple };
  return { ...base, widget: 'select', options: context.choices(reference), ...multiple };
}

export interface FieldContext {
  reference?: Reference;
  choices: ChoicesOf;
  /** Where an image field's files go, as a repository path and a site path. */
  mediaFolder?: { media_folder: string; public_folder: string };
  /** The Decap collection a reference to one collection of records points at, with its title field; none for a taxonomy. */
  relationTo?: (key: string) => { collection: string; search_fields: string[]; display_fields: string[] } | undefined;
}

/** The Decap field for one schema field. */
export function toField(name: string, schema: z.ZodType, context: FieldContext): CmsField {
  const { inner, required, defaultValue } = unwrap(schema);
  const def = defOf(inner);
  const base: CmsField = { name, label: humanize(name), widget: 'string', ...(required ? {} : { required: false as const }) };
  if (defaultValue !== undefined && !(Array.isArray(defaultValue) && defaultValue.length === 0)) base.default = defaultValue;
  const description = (schema as { description?: string }).description ?? (inner as { description?: string }).description;
  if (description) base.hint = description;
  if (context.reference) return referenceField(base, context.reference, def.type === 'array', context);
  // By definition, not identity: `.describe()` clones a schema but keeps its definition.
  if (def === defOf(date)) return { ...base, widget: 'datetime', date_format: 'YYYY-MM-DD', time_format: false, format: 'YYYY-MM-DD' };
  if (def === defOf(imagePath)) return { ...base, widget: 'image' };
  if (def === defOf(url)) return { ...base, pattern: ['^https?://\\S+$', 'must be an absolute http(s) address'] };
  switch (def.type) {
    case 'boolean':
      return { ...base, widget: 'boolean' };
    case 'number':
      return { ...base, widget: 'number', value_type: 'int' };
    case 'enum':
      return { ...base, widget: 'select', options: Object.values(def.entries!).map((value) => ({ label: value, value })) };
    case 'array': {
      const element = unwrap(def.element!).inner;
      const entries = defOf(element).type === 'enum' ? Object.values(defOf(element).entries!) : undefined;
      if (entries) return { ...base, widget: 'select', multiple: true, options: entries.map((value) => ({ label: value, value })) };
      // A list of small records (synonym groups): one sub-form per item.
      const shape = defOf(element).type === 'object' ? defOf(element).shape : undefined;
      if (shape)
        return {
          ...base,
          widget: 'list',
          fields: Object.entries(shape).map(([field, value]) => toField(field, value, { choices: context.choices })),
        };
      return { ...base, widget: 'list' };
    }
    case 'object':
      return {
        ...base,
        widget: 'object',
        fields: Object.entries(def.shape!).map(([field, value]) => toField(field, value, { choices: context.choices })),
      };
    default: {
      const pattern = patternOf(inner);
      const long = ['summary', 'excerpt', 'description'].includes(name);
      return { ...base, widget: long ? 'text' : 'string', ...(pattern ? { pattern } : {}) };
    }
  }
}
