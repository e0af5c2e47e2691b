/**
 * The CMS configuration against the schemas it is generated from: every field of every schema appears,
 * required exactly when the schema requires it, with the widget, options and patterns the schema implies;
 * and a record made only from what the configuration allows passes the build's validation.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toField, unwrap } from '../../generator/pipeline/outputs/cms/cms-fields.ts';
import { collections, markdownCollections } from '../../generator/schemas/collections.ts';
import { RESOURCE_TYPES, TECHNOLOGY_STATUSES } from '../../generator/schemas/vocabulary.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

interface Field {
  name: string;
  widget: string;
  required?: boolean;
  pattern?: [string, string];
  options?: { value: string }[];
  multiple?: boolean;
  fields?: Field[];
}
interface Collection {
  name: string;
  folder?: string;
  fields?: Field[];
  files?: { file: string; fields: Field[] }[];
}

let config: { backend: { name: string }; local_backend?: unknown; collections: Collection[] };
let dist: string;

beforeAll(async () => {
  dist = await buildInto('content');
  config = jsYaml.load(readFileSync(path.join(dist, outputPath(`${ADDRESS.admin}config.yml`)), 'utf8')) as typeof config;
});
afterAll(removeBuildDirs);

const shapeOf = (schema: unknown) => (schema as z.ZodObject).shape as Record<string, z.ZodType>;

describe('the generated CMS configuration', () => {
  it('has one folder collection per Markdown collection, records first, and the site settings', () => {
    expect(config.collections.map((collection) => collection.name)).toEqual([
      ...markdownCollections(collections).map(([key]) => key),
      'settings',
    ]);
    for (const [key, collection] of markdownCollections(collections)) {
      expect(config.collections.find((entry) => entry.name === key)!.folder).toBe(`content/${collection.pattern.split('/')[0]}`);
    }
    expect(config.collections.at(-1)!.files![0]!.file).toBe('content/site.yaml');
    expect(config.backend.name).toBe('git-gateway');
    expect(config.local_backend).toBeUndefined();
  });

  it('lists every schema field, required exactly when the schema requires it, and the body', () => {
    for (const [key, collection] of markdownCollections(collections)) {
      const fields = config.collections.find((entry) => entry.name === key)!.fields!;
      const shape = shapeOf(collection.schema);
      expect(fields.map((field) => field.name)).toEqual([...Object.keys(shape), 'body']);
      for (const field of fields.slice(0, -1))
        expect(field.required !== false, `${key}.${field.name}`).toBe(unwrap(shape[field.name]!).required);
    }
    const site = config.collections.at(-1)!.files![0]!.fields;
    const siteShape = shapeOf(collections.site.schema);
    expect(site.map((field) => field.name)).toEqual(Object.keys(siteShape));
    for (const field of site) expect(field.required !== false, `site.${field.name}`).toBe(unwrap(siteShape[field.name]!).required);
  });

  it('offers exactly the ids a reference or enum field accepts', () => {
    const fields = (key: string) => config.collections.find((entry) => entry.name === key)!.fields!;
    const values = (key: string, name: string) =>
      fields(key)
        .find((field) => field.name === name)!
        .options!.map((option) => option.value);
    const taxonomy = (file: string) =>
      (jsYaml.load(readFileSync(path.join('content', file), 'utf8')) as { id: string }[]).map((term) => term.id);
    expect(values('services', 'category')).toEqual(taxonomy('categories.yaml'));
    expect(values('expertise', 'industries')).toEqual(taxonomy('industries.yaml'));
    expect(fields('expertise').find((field) => field.name === 'industries')!.multiple).toBe(true);
    expect(values('intelligence', 'topics')).toEqual(taxonomy('intelligence/topics.yaml'));
    expect(values('technology', 'status')).toEqual([...TECHNOLOGY_STATUSES]);
    expect(values('resources', 'type')).toEqual([...RESOURCE_TYPES]);
    expect(fields('intelligence').find((field) => field.name === 'image')!.widget).toBe('image');
    expect(fields('intelligence').find((field) => field.name === 'date')!.widget).toBe('datetime');
    expect(fields('intelligence').find((field) => field.name === 'body')!.widget).toBe('markdown');
  });

  it('gives patterns that accept and refuse what the schema does', () => {
    const services = config.collections.find((entry) => entry.name === 'services')!.fields!;
    const [pattern, message] = services.find((field) => field.name === 'id')!.pattern!;
    const schema = unwrap(shapeOf(collections.services.schema).id!).inner;
    for (const value of ['paid-media', 'a', 'x'.repeat(128), 'x'.repeat(129), 'Paid-Media', 'paid--media', '-paid', 'paid media', '']) {
      expect(new RegExp(pattern).test(value), value).toBe(schema.safeParse(value).success);
    }
    expect(message).toMatch(/lowercase letters, digits and single hyphens/);
  });

  it('makes a reference to one collection of records a relation widget', () => {
    const relationTo = (key: string) =>
      key === 'technology' ? { collection: 'technology', search_fields: ['name'], display_fields: ['name'] } : undefined;
    const choices = () => [{ label: 'Shopify', value: 'shopify' }];
    const list = toField('technologies', shapeOf(collections.services.schema).technologies!, {
      reference: ['technology'],
      choices,
      relationTo,
    });
    expect(list).toMatchObject({ widget: 'relation', collection: 'technology', value_field: '{{slug}}', multiple: true, required: false });
    const mixed = toField('technologies', shapeOf(collections.services.schema).technologies!, {
      reference: ['technology', 'platforms'],
      choices,
      relationTo,
    });
    expect(mixed).toMatchObject({ widget: 'select', multiple: true, options: choices() });
  });
});

describe('a record made only from what the configuration allows', () => {
  it('passes the build: required fields filled, first option of each select, nothing else', async () => {
    const content = path.join(scratchDir('cms-record'), 'content');
    cpSync('content', content, { recursive: true });
    for (const collection of config.collections.filter((entry) => entry.folder)) {
      const front: Record<string, unknown> = {};
      for (const field of collection.fields!.filter((entry) => entry.required !== false && entry.name !== 'body')) {
        if (field.widget === 'select') front[field.name] = field.multiple ? [field.options![0]!.value] : field.options![0]!.value;
        else if (field.widget === 'datetime') front[field.name] = '2026-01-05';
        else if (field.widget === 'image') front[field.name] = '/images/resources/agent-ready-storefronts-benchmark.svg';
        else front[field.name] = `Made in the CMS ${field.name}`;
      }
      writeFileSync(
        path.join(content, collection.folder!.slice('content/'.length), 'made-in-the-cms.md'),
        `---\n${jsYaml.dump(front)}---\nBody.\n`,
      );
    }
    const check = spawnSync(process.execPath, ['generator/launch.mjs', 'pipeline/cli.ts', 'check', '--content', content], {
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/11 services/);
    rmSync(path.dirname(content), { recursive: true, force: true });
  });
});
