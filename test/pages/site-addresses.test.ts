/**
 * The site's public addresses are said once (generator/shared/site-addresses.ts): a build with the table
 * renamed in memory writes and links every renamed address and none of the old ones, and no module of the
 * generator spells one of them in a string of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import jsYaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collections } from '../../generator/schemas/collections.ts';
import type * as Addresses from '../../generator/shared/site-addresses.ts';
import { buildInto, listFiles, removeBuildDirs, SITE_URL } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

/** The renamed addresses this file's build uses in place of the real ones. */
const RENAMED = vi.hoisted(() => ({
  hub: 'library',
  reference: 'reference',
  admin: 'editor',
  stylesheet: 'style/brightwater.css',
  rss: 'rss.xml',
}));

vi.mock('../../generator/shared/site-addresses.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Addresses>();
  const { hub, reference, admin, stylesheet, rss } = RENAMED;
  return {
    ...actual,
    SITE_ADDRESSES: {
      ...actual.SITE_ADDRESSES,
      hub,
      reference,
      admin,
      stylesheet,
      articleFeeds: { ...actual.SITE_ADDRESSES.articleFeeds, rss },
    },
  };
});

let dist: string;
let files: string[];
const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');

beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
  files = listFiles(dist);
});

afterAll(removeBuildDirs);

describe('a build with the site addresses renamed in the table', () => {
  it('writes each renamed address and nothing at the old ones', () => {
    for (const file of ['library/index.html', 'reference/index.html', 'reference/openapi.json', 'editor/index.html', 'editor/config.yml']) {
      expect(files, file).toContain(file);
    }
    expect(files).toContain(RENAMED.stylesheet);
    expect(files).toContain(RENAMED.rss);
    expect(files.filter((file) => /^(?:resources|docs|admin)\/|^resources\.css$|^feed\.xml$/.test(file))).toEqual([]);
  });

  it('links, lists and configures the new addresses and never the old ones', () => {
    const texts = files.filter((file) => /\.(?:html|xml|json|txt|yml)$|^_headers$/.test(file) && !/^editor\/.*decap-cms/.test(file));
    expect(texts.length).toBeGreaterThan(20);
    for (const file of texts) {
      // An old address as this site's (`https://api.example.test/docs/`, `href="/docs/"`, `Disallow: /admin/`);
      // image paths keep their content folder names (`/images/resources/...`), and other sites may have a /docs/.
      expect(read(file), file).not.toMatch(/(?:api\.example\.test|["'\s(]|^)\/(?:resources|docs|admin)\/|resources\.css|feed\.xml/m);
    }
    const home = read('index.html');
    for (const href of ['/library/', '/reference/', '/editor/', '/rss.xml']) expect(home).toContain(`href="${href}"`);
    const pages = files.filter((file) => file.endsWith('index.html') && /^(?:library|services|intelligence)\//.test(file));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(read(page), page).toContain(`<link rel="stylesheet" href="/${RENAMED.stylesheet}">`);
  });

  it('gives the renamed paths their headers, crawler rules, sitemap entries, feed addresses and editor links', () => {
    const headers = read('_headers');
    for (const rule of ['/library/*', '/reference/*', '/editor/*', `/${RENAMED.stylesheet}`, '/rss.xml'])
      expect(headers).toContain(`\n${rule}\n`);
    expect(read(outputPath(ADDRESS.robots))).toContain('Disallow: /editor/\n');
    expect(read(outputPath(ADDRESS.sitemap))).toContain(`<loc>${SITE_URL}/library/</loc>`);
    const feed = JSON.parse(read(outputPath(ADDRESS.resourceFeed))).result;
    expect(feed.resources_hub.url).toBe(`${SITE_URL}/library/`);
    for (const entry of feed.resources) expect(entry.url).toBe(`${SITE_URL}/library/${entry.id}/`);
    const config = jsYaml.load(read('editor/config.yml')) as { collections: { name: string; preview_path?: string }[] };
    const previews = Object.fromEntries(config.collections.map((collection) => [collection.name, collection.preview_path]));
    expect(previews.resources).toBe('library/{{slug}}/');
    expect(previews.services).toBe('editor/live/?page=services/{{slug}}');
    expect(read('editor/preview.js')).toContain(`registerPreviewStyle("/${RENAMED.stylesheet}")`);
  });
});

const GENERATOR = fileURLToPath(new URL('../../generator', import.meta.url));
const NETLIFY = fileURLToPath(new URL('../../netlify', import.meta.url));

/**
 * Every source file of the generator and the Netlify functions, but the address table itself and the
 * WebAssembly sources (AssemblyScript, which is not TypeScript: its decorators do not parse as such).
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:ts|mjs|js)$/.test(file) && !file.endsWith('.as.ts') && !file.includes('node_modules'))
    .map((file) => path.join(dir, file))
    .filter((file) => !file.endsWith(path.join('shared', 'site-addresses.ts')));
}

/**
 * A source file's code without its comments (which may name addresses freely), with strings in double quotes
 * and without module-relative paths (`"./assets/site.css"`, `"../api/api-files.ts"`): those name source files.
 */
const codeOf = (file: string) =>
  transformSync(readFileSync(file, 'utf8'), { loader: file.endsWith('.ts') ? 'ts' : 'js' }).code.replace(/"\.\.?\/[^"]*"/g, '""');

describe('the site addresses in the source', () => {
  it("are the contract's wherever it names them", async () => {
    // The one place the tests spell them: every other test asks the table (test/helpers/addresses.ts).
    const { SITE_ADDRESSES } = await vi.importActual<typeof Addresses>('../../generator/shared/site-addresses.ts');
    expect(SITE_ADDRESSES).toMatchObject({
      reference: 'docs',
      admin: 'admin',
      hub: 'resources',
      resourceFeed: 'api/resources.json',
      entrySchema: 'api/resources-entry.schema.json',
      sitemap: 'sitemap.xml',
      robots: 'robots.txt',
      llmsTxt: 'llms.txt',
    });
  });

  it('are spelt in the address table only', async () => {
    const { SITE_ADDRESSES } = await vi.importActual<typeof Addresses>('../../generator/shared/site-addresses.ts');
    // `images` and `api` are also the names of content folders and of other things' paths (`/images/resources/x.svg`,
    // a proxy's `/api/v1`); the files under `api` are checked by name.
    const { images: _images, feedFolder: _feedFolder, articleFeeds, ...named } = SITE_ADDRESSES;
    // A folder is found as an address (`/docs/`, `docs/index.html`) or as a whole string (`'admin'`), unless
    // a collection has that name too; a file by its name.
    const folders = Object.values(named).filter((address) => !address.includes('.'));
    const spellings = [
      ...folders.flatMap((folder) => [
        `/${folder}/`,
        `${folder}/index.html`,
        ...(folder in collections ? [] : [`"${folder}"`, `"/${folder}"`]),
      ]),
      ...[...Object.values(named), ...Object.values(articleFeeds)].filter((address) => address.includes('.')),
    ];
    expect(spellings).toContain(`/${SITE_ADDRESSES.reference}/`);
    const found = [GENERATOR, NETLIFY].flatMap(sourceFiles).flatMap((file) => {
      const code = codeOf(file);
      const withoutImages = code.replace(new RegExp(`/${_images}/[^"\`\\s]*`, 'g'), '');
      return spellings
        .filter((spelling) => withoutImages.includes(spelling))
        .map((spelling) => `${path.relative(GENERATOR, file)}: ${spelling}`);
    });
    expect(found).toEqual([]);
  });
});
