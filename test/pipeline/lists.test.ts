/**
 * The list routes the build writes: item fields, contract order, every filter combination, taxonomy
 * counts, the latest articles, and the default pages and chunks of a 250-article collection.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import {
  buildInto,
  readChunk,
  readEnvelope,
  readListFolders,
  readListItems,
  readListPage,
  readManifest,
  removeBuildDirs,
  SITE_URL,
  tempDir,
  recordPage,
} from '../helpers/build-output.ts';

interface Item {
  id: string;
  slug: string;
  title?: string;
  name?: string;
  summary: string;
  url: string;
  category: string | null;
  industries?: string[];
  topics?: string[];
  date?: string;
  author?: string;
  reading_time?: string;
}

interface Term {
  id: string;
  name: string;
  description: string;
  count: number;
}

/** A list route and, per filter in documented order, which items a value selects. */
interface ListSpec {
  route: string;
  collection: string;
  filters: { name: string; values: (root: string) => string[]; matches: (item: Item, value: string) => boolean }[];
}

const termIds = (route: string) => (root: string) => readEnvelope<Term[]>(root, route).data.map((term) => term.id);

const LISTS: ListSpec[] = [
  {
    route: 'services/list',
    collection: 'services',
    filters: [{ name: 'category', values: termIds('services/categories.json'), matches: (item, value) => item.category === value }],
  },
  {
    route: 'expertise/list',
    collection: 'expertise',
    filters: [
      { name: 'category', values: termIds('services/categories.json'), matches: (item, value) => item.category === value },
      { name: 'industry', values: termIds('expertise/industries.json'), matches: (item, value) => item.industries!.includes(value) },
    ],
  },
  {
    route: 'technology/list',
    collection: 'technology',
    filters: [{ name: 'category', values: termIds('technology/categories.json'), matches: (item, value) => item.category === value }],
  },
  {
    route: 'intelligence/list',
    collection: 'intelligence',
    filters: [
      {
        name: 'topic',
        values: (root) => [...new Set([...termIds('intelligence/topics.json')(root), ...termIds('services/categories.json')(root)])],
        // docs/api.md "Parameters": `topic` matches an article's topics or its category.
        matches: (item, value) => item.topics!.includes(value) || item.category === value,
      },
    ],
  },
];

/** Every combination of a list's filters, each absent or set to one value: `[key, predicate]`. */
function combinations(spec: ListSpec, root: string): [string, (item: Item) => boolean][] {
  let combos: { parts: string[]; tests: ((item: Item) => boolean)[] }[] = [{ parts: [], tests: [] }];
  for (const filter of spec.filters) {
    const next = [...combos];
    for (const combo of combos) {
      for (const value of filter.values(root)) {
        next.push({ parts: [...combo.parts, `${filter.name}=${value}`], tests: [...combo.tests, (item) => filter.matches(item, value)] });
      }
    }
    combos = next;
  }
  return combos.map((combo) => [combo.parts.join('/') || 'all', (item) => combo.tests.every((test) => test(item))]);
}

/**
 * Checks every filter folder of every list: exactly the expected folders, chunks of 100 holding exactly
 * the items of the unfiltered list that match the filters, in the same order, and the manifest's total.
 */
function expectListsConsistent(root: string): void {
  const { totals } = readManifest(root);
  for (const spec of LISTS) {
    const folders = readListFolders(root, spec.route);
    const all = readListItems<Item>(root, spec.route);
    const combos = combinations(spec, root);
    // An empty filtered list has no chunk, hence no folder; its total is 0.
    const expectedKeys = combos.filter(([, matches]) => all.some(matches)).map(([key]) => key);
    expect([...folders.keys()].sort(), spec.route).toEqual(expectedKeys.sort());
    for (const [key, matches] of combos) {
      const where = `${spec.route}/${key}`;
      const expected = all.filter(matches);
      const total = expected.length;
      expect(totals[spec.route]?.[key] ?? 0, where).toBe(total);
      const chunks = folders.get(key)?.chunks ?? [];
      expect(
        chunks.map((chunk) => chunk.index),
        where,
      ).toEqual(Array.from({ length: Math.ceil(total / 100) }, (_, index) => index));
      chunks.forEach((chunk, index) => {
        expect(readChunk(root, chunk.file).length, chunk.file).toBe(Math.min(100, total - index * 100));
      });
      expect(readListItems(root, spec.route, key), where).toEqual(expected);
    }
  }
}

