/**
 * The article feeds: RSS 2.0 and Atom read back by a real XML parser, JSON Feed 1.1 checked against its
 * specification's required fields; the latest 20 articles, newest first, with their full content; linked
 * from every page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, readEnvelope, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

type Json = Record<string, any>;
let dist: string;
let articles: { id: string; url: string; title: string }[];
const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

beforeAll(async () => {
  const content = tempDir('feeds-content');
  await writeSyntheticContent(content, { articles: 30, services: 2, expertise: 2, technology: 2, resources: 2 });
  dist = await buildInto(content);
  articles = readEnvelope<{ id: string; url: string; title: string }[]>(dist, 'intelligence/latest/20.json').data;
});
afterAll(removeBuildDirs);

describe('article feeds', () => {
  it('writes RSS 2.0 that parses, with the latest 20 articles, newest first, and their full content', () => {
    const xml = read(outputPath(ADDRESS.rss));
    expect(XMLValidator.validate(xml)).toBe(true);
    const channel = parser.parse(xml).rss.channel as Json;
    expect(parser.parse(xml).rss['@version']).toBe('2.0');
    const items = channel.item as Json[];
    expect(items.map((item) => item.link)).toEqual(articles.map((article) => article.url));
    expect(items[0]!['content:encoded']).toContain('<p>');
    expect(items[0]!.title).toBe(articles[0]!.title);
  });

  it('writes Atom that parses, with the same entries', () => {
    const xml = read(outputPath(ADDRESS.atom));
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = parser.parse(xml).feed as Json;
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    const entries = feed.entry as Json[];
    expect(entries.map((entry) => entry.id)).toEqual(articles.map((article) => article.url));
    expect(String(entries[0]!.content['#text'] ?? entries[0]!.content)).toContain('<p>');
  });

  it('writes JSON Feed 1.1 with every required field', () => {
    const feed = JSON.parse(read(outputPath(ADDRESS.jsonFeed))) as Json;
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(feed.items).toHaveLength(20);
    for (const item of feed.items as Json[]) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_html).toBe('string');
      expect(item.date_published).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      expect(item.authors[0].name).toEqual(expect.any(String));
    }
    expect((feed.items as Json[]).map((item) => item.url)).toEqual(articles.map((article) => article.url));
  });

  it('is linked from every page', () => {
    for (const page of ['index.html', outputPath(ADDRESS.reference), outputPath(ADDRESS.hub)]) {
      const html = read(page);
      for (const [type, file] of [
        ['application/rss+xml', outputPath(ADDRESS.rss)],
        ['application/atom+xml', outputPath(ADDRESS.atom)],
        ['application/feed+json', outputPath(ADDRESS.jsonFeed)],
      ] as const) {
        expect(html, `${page} ${file}`).toMatch(
          new RegExp(
            `<link rel="alternate" type="${type.replace('+', '\\+')}" title="[^"]+" href="https://api\\.example\\.test/${file.replace('.', '\\.')}">`,
          ),
        );
      }
    }
  });
});
