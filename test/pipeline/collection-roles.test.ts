/**
 * The conventions the collections table carries as data: each Markdown collection's title, summary and
 * date roles, and the flags that choose which collection each site feed is made of. The outputs read
 * fields through these, never by a collection's name or a field's.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyEntry,
  apiCollections,
  collections,
  type CollectionTable,
  feedSource,
  type MarkdownCollection,
  markdownCollections,
} from '../../generator/schemas/collections.ts';
import type { Content } from '../../generator/schemas/content.ts';
import { articleRecord, relatedSchema, serviceRecord } from '../../generator/schemas/api.ts';
import { countPublication, selectPublished } from '../../generator/pipeline/catalogue/publish.ts';
import { orderFields, sortRecords } from '../../generator/pipeline/catalogue/order.ts';
import { createOperations } from '../../generator/shared/operations.ts';

describe("the collections table's roles", () => {
  it.each(markdownCollections(collections))('%s: each role names a field of its schema', (_, collection) => {
    const shape = (collection.schema as z.ZodObject).shape;
    for (const field of Object.values(collection.fields)) expect(Object.keys(shape)).toContain(field);
  });

  it('makes the article feeds of the flagged collection and the resource feed of the other', () => {
    expect(feedSource(collections, 'articles')).toBe('intelligence');
    expect(feedSource(collections, 'resources')).toBe('resources');
    const { feed: _, ...unflagged } = collections.intelligence;
    const moved: CollectionTable = { ...collections, intelligence: unflagged, services: { ...collections.services, feed: 'articles' } };
    expect(feedSource(moved, 'articles')).toBe('services');
  });

  it('refuses a table that flags no collection, or two, for one feed', () => {
    const { feed: _, ...unflagged } = collections.intelligence;
    expect(() => feedSource({ ...collections, intelligence: unflagged }, 'articles')).toThrow(
      /one collection as the articles feed's, not 0/,
    );
    const twice: CollectionTable = { ...collections, services: { ...collections.services, feed: 'articles' } };
    expect(() => feedSource(twice, 'articles')).toThrow(/not 2/);
  });

  it('holds the collection flagged for the resource feed to the fields the feed copies, by type', () => {
    // The resource feed and the hub read type, excerpt, topics, author and image by name; services have none.
    // @ts-expect-error a services collection cannot be the resource feed's source
    const wrong: CollectionTable = { ...collections, services: { ...collections.services, feed: 'resources' } };
    expect(() => feedSource(wrong, 'resources')).toThrow(/not 2/);
    const { feed: _, ...unflagged } = collections.resources;
    const moved: CollectionTable = { ...collections, resources: unflagged, guides: { ...collections.resources, feed: 'resources' } };
    expect(feedSource(moved, 'resources')).toBe('guides');
  });
});

describe('the date role decides what is scheduled', () => {
  const events = (date?: string) => ({
    kind: 'markdown' as const,
    name: 'events',
    noun: 'event',
    pattern: 'events/*.md',
    schema: z.strictObject({ title: z.string(), summary: z.string(), starts: z.string(), date: z.string() }),
    fields: { title: 'title', summary: 'summary', ...(date ? { date } : {}) },
    order: 'updated' as const,
    page: { path: 'events', key: 'slug' as const },
  });
  const record = (id: string, starts: string, date: string) =>
    ({ id, slug: id, body: '', file: `events/${id}.md`, updated: '2026-01-01', title: id, summary: id, starts, date }) as AnyEntry;
  const content = {
    events: [record('past', '2026-01-02', '2027-01-01'), record('coming', '2027-05-01', '2026-01-01')],
  } as unknown as Content;

  it('is the field the role names, whatever it is called', () => {
    const table: CollectionTable = { events: events('starts') };
    const published = selectPublished(content, table, '2026-11-24') as unknown as Record<string, AnyEntry[]>;
    expect(published.events!.map((event) => event.id)).toEqual(['past']);
    expect(countPublication(content, table, content, '2026-11-24')[0]).toMatchObject({ scheduled: 1, nextDate: '2027-05-01' });
  });

  it('is absent for a collection without one: a field that happens to be called `date` schedules nothing', () => {
    const table: CollectionTable = { events: events() };
    const published = selectPublished(content, table, '2026-11-24') as unknown as Record<string, AnyEntry[]>;
    expect(published.events!.map((event) => event.id)).toEqual(['past', 'coming']);
    expect(countPublication(content, table, content, '2026-11-24')[0]).toMatchObject({ scheduled: 0 });
  });
});

describe('the date role decides the newest-first order', () => {
  const events = {
    kind: 'markdown',
    name: 'events',
    noun: 'event',
    pattern: 'events/*.md',
    schema: z.strictObject({ title: z.string(), summary: z.string(), starts: z.string(), date: z.string() }),
    fields: { title: 'title', summary: 'summary', date: 'starts' },
    order: 'date',
    page: { path: 'events', key: 'slug' },
  } as const satisfies MarkdownCollection;
  const record = (id: string, starts: string, date: string) =>
    ({ id, slug: id, body: '', file: `events/${id}.md`, updated: '2026-01-01', title: id, summary: id, starts, date }) as AnyEntry;

  it('sorts by the field the role names, whatever it is called, and says so in the list route', () => {
    const records = [record('first', '2026-01-02', '2026-09-01'), record('latest', '2026-05-01', '2026-01-01')];
    expect(sortRecords(records, events).map((event) => event.id)).toEqual(['latest', 'first']);
    expect(orderFields(events)).toEqual(['starts']);
    const api = { ...collections.intelligence.api, path: 'events', routes: [] };
    const list = createOperations([{ ...events, api }]).find((operation) => operation.path === 'events/list');
    expect(list?.description).toMatch(/^The published articles, newest `starts` first, then by id\./);
  });

  it('needs a date role: the table refuses a newest-first order by a date it does not name', () => {
    const { date: _, ...undated } = events.fields;
    // @ts-expect-error a collection without a date role cannot be ordered by its date
    const wrong: MarkdownCollection = { ...events, fields: undated };
    expect(wrong.order).toBe('date');
  });
});

describe("a record's related schema, derived from its relations", () => {
  it('has one field per relation, in order, for every collection the API serves', () => {
    for (const [, collection] of apiCollections(collections)) {
      const related = collection.api.record.shape.related as z.ZodObject;
      expect(Object.keys(related.shape)).toEqual(Object.keys(collection.api.relations ?? {}));
    }
  });

  it('makes a term nullable exactly when the front matter may leave its field out', () => {
    const articleRelated = articleRecord.shape.related as z.ZodObject;
    const serviceRelated = serviceRecord.shape.related as z.ZodObject;
    expect(articleRelated.shape.category!.safeParse(null).success).toBe(true);
    expect(serviceRelated.shape.category!.safeParse(null).success).toBe(false);
    const schema = relatedSchema(
      { kind: { kind: 'term', field: 'kind', taxonomies: ['categories'], description: 'The kind.' } },
      z.strictObject({ kind: z.string() }),
    );
    expect(schema.shape.kind!.safeParse(null).success).toBe(false);
    expect(z.toJSONSchema(schema).properties!.kind).toMatchObject({ description: 'The kind.' });
  });
});