/** Id (the front-matter `id`, else the file name) and date of every article file in a folder. */
function readArticleDates(dir: string): { id: string; date: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const id = /^id: (\S+)$/m.exec(text)?.[1] ?? file.slice(0, -3);
      return { id, date: /^date: "?(\d{4}-\d{2}-\d{2})"?$/m.exec(text)![1]! };
    });
}

const byNewestThenId = (a: { date?: string; id: string }, b: { date?: string; id: string }) =>
  a.date! < b.date! ? 1 : a.date! > b.date! ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Taxonomy terms from a YAML list, in contract order: `order`, then name. */
function readTerms(file: string): { id: string; name: string; order: number }[] {
  const terms = parse(readFileSync(file, 'utf8')) as { id: string; name: string; order: number }[];
  return [...terms].sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

let out: string;

beforeAll(async () => {
  out = await buildInto(VALID_FIXTURE);
});

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

describe('list items', () => {
  /** The fields every service and expertise list item carries. */
  const PRACTICE_ITEM = {
    id: expect.any(String),
    slug: expect.any(String),
    title: expect.any(String),
    summary: expect.any(String),
    category: expect.any(String),
  };
  const all = (route: string) => readListPage<Item>(out, route).data;

  it('carry id, slug, title, summary, an absolute url and the category on services', () => {
    for (const item of all('services/list')) {
      expect(item).toMatchObject(PRACTICE_ITEM);
      expect(item.url).toBe(`${SITE_URL}${recordPage('services', item.slug)}`);
    }
  });

  it('carry the category and the industries on expertise', () => {
    for (const item of all('expertise/list')) {
      expect(item).toMatchObject(PRACTICE_ITEM);
      expect(item.industries!.length).toBeGreaterThan(0);
      expect(item.url).toBe(`${SITE_URL}${recordPage('expertise', item.slug)}`);
    }
  });

  it('carry a name rather than a title on technologies', () => {
    for (const item of all('technology/list')) {
      expect(item).toMatchObject({
        id: expect.any(String),
        slug: expect.any(String),
        name: expect.any(String),
        summary: expect.any(String),
        category: expect.any(String),
      });
      expect(item.title).toBeUndefined();
      expect(item.url).toBe(`${SITE_URL}${recordPage('technology', item.slug)}`);
    }
  });

  it('carry topics, category, date, author and reading time on articles', () => {
    const items = all('intelligence/list');
    expect(items.map((item) => item.id)).toEqual(['mcp-server-for-catalogue-search', 'rag-evaluation']);
    for (const item of items) {
      expect(item).toMatchObject({
        id: expect.any(String),
        slug: expect.any(String),
        title: expect.any(String),
        summary: expect.any(String),
        author: expect.any(String),
      });
      expect(item.topics!.length).toBeGreaterThan(0);
      expect(item.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(item.reading_time).toMatch(/^[1-9]\d* min read$/);
      expect(item.url).toBe(`${SITE_URL}${recordPage('intelligence', item.slug)}`);
    }
    expect(items[1]).toMatchObject({ category: 'neural-core', topics: ['ai-engineering'], date: '2025-07-30', author: 'Priya Raman' });
  });

  it('use the front-matter id and keep the file name as the slug', () => {
    expect(all('services/list').map((item) => [item.id, item.slug])).toEqual([
      ['mcp-server-development', 'mcp-server-development'],
      ['technical-seo-audit', 'seo-audit'],
    ]);
  });
});

describe('list order', () => {
  const ids = (root: string, route: string) => readListPage<Item>(root, route).data.map((item) => item.id);

  it('sorts services, expertise and technologies by their order field', () => {
    expect(ids(out, 'services/list')).toEqual(['mcp-server-development', 'technical-seo-audit']);
    expect(ids(out, 'expertise/list')).toEqual(['agent-ready-product-data-retail', 'llm-guardrails-financial-services']);
    expect(ids(out, 'technology/list')).toEqual(['model-context-protocol', 'llm-gateway']);
  });

  it('breaks ties in order by title (name on technologies) and ties in date by id', async () => {
    const dir = fixtureDir('valid');
    const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
    write(
      'services/zz-crawl-budget.md',
      '---\ntitle: Crawl Budget Review\nsummary: S.\ncategory: growth-marketing\norder: 2\nupdated: 2025-01-01\n---\nBody.\n',
    );
    write(
      'services/aa-tuning.md',
      '---\ntitle: Tuning\nsummary: S.\ncategory: growth-marketing\norder: 2\nupdated: 2025-01-01\n---\nBody.\n',
    );
    write(
      'technology/zz-llm-cache.md',
      '---\nname: LLM Cache\nsummary: S.\ncategory: infrastructure\norder: 2\nupdated: 2025-01-01\n---\nBody.\n',
    );
    write(
      'intelligence/aaa-same-day.md',
      '---\ntitle: Same day\nsummary: S.\ndate: 2025-07-30\nauthor: A\ntopics: [ai-engineering]\n---\nBody.\n',
    );
    write(
      'intelligence/zzz-same-day.md',
      '---\ntitle: Also the same day\nsummary: S.\ndate: 2025-07-30\nauthor: A\ntopics: [ai-engineering]\n---\nBody.\n',
    );
    const root = await buildInto(dir);
    expect(ids(root, 'services/list')).toEqual(['mcp-server-development', 'zz-crawl-budget', 'technical-seo-audit', 'aa-tuning']);
    expect(ids(root, 'technology/list')).toEqual(['model-context-protocol', 'zz-llm-cache', 'llm-gateway']);
    expect(ids(root, 'intelligence/list')).toEqual(['mcp-server-for-catalogue-search', 'aaa-same-day', 'rag-evaluation', 'zzz-same-day']);
    expectListsConsistent(root);
  });

  it('sorts articles newest first, then by id', async () => {
    const items = readListPage<Item>(out, 'intelligence/list').data;
    expect(items).toEqual([...items].sort(byNewestThenId));
  });
});

describe('list filters', () => {
  it('hold, on every page of every filter combination, exactly the matching items in list order', () => {
    expectListsConsistent(out);
  });

  it('match an article by its category as well as by its topics', () => {
    const ids = (key: string) => readListPage<Item>(out, 'intelligence/list', key).data.map((item) => item.id);
    expect(ids('topic=ai-engineering')).toEqual(['mcp-server-for-catalogue-search', 'rag-evaluation']);
    expect(ids('topic=neural-core')).toEqual(['rag-evaluation']);
    expect(ids('topic=websites-agentic-commerce')).toEqual(['mcp-server-for-catalogue-search']);
    expect(ids('topic=paid-media')).toEqual([]);
  });

  it('combine an expertise category with an industry', () => {
    const ids = (key: string) => readListPage<Item>(out, 'expertise/list', key).data.map((item) => item.id);
    expect(ids('category=neural-core/industry=financial-services')).toEqual(['llm-guardrails-financial-services']);
    expect(ids('category=neural-core/industry=retail-ecommerce')).toEqual([]);
    expect(ids('industry=retail-ecommerce')).toEqual(['agent-ready-product-data-retail']);
  });
});

describe('taxonomy routes', () => {
  it('list categories, industries, topics and technology categories by order, then name', () => {
    const ids = (route: string) => readEnvelope<Term[]>(out, route).data.map((term) => term.id);
    expect(ids('services/categories.json')).toEqual(readTerms(path.join(VALID_FIXTURE, 'categories.yaml')).map((term) => term.id));
    expect(ids('expertise/industries.json')).toEqual(readTerms(path.join(VALID_FIXTURE, 'industries.yaml')).map((term) => term.id));
    expect(ids('intelligence/topics.json')).toEqual(readTerms(path.join(VALID_FIXTURE, 'intelligence/topics.yaml')).map((term) => term.id));
    expect(ids('technology/categories.json')).toEqual(
      readTerms(path.join(VALID_FIXTURE, 'technology/categories.yaml')).map((term) => term.id),
    );
  });

  it('break a tie in order by name', async () => {
    const dir = fixtureDir('valid');
    const topics = path.join(dir, 'intelligence/topics.yaml');
    writeFileSync(
      topics,
      `${readFileSync(topics, 'utf8')}- id: zz-first-by-name\n  name: Aardvark Studies\n  description: D.\n  order: 1\n`,
    );
    const root = await buildInto(dir);
    expect(readEnvelope<Term[]>(root, 'intelligence/topics.json').data.map((term) => term.id)).toEqual([
      'zz-first-by-name',
      'agentic-commerce',
      'ai-engineering',
    ]);
  });

  it('carry id, name, description and the count of published records that use each term', () => {
    const items = (route: string) => readListPage<Item>(out, route).data;
    const cases: [string, Item[], (item: Item, id: string) => boolean][] = [
      ['services/categories.json', items('services/list'), (item, id) => item.category === id],
      ['expertise/industries.json', items('expertise/list'), (item, id) => item.industries!.includes(id)],
      ['technology/categories.json', items('technology/list'), (item, id) => item.category === id],
      ['intelligence/topics.json', items('intelligence/list'), (item, id) => item.topics!.includes(id)],
    ];
    for (const [route, records, uses] of cases) {
      for (const term of readEnvelope<Term[]>(out, route).data) {
        expect(Object.keys(term).sort(), route).toEqual(['count', 'description', 'id', 'name']);
        expect(term.count, `${route} ${term.id}`).toBe(records.filter((item) => uses(item, term.id)).length);
      }
    }
    // The draft article (topic agentic-commerce) is not counted.
    expect(readEnvelope<Term[]>(out, 'intelligence/topics.json').data.map((term) => [term.id, term.count])).toEqual([
      ['agentic-commerce', 1],
      ['ai-engineering', 2],
    ]);
  });

  it('count the services and expertise areas that use each platform', () => {
    const platforms = readEnvelope<{ id: string; count: number }[]>(out, 'expertise/technologies.json').data;
    expect(platforms.map((platform) => [platform.id, platform.count])).toEqual([
      ['shopify', 3],
      ['google-analytics-4', 1],
    ]);
  });

  it('list as protocols the open protocols among the technologies', () => {
    const protocols = readEnvelope<Item[]>(out, 'technology/protocols.json').data;
    expect(protocols.map((item) => item.id)).toEqual(['model-context-protocol']);
  });
});

describe('latest articles', () => {
  it('hold the newest N articles for every count from 1 to 20', () => {
    const all = readListPage<Item>(out, 'intelligence/list').data;
    for (let count = 1; count <= 20; count++) {
      const { data, meta } = readEnvelope<Item[]>(out, `intelligence/latest/${count}.json`);
      expect(data, `latest/${count}`).toEqual(all.slice(0, count));
      expect(meta.pagination).toBeUndefined();
    }
  });
});

describe('list windows of 250 articles', () => {
  let root: string;
  let expectedIds: string[];

  beforeAll(async () => {
    const content = tempDir('synthetic');
    await writeSyntheticContent(content, { articles: 250, services: 5, expertise: 5, technology: 3, resources: 3 });
    expectedIds = readArticleDates(path.join(content, 'intelligence'))
      .sort(byNewestThenId)
      .map((article) => article.id);
    root = await buildInto(content);
  });

  it('hold the whole sorted list in chunks 0 to 2, every default page inside one chunk, and the total in the manifest', () => {
    const folder = readListFolders(root, 'intelligence/list').get('all')!;
    expect(folder.chunks.map((chunk) => chunk.index)).toEqual([0, 1, 2]);
    const chunked = folder.chunks.flatMap((chunk) => readChunk<Item>(root, chunk.file));
    expect(chunked.map((item) => item.id)).toEqual(expectedIds);
    expect(folder.chunks.map((chunk) => readChunk(root, chunk.file).length)).toEqual([100, 100, 50]);
    expect(readManifest(root).totals['intelligence/list']!.all).toBe(250);
    for (let offset = 0; offset < 250; offset += 20) expect(Math.floor(offset / 100)).toBe(Math.floor((offset + 19) / 100));
  });

  it('keep every filtered list consistent with the whole list, chunk by chunk', () => {
    expectListsConsistent(root);
    expect(readListItems(root, 'intelligence/list', 'topic=agentic-commerce').length).toBeGreaterThan(20);
  });

  it('hold the newest N in latest/N for every N from 1 to 20', () => {
    for (let count = 1; count <= 20; count++) {
      expect(
        readEnvelope<Item[]>(root, `intelligence/latest/${count}.json`).data.map((item) => item.id),
        `latest/${count}`,
      ).toEqual(expectedIds.slice(0, count));
    }
  });
});
