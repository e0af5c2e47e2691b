/**
 * Pages for every record the API gives a `url`, and list pages: each `url` has its page, with the record's
 * content, canonical address, link-preview tags and JSON-LD of the right type; lists paginate; drafts and
 * scheduled articles have none; hostile text cannot break out of the JSON-LD.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../generator/pipeline/outputs/pages/page-links.ts';
import {
  buildInto,
  readListItems,
  readListPage,
  recordFile,
  recordPage,
  removeBuildDirs,
  SITE_URL,
  tempDir,
  V1,
} from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { scratchDir } from '../helpers/scratch.ts';

const PAGE_BUDGET_BYTES = 50 * 1024;
let dist: string;

/** Every record the list envelopes give, with its url, by collection (the API's own paths). */
function apiRecords(dir: string): { collection: string; id: string; url: string; title: string }[] {
  return ['services', 'expertise', 'technology', 'intelligence'].flatMap((collection) =>
    readListItems<Record<string, string>>(dir, `${collection}/list`).map((item) => ({
      collection,
      id: item.id!,
      url: item.url!,
      title: item.title ?? item.name!,
    })),
  );
}

const pageOf = (dir: string, url: string) => readFileSync(path.join(dir, new URL(url).pathname, 'index.html'), 'utf8');
const jsonLdOf = (html: string) => JSON.parse(html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!);

beforeAll(async () => {
  dist = await buildInto('content');
});
afterAll(removeBuildDirs);

