/**
 * The get records the build writes: one file under the id and one under the slug, the full record with
 * its rendered, escaped body and its relations; and what is not published (drafts, articles dated after
 * the build) appearing nowhere at all.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import {
  buildInto,
  listFiles,
  readEnvelope,
  readManifest,
  removeBuildDirs,
  SITE_URL,
  V1,
  recordFile,
  recordPage,
  readListPage,
} from '../helpers/build-output.ts';

interface Ref {
  id: string;
  title: string;
  url: string;
}

interface TermRef {
  id: string;
  name: string;
}

interface FullRecord {
  id: string;
  slug: string;
  title?: string;
  name?: string;
  url: string;
  reading_time: string;
  content_html: string;
  related: Record<string, TermRef | TermRef[] | Ref[] | null>;
}

const COLLECTIONS = ['services', 'expertise', 'technology', 'intelligence'] as const;

const listItems = (root: string, collection: string) => readListPage<FullRecord>(root, `${collection}/list`).data;
const getRecord = (root: string, collection: string, id: string) => readEnvelope<FullRecord>(root, recordFile(collection, id)).data;

let out: string;

beforeAll(async () => {
  out = await buildInto(VALID_FIXTURE);
});

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

describe('get records', () => {
  it('exist under the id and under the slug, with the same record', () => {
    const seo = getRecord(out, 'services', 'technical-seo-audit');
    expect(seo).toMatchObject({ id: 'technical-seo-audit', slug: 'seo-audit', title: 'Technical SEO Audit' });
    expect(getRecord(out, 'services', 'seo-audit')).toEqual(seo);
  });

  it('are written for exactly the ids and slugs of the published list items', () => {
    for (const collection of COLLECTIONS) {
      const expected = new Set(listItems(out, collection).flatMap((item) => [item.id, item.slug]));
      const written = listFiles(out)
        .filter((file) => file.startsWith(`${V1}/${collection}/get/`))
        .map((file) => {
          // Each in its fan-out folder, and only there.
          expect(file).toBe(`${V1}/${recordFile(collection, path.basename(file, '.json'))}`);
          return path.basename(file, '.json');
        });
      expect(new Set(written), collection).toEqual(expected);
      expect(written, collection).toHaveLength(expected.size);
    }
  });

  it('hold every field of the list item plus content_html, reading_time and related', () => {
    for (const collection of COLLECTIONS) {
      for (const item of listItems(out, collection)) {
        const record = getRecord(out, collection, item.id);
        expect(record, `${collection}/${item.id}`).toMatchObject(item);
        expect(record.content_html, `${collection}/${item.id}`).toMatch(/^<p>/);
        expect(record.reading_time, `${collection}/${item.id}`).toMatch(/^[1-9]\d* min read$/);
        expect(typeof record.related, `${collection}/${item.id}`).toBe('object');
      }
    }
  });

  it('relate a service to its category, industries, technologies, expertise and articles', () => {
    expect(getRecord(out, 'services', 'mcp-server-development').related).toEqual({
      category: { id: 'websites-agentic-commerce', name: 'Websites & Agentic Commerce' },
      industries: [
        { id: 'retail-ecommerce', name: 'Retail & E-commerce' },
        { id: 'financial-services', name: 'Financial Services' },
      ],
      technologies: [
        { id: 'model-context-protocol', name: 'Model Context Protocol' },
        { id: 'llm-gateway', name: 'LLM Gateway' },
        { id: 'shopify', name: 'Shopify' },
      ],
      expertise: [
        {
          id: 'agent-ready-product-data-retail',
          title: 'Agent-Ready Product Data for Retail',
          url: `${SITE_URL}${recordPage('expertise', 'agent-ready-product-data-retail')}`,
        },
      ],
      articles: [
        {
          id: 'mcp-server-for-catalogue-search',
          title: 'An MCP server for catalogue search',
          url: `${SITE_URL}${recordPage('intelligence', 'mcp-server-for-catalogue-search')}`,
        },
      ],
    });
  });

  it('relate a technology to the services and expertise that use it', () => {
    const { related } = getRecord(out, 'technology', 'model-context-protocol');
    expect(related.category).toEqual({ id: 'protocols', name: 'Protocols' });
    expect((related.services as Ref[]).map((ref) => ref.id)).toEqual(['mcp-server-development']);
    expect((related.expertise as Ref[]).map((ref) => ref.id)).toEqual(['agent-ready-product-data-retail']);
  });

  it('relate an article to its topics, its category and other articles sharing a topic', () => {
    expect(getRecord(out, 'intelligence', 'rag-evaluation').related).toEqual({
      topics: [{ id: 'ai-engineering', name: 'AI Engineering' }],
      category: { id: 'neural-core', name: 'Neural Core' },
      articles: [
        {
          id: 'mcp-server-for-catalogue-search',
          title: 'An MCP server for catalogue search',
          url: `${SITE_URL}${recordPage('intelligence', 'mcp-server-for-catalogue-search')}`,
        },
      ],
    });
  });

  it('give every related record the id, title and url of a published record', () => {
    const records = new Map<string, FullRecord>();
    for (const collection of COLLECTIONS)
      for (const item of listItems(out, collection)) records.set(item.url, getRecord(out, collection, item.id));
    let refs = 0;
    for (const record of records.values()) {
      for (const value of Object.values(record.related)) {
        for (const ref of Array.isArray(value) ? value : []) {
          if (!('url' in ref)) continue;
          const target = records.get(ref.url);
          expect(target, `${record.id} -> ${ref.url}`).toBeDefined();
          expect(ref, `${record.id} -> ${ref.url}`).toEqual({ id: target!.id, title: target!.title ?? target!.name, url: target!.url });
          refs++;
        }
      }
    }
    expect(refs).toBeGreaterThan(5);
  });
});

describe('content_html', () => {
  it('escapes raw HTML from the body, so no script tag is ever written', () => {
    const html = getRecord(out, 'intelligence', 'rag-evaluation').content_html;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<h2>Layer one: retrieval</h2>');
    for (const file of listFiles(out).filter((name) => name.startsWith('_api/'))) {
      expect(readFileSync(path.join(out, file), 'utf8'), file).not.toMatch(/<script/i);
    }
  });

  it('keeps the text of a javascript: link but not the link', () => {
    const html = getRecord(out, 'intelligence', 'mcp-server-for-catalogue-search').content_html;
    expect(html).toContain('Read the specification before');
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('<a href="https://modelcontextprotocol.io">official site</a>');
    expect(html.match(/<a /g)).toHaveLength(1);
  });
});

describe('publishing', () => {
  let root: string;
  const FUTURE = { id: 'agent-checkout-launch', slug: 'scheduled-launch', title: 'Agent checkout goes live next week' };
  const DRAFT = { id: 'agent-payments-draft', title: 'How AI agents will pay' };

  beforeAll(async () => {
    const dir = fixtureDir('valid');
    // The build day is 2026-11-18 (SOURCE_DATE_EPOCH): the next day is scheduled, the build day is out.
    writeFileSync(
      path.join(dir, 'intelligence', `${FUTURE.slug}.md`),
      `---\nid: ${FUTURE.id}\ntitle: ${FUTURE.title}\nsummary: Scheduled for launch.\ndate: 2026-11-19\nauthor: Maya Okafor\n` +
        'topics: [agentic-commerce, ai-engineering]\ncategory: paid-media\n---\nThe launch plan.\n',
    );
    writeFileSync(
      path.join(dir, 'intelligence', 'build-day.md'),
      '---\ntitle: Published on the build day\nsummary: Out today.\ndate: 2026-11-18\nauthor: Maya Okafor\ntopics: [ai-engineering]\n---\nToday.\n',
    );
    root = await buildInto(dir);
  });

  it('publishes an article dated on the build day, first in the list', () => {
    expect(listItems(root, 'intelligence').map((item) => item.id)).toEqual([
      'build-day',
      'mcp-server-for-catalogue-search',
      'rag-evaluation',
    ]);
    expect(readEnvelope<{ id: string }[]>(root, 'intelligence/latest/1.json').data.map((item) => item.id)).toEqual(['build-day']);
  });

  it('writes no get record for a draft or an article dated after the build', () => {
    for (const id of [FUTURE.id, FUTURE.slug, DRAFT.id])
      expect(existsSync(path.join(root, V1, 'intelligence/get', `${id}.json`)), id).toBe(false);
  });

  it('mentions neither in any file: lists, chunks, latest, related records, search index or pages', () => {
    for (const file of listFiles(root).filter((name) => /\.(json|ndjson|html)$/.test(name))) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const needle of [FUTURE.id, FUTURE.slug, FUTURE.title, DRAFT.id, DRAFT.title])
        expect(text.includes(needle), `${file} mentions ${needle}`).toBe(false);
    }
  });

  it('counts neither in topic counts, list totals or health records', () => {
    const topics = readEnvelope<{ id: string; count: number }[]>(root, 'intelligence/topics.json').data;
    expect(topics.map((topic) => [topic.id, topic.count])).toEqual([
      ['agentic-commerce', 1],
      ['ai-engineering', 3],
    ]);
    const { totals } = readManifest(root);
    expect(totals['intelligence/list']).toMatchObject({
      all: 3,
      'topic=agentic-commerce': 1,
      'topic=ai-engineering': 3,
      'topic=paid-media': 0,
    });
    expect(readEnvelope<{ records: Record<string, number> }>(root, 'health.json').data.records.intelligence).toBe(3);
    expect(readEnvelope<{ id: string }[]>(root, 'intelligence/latest/20.json').data).toHaveLength(3);
  });
});

describe('publishing a draft technology', () => {
  let root: string;

  beforeAll(async () => {
    const dir = fixtureDir('valid');
    const file = path.join(dir, 'technology', 'llm-gateway.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('status: stable\n', 'status: stable\ndraft: true\n'));
    root = await buildInto(dir);
  });

  it('leaves it out of the technology list, get records and counts', () => {
    expect(listItems(root, 'technology').map((item) => item.id)).toEqual(['model-context-protocol']);
    expect(existsSync(path.join(root, V1, recordFile('technology', 'llm-gateway')))).toBe(false);
    expect(readManifest(root).totals['technology/list']).toMatchObject({ all: 1, 'category=infrastructure': 0 });
  });

  it('leaves it out of the relations of the services and expertise that use it', () => {
    expect((getRecord(root, 'services', 'mcp-server-development').related.technologies as TermRef[]).map((ref) => ref.id)).toEqual([
      'model-context-protocol',
      'shopify',
    ]);
    expect(getRecord(root, 'expertise', 'llm-guardrails-financial-services').related.technologies).toEqual([]);
  });

  it('names it in no record at all, so no client follows an id to a 404', () => {
    // "No drafts anywhere" (pipeline/catalogue/publish.ts): the raw `technologies` ids must not outlive the record.
    const mentions = listFiles(root).filter(
      (file) => file.startsWith(`${V1}/`) && readFileSync(path.join(root, file), 'utf8').includes('llm-gateway'),
    );
    expect(mentions).toEqual([]);
  });
});

describe('content_html safety', () => {
  let html: string;
  const VECTORS = [
    'Inline <img src=x onerror=alert(1)> tag and <b onmouseover="x">bold</b>.',
    '<div onclick="x">block</div>',
    '<iframe src="https://evil.test"></iframe>',
    '[upper](JaVaScRiPt:alert(1)) [spaced]( javascript:alert(1)) [vb](vbscript:msgbox(1)) [data](data:text/html,x)',
    '<javascript:alert(1)>',
    '[reference][r]',
    '[r]: javascript:alert(1)',
    '![image](javascript:alert(1)) ![data image](data:image/svg+xml,x)',
    '[quote](https://x.test/?q="onmouseover=alert(1)) [title](https://x.test "t\\" onmouseover=\\"x")',
    '<!-- a comment -->',
    '[fine](https://example.test/page) [mail](mailto:team@example.test) [relative](/services/)',
  ];

  beforeAll(async () => {
    const dir = fixtureDir('valid');
    writeFileSync(
      path.join(dir, 'intelligence', 'vectors.md'),
      `---\ntitle: Vectors\nsummary: Markup that must not survive.\ndate: 2025-01-01\nauthor: A\ntopics: [ai-engineering]\n---\n${VECTORS.join('\n\n')}\n`,
    );
    html = getRecord(await buildInto(dir), 'intelligence', 'vectors').content_html;
  });

  it('writes only the paragraphs and links Markdown itself produces, without event handlers', () => {
    const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g)];
    expect(new Set(tags.map((tag) => tag[1]!.toLowerCase()))).toEqual(new Set(['p', 'a']));
    for (const [tag, , attributes] of tags) {
      // Every attribute is name="value" with the value escaped, and no name is an event handler.
      expect(attributes!.replace(/\s[a-z]+="[^"]*"/g, ''), tag).toBe('');
      for (const [, name] of attributes!.matchAll(/\s([a-z]+)="/g)) expect(['href', 'src', 'alt', 'title'], tag).toContain(name);
    }
  });

  it('keeps only web, mail and site-relative addresses in links and images', () => {
    const addresses = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
    expect(addresses.sort()).toEqual(
      [
        '/services/',
        'https://example.test/page',
        'https://x.test',
        'https://x.test/?q=&quot;onmouseover=alert(1)',
        'mailto:team@example.test',
      ].sort(),
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;!-- a comment --&gt;');
  });
});
