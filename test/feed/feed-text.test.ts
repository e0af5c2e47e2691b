/**
 * Titles and summaries are text: a title such as "Using <details>" reaches a feed reader as those words, not
 * as markup (Atom publishes them as HTML, so they are escaped; RSS's description is HTML too), and every
 * Atom category carries the `term` RFC 4287 requires.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

const TITLE = 'Using <details> & <b>bold</b> claims';
const SUMMARY = 'Why <script>alert(1)</script> in a summary stays words & never runs.';
let dist: string;

beforeAll(async () => {
  const content = fixtureDir('valid');
  writeFileSync(
    path.join(content, 'intelligence', 'markup-title.md'),
    `---\ntitle: ${JSON.stringify(TITLE)}\nsummary: ${JSON.stringify(SUMMARY)}\ndate: 2099-01-01\nauthor: Someone\ntopics: [agentic-commerce]\n---\nBody.\n`,
  );
  dist = await buildInto(content, { SOURCE_DATE_EPOCH: '4102444800', SITE_URL: 'https://api.example.test' });
}, 60_000);
afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const parse = (file: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    textNodeName: 'text',
    isArray: (name) => ['entry', 'item', 'category'].includes(name),
  }).parse(readFileSync(path.join(dist, file), 'utf8'));
/** What an HTML reader makes of escaped text. */
const unescapeHtml = (html: string) =>
  html.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);

describe('feed text', () => {
  it('publishes an Atom title and summary as escaped HTML, so a reader shows the words as written', () => {
    const entry = parse(outputPath(ADDRESS.atom)).feed.entry[0];
    expect(entry.title.type).toBe('html');
    expect(entry.title.text).not.toContain('<details>');
    expect(unescapeHtml(entry.title.text)).toBe(TITLE);
    expect(unescapeHtml(entry.summary.text)).toBe(SUMMARY);
  });

  it('gives every Atom category a term (the topic id) and a label (its name)', () => {
    const categories = parse(outputPath(ADDRESS.atom)).feed.entry.flatMap(
      (entry: { category?: { term?: string; label?: string }[] }) => entry.category ?? [],
    );
    expect(categories.length).toBeGreaterThan(0);
    for (const category of categories) expect(category.term).toMatch(/^[a-z0-9-]+$/);
    expect(categories[0].label).toBe('Agentic Commerce');
  });

  it('keeps the RSS title as plain text and escapes its HTML description', () => {
    const item = parse(outputPath(ADDRESS.rss)).rss.channel.item[0];
    expect(item.title).toBe(TITLE);
    expect(item.description).not.toContain('<script>');
    expect(unescapeHtml(item.description)).toBe(SUMMARY);
  });
});
