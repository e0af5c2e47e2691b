/**
 * The editors' synonyms end to end: what synonyms.yaml may hold (every mistake with its file, line and
 * field), groups, one-way entries and phrases in search, a synonym ranking below the query's own word, the
 * settings page of the browser editor, and the search's 500 and recovery when the synonyms part is broken.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import type { Problem } from '../../generator/pipeline/problems.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { SEARCH_SYNONYMS_PATH, type SearchDocument } from '../../generator/search/index-format.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { createSearch, type SearchQuery } from '../../generator/search/search.ts';
import { createSynonymTable, type SynonymsFile } from '../../generator/search/synonyms.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { refusedProblemsOf } from '../helpers/content-problems.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeFixtureDirs();
  removeBuildDirs();
});

/** A fixture folder with `yaml` as its synonyms.yaml. */
function withSynonyms(yaml: string): string {
  const dir = fixtureDir('valid');
  writeFileSync(path.join(dir, 'synonyms.yaml'), yaml);
  return dir;
}

const problemsOf = (yaml: string): Promise<Problem[]> => refusedProblemsOf(withSynonyms(yaml), 'the synonyms');

describe('synonyms.yaml', () => {
  it('is optional, and read when present', async () => {
    expect(validateContent(await loadContent(fixtureDir('valid'))).synonyms).toBeUndefined();
    const content = validateContent(await loadContent(withSynonyms('groups:\n  - words: [ppc, paid search]\n')));
    expect(content.synonyms).toEqual({ groups: [{ words: ['ppc', 'paid search'] }], one_way: [] });
  });

  it('names the file, line and field of every mistake, and what is allowed', async () => {
    const yaml = [
      'groups:', //                                 1
      '  - words: [ppc, paid search]', //           2
      '  - words: [sem]', //                        3  one entry
      '  - words: [cpc, cost per click]', //        4
      `  - words: ["", ${'x'.repeat(61)}]`, //      5  empty, overlong
      '  - words: [the, of, ok]', //                6  stop words only
      'one_way:', //                                7
      '  - from: eaa', //                           8
      '    too: [european accessibility act]', // 9  unknown key (and `to` missing)
      'extra: 1', //                                10 unknown key
    ].join('\n');
    const problems = await problemsOf(yaml);
    const where = problems.map(({ file, line, field }) => `${file}:${line} ${field}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'synonyms.yaml:3 groups.1.words',
        'synonyms.yaml:5 groups.3.words.0',
        'synonyms.yaml:5 groups.3.words.1',
        'synonyms.yaml:6 groups.4.words.0',
        'synonyms.yaml:6 groups.4.words.1',
      ]),
    );
    const message = (field: string) => problems.find((problem) => problem.field === field)?.message ?? '';
    expect(message('groups.1.words')).toContain('at least 2');
    expect(message('groups.3.words.0')).toContain('must not be empty');
    expect(message('groups.3.words.1')).toContain('at most 60 characters');
    expect(message('groups.4.words.0')).toContain('no searchable word');
    expect(problems.some((problem) => problem.line === 9 || problem.field.includes('too'))).toBe(true);
    expect(problems.some((problem) => problem.line === 10 || problem.field.includes('extra'))).toBe(true);
  });

  it('refuses an entry in two groups, compared as search compares them', async () => {
    const problems = await problemsOf('groups:\n  - words: [ppc, paid search]\n  - words: [cpc, PPC]\n  - words: [Paid-Search, x1]\n');
    expect(problems.map(({ file, line, field }) => `${file}:${line} ${field}`)).toEqual([
      'synonyms.yaml:3 groups.1.words.1',
      'synonyms.yaml:4 groups.2.words.0',
    ]);
    expect(problems[0]!.message).toMatch(/"PPC" is already in group 1: an entry may be in one group only/);
  });
});

function documentOf(id: string, fields: Partial<Omit<SearchDocument, 'id' | 'stored'>>): SearchDocument {
  const title = fields.title ?? id;
  return {
    id,
    title,
    tags: fields.tags ?? '',
    terms: '',
    summary: fields.summary ?? '',
    body: fields.body ?? '',
    stored: [id.split(':')[1]!, title, '', `https://example.com/${id}/`],
  };
}

const FILE: SynonymsFile = {
  groups: [{ words: ['pay per click', 'ppc', 'paid search'] }],
  one_way: [{ from: 'eaa', to: ['european accessibility act'] }],
};

const documents = [
  documentOf('services:ppc', { title: 'PPC management', body: 'We run campaigns.' }),
  documentOf('services:paid', { title: 'Retail media', body: 'Our paid search team bids well.' }),
  documentOf('services:apart', { title: 'Search audits', body: 'Paid audits of search engines.' }),
  documentOf('intelligence:eaa', { title: 'The European Accessibility Act in practice', body: 'What changes in 2025.' }),
  documentOf('intelligence:acronym', { title: 'EAA checklist', body: 'A list.' }),
  documentOf('expertise:other', { title: 'Gardens', body: 'Lawns.' }),
];

const search = createSearch(
  createMemoryAssets(new Map(writeSearchIndex(documents, undefined, createSynonymTable(FILE)).map(({ path, body }) => [path, body]))),
);
const ids = async (q: string) =>
  (await search.search({ q, type: 'all', limit: 20, offset: 0 } satisfies SearchQuery)).items.map((item) => `${item.type}:${item.id}`);

describe('synonyms in search', () => {
  it('finds what every entry of a group finds, the query’s own word first', async () => {
    expect(await ids('ppc')).toEqual(['services:ppc', 'services:paid']);
    expect(await ids('paid search')).toEqual(['services:paid', 'services:ppc']);
    expect((await ids('Pay-per-click')).sort()).toEqual(['services:paid', 'services:ppc']);
  });

  it('matches a phrase as its words in order, not the same words apart', async () => {
    expect(await ids('ppc')).not.toContain('services:apart');
    expect(await ids('paid search')).not.toContain('services:apart');
    // Without a synonym the words are searched one by one, as always.
    expect(await ids('search paid')).toContain('services:apart');
  });

  it('applies a one-way entry from its `from` only', async () => {
    expect(await ids('eaa')).toEqual(['intelligence:acronym', 'intelligence:eaa']);
    expect(await ids('european accessibility act')).toEqual(['intelligence:eaa']);
  });

  it('ranks a synonym match below an exact match of the query’s own word', async () => {
    const { items } = await search.rank({ q: 'ppc', type: 'all', limit: 20, offset: 0 });
    expect(items[0]!.raw).toBeGreaterThan(items[1]!.raw);
    expect(Math.floor(items[0]!.raw % 100)).toBe(10);
    expect(Math.floor(items[1]!.raw % 100)).toBe(0);
  });
});

describe('synonyms in the build and at the edge', () => {
  const yaml = 'groups:\n  - words: [ppc, paid search]\n';

  it('are written with the index, offered in the editor under Settings, and a broken part fails search until it is good again', async () => {
    const outDir = await buildInto(withSynonyms(yaml));
    const files = readDistFiles(outDir);
    expect(JSON.parse(String(files.get(SEARCH_SYNONYMS_PATH))).expansions).toEqual({ ppc: ['paid search'], 'paid search': ['ppc'] });
    const config = readFileSync(path.join(outDir, outputPath(`${ADDRESS.admin}config.yml`)), 'utf8');
    expect(config).toMatch(/name: synonyms[\s\S]*file: (content\/)?synonyms\.yaml/);
    expect(config).toMatch(/name: words/);

    const broken = new Map(files);
    const logged: string[] = [];
    const handler = createHandler({
      assets: createMemoryAssets(broken),
      limiter: createMemoryLimiter({ limit: 1e6 }),
      logError: (error) => logged.push(String(error)),
    });
    const get = async (url: string) => {
      const response = await handler(new Request(`http://api.test${url}`), { ip: '::1' });
      return { status: response.status, body: await response.text() };
    };
    for (const bad of [null, '{"expansions": 3', '{"expansions": null, "longest": 1}']) {
      if (bad === null) broken.delete(SEARCH_SYNONYMS_PATH);
      else broken.set(SEARCH_SYNONYMS_PATH, bad);
      const failed = await get('/v1/search?q=commerce');
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.body).error.code).toBe('INTERNAL_ERROR');
      expect(failed.body).not.toContain('synonyms');
      expect(logged.at(-1)).toContain(SEARCH_SYNONYMS_PATH);
      expect((await get('/v1/services/list')).status).toBe(200);
    }
    broken.set(SEARCH_SYNONYMS_PATH, files.get(SEARCH_SYNONYMS_PATH)!);
    expect((await get('/v1/search?q=commerce')).status).toBe(200);
  });
});