describe('record pages', () => {
  it('exist for every url the API gives, with the record, canonical address and preview tags', () => {
    const records = apiRecords(dist);
    expect(records.length).toBeGreaterThan(40);
    for (const { url, title } of records) {
      expect(url.startsWith(`${SITE_URL}/`)).toBe(true);
      const html = pageOf(dist, url);
      expect(html).toContain(`<link rel="canonical" href="${url}">`);
      expect(html).toContain(`<meta property="og:url" content="${url}">`);
      expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?">/);
      expect(html).toContain('<h1>');
      expect(html.replace(/&#39;/g, "'").replace(/&amp;/g, '&')).toContain(title);
      expect(Buffer.byteLength(html)).toBeLessThan(PAGE_BUDGET_BYTES);
    }
  });

  it('describe their record in JSON-LD of the type that fits it', () => {
    const expected = { services: 'Service', expertise: 'DefinedTerm', technology: 'SoftwareApplication', intelligence: 'Article' };
    for (const { collection, url } of apiRecords(dist)) {
      const data = jsonLdOf(pageOf(dist, url));
      expect(data['@context']).toBe('https://schema.org');
      expect(data['@type']).toBe(expected[collection as keyof typeof expected]);
      expect(data.url).toBe(url);
      expect(typeof data.description).toBe('string');
      if (collection === 'intelligence') {
        expect(data.author).toEqual({ '@type': 'Person', name: expect.any(String) });
        expect(data.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(data.headline).toEqual(expect.any(String));
      }
    }
  });

  it('give link previews the article image at the address the API gives it', () => {
    const record = JSON.parse(readFileSync(path.join(dist, V1, recordFile('intelligence', 'checkout-friction-audit')), 'utf8')).data;
    expect(record.image).toMatch(new RegExp(`^${SITE_URL}/images/`));
    const html = pageOf(dist, record.url);
    expect(html).toContain(`<meta property="og:image" content="${record.image}">`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(jsonLdOf(html).image).toBe(record.image);
  });

  it('link the related records and terms to their pages', () => {
    const [service] = apiRecords(dist).filter((record) => record.collection === 'services');
    const record = JSON.parse(readFileSync(path.join(dist, V1, recordFile('services', service!.id)), 'utf8')).data;
    const html = pageOf(dist, service!.url);
    expect(html).toContain(`href="/services/category/${record.category}/"`);
    expect(record.related.expertise.length).toBeGreaterThan(0);
    for (const related of record.related.expertise) expect(html).toContain(`href="${new URL(related.url).pathname}"`);
    const paged = record.related.technologies.filter((technology: { id: string }) =>
      existsSync(path.join(dist, recordPage('technology', technology.id))),
    );
    expect(paged.length).toBeGreaterThan(0);
    for (const technology of paged) expect(html).toContain(`href="${recordPage('technology', technology.id)}"`);
  });

  it('are not written for drafts or articles dated after the build', () => {
    expect(existsSync(path.join(dist, recordPage('intelligence', 'ai-crawler-access-policy')))).toBe(false);
    expect(existsSync(path.join(dist, recordPage('intelligence', 'measuring-agent-referred-revenue')))).toBe(false);
    expect(readFileSync(path.join(dist, outputPath(ADDRESS.sitemap)), 'utf8')).toContain(`${SITE_URL}/intelligence/`);
  });
});

describe('list pages', () => {
  let synthetic: string;
  beforeAll(async () => {
    const content = path.join(tempDir('list-pages'), 'content');
    await writeSyntheticContent(content, { articles: PAGE_SIZE * 2 + 5, services: 3, expertise: 3, technology: 3, resources: 1 });
    synthetic = await buildInto(content);
  });

  it('paginate a collection, with numbered pages and previous and next links', () => {
    const first = readFileSync(path.join(synthetic, 'intelligence', 'index.html'), 'utf8');
    const third = readFileSync(path.join(synthetic, 'intelligence', 'page', '3', 'index.html'), 'utf8');
    expect(existsSync(path.join(synthetic, 'intelligence', 'page', '4'))).toBe(false);
    expect(first.match(/<li class="card">/g)).toHaveLength(PAGE_SIZE);
    expect(third.match(/<li class="card">/g)).toHaveLength(5);
    expect(first).toContain(`<link rel="next" href="${SITE_URL}/intelligence/page/2/">`);
    expect(first).not.toContain('rel="prev"');
    expect(third).toContain(`<link rel="prev" href="${SITE_URL}/intelligence/page/2/">`);
    expect(third).toContain('<span aria-current="page">3</span>');
  });

  it('list the records of each filter value, in the API order, linked from the collection list', () => {
    const list = readListPage<{ topics: string[] }>(synthetic, 'intelligence/list');
    const topic = list.data[0]!.topics[0]!;
    const html = readFileSync(path.join(synthetic, 'intelligence', 'topic', topic, 'index.html'), 'utf8');
    const api = readListPage<{ slug: string }>(synthetic, 'intelligence/list', `topic=${topic}`);
    const linked = [...html.matchAll(/<h2 class="card-title"><a href="\/intelligence\/[0-9a-f]{2}\/([^/]+)\/">/g)].map((match) => match[1]);
    expect(linked).toEqual(api.data.slice(0, PAGE_SIZE).map((item: { slug: string }) => item.slug));
    expect(readFileSync(path.join(synthetic, 'intelligence', 'index.html'), 'utf8')).toContain(`href="/intelligence/topic/${topic}/"`);
  });
});

describe('hostile record text', () => {
  it('cannot close the JSON-LD script or inject markup', async () => {
    const content = path.join(scratchDir('hostile-page'), 'content');
    cpSync('test/fixtures/valid', content, { recursive: true });
    const file = path.join(content, 'intelligence', 'rag-evaluation.md');
    const evil = '</script><script>alert(1)</script><!--';
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace(/^title: .*$/m, `title: "RAG ${evil}"`)
        .replace(/^summary: .*$/m, `summary: "Sum ${evil}"`),
    );
    const out = await buildInto(content);
    const html = readFileSync(path.join(out, recordPage('intelligence', 'rag-evaluation'), 'index.html'), 'utf8');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(jsonLdOf(html).headline).toBe(`RAG ${evil}`);
    expect(html).not.toContain('<script>alert');
    rmSync(path.dirname(content), { recursive: true, force: true });
  });
});
