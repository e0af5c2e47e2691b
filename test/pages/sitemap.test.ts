/** sitemap.xml lists every page of the build with the day it last changed; robots.txt names it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, listFiles, removeBuildDirs, SITE_URL } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

let dist: string;
beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
});
afterAll(removeBuildDirs);

describe('sitemap.xml and robots.txt', () => {
  it('lists exactly the pages the build writes for readers (not the content manager), each with a lastmod day', () => {
    const xml = readFileSync(path.join(dist, outputPath(ADDRESS.sitemap)), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const urls = new XMLParser().parse(xml).urlset.url as { loc: string; lastmod: string }[];
    const pages = listFiles(dist)
      .filter((file) => (file === 'index.html' || file.endsWith('/index.html')) && !file.startsWith(ADDRESS.admin.slice(1)))
      .map((file) => `${SITE_URL}/${file.slice(0, -'index.html'.length)}`);
    expect(urls.map((url) => url.loc).sort()).toEqual(pages.sort());
    for (const url of urls) expect(url.lastmod, url.loc).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const entry = urls.find((url) => url.loc === `${SITE_URL}${ADDRESS.hub}rag-evaluation-guide/`);
    const source = readFileSync(path.join(VALID_FIXTURE, 'resources', 'rag-evaluation-guide.md'), 'utf8');
    expect(source).toMatch(new RegExp(`^updated: "?${entry!.lastmod}"?$`, 'm'));
  });

  it('names the sitemap in robots.txt and keeps crawlers out of the precomputed data and the content manager', () => {
    const robots = readFileSync(path.join(dist, outputPath(ADDRESS.robots)), 'utf8');
    expect(robots).toContain(`Sitemap: ${SITE_URL}${ADDRESS.sitemap}`);
    expect(robots).toMatch(/^Disallow: \/_api\/$/m);
    expect(robots.split('\n')).toContain(`Disallow: ${ADDRESS.admin}`);
  });
});
