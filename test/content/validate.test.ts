/** validateContent on the fixture folders: what a valid folder yields, and what each mistake reports. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { ContentError, formatReport, type Problem } from '../../generator/pipeline/problems.ts';
import type { Content } from '../../generator/schemas/content.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

/** What a test expects of one problem: where it is, and words its message must contain. */
interface Expected {
  file: string;
  line: number;
  field: string;
  words: string[];
}

/** Validates a scenario and returns its problems; fails the test if the scenario is accepted. */
async function problemsOf(scenario: string): Promise<Problem[]> {
  const raw = await loadContent(fixtureDir(scenario));
  try {
    validateContent(raw);
  } catch (error) {
    if (error instanceof ContentError) return error.problems;
    throw error;
  }
  throw new Error(`the "${scenario}" fixture was accepted`);
}

/** Exactly these problems, in report order (by file, then line), each message with its key words. */
async function expectProblems(scenario: string, expected: Expected[]) {
  const problems = await problemsOf(scenario);
  expect(problems.map(({ file, line, field }) => ({ file, line, field }))).toEqual(
    expected.map(({ file, line, field }) => ({ file, line, field })),
  );
  expected.forEach(({ words }, index) => {
    for (const word of words) expect(problems[index]!.message).toContain(word);
  });
  return problems;
}

const CATEGORY_IDS =
  'websites-agentic-commerce, neural-intelligence, neural-core, ai-digital-experiences, growth-marketing, paid-media, performance-marketing';

describe('validateContent', () => {
  describe('on a valid content folder', () => {
    let content: Content;
    const find = <T extends { id: string }>(list: T[], id: string) => {
      const record = list.find((item) => item.id === id);
      if (!record) throw new Error(`no record "${id}"`);
      return record;
    };

    beforeAll(async () => {
      content = validateContent(await loadContent(VALID_FIXTURE));
    });

    it('accepts it and returns every collection', () => {
      expect(content.site.name).toBe('Fixture Digital');
      expect({
        categories: content.categories.length,
        industries: content.industries.length,
        platforms: content.platforms.length,
        technologyCategories: content.technologyCategories.length,
        topics: content.topics.length,
        services: content.services.length,
        expertise: content.expertise.length,
        technology: content.technology.length,
        intelligence: content.intelligence.length,
        resources: content.resources.length,
      }).toEqual({
        categories: 7,
        industries: 2,
        platforms: 2,
        technologyCategories: 3,
        topics: 2,
        services: 2,
        expertise: 2,
        technology: 2,
        intelligence: 3,
        resources: 2,
      });
    });

    it('defaults an id to the file name, and keeps an explicit id apart from the slug', () => {
      expect(find(content.services, 'mcp-server-development')).toMatchObject({ slug: 'mcp-server-development' });
      expect(find(content.services, 'technical-seo-audit')).toMatchObject({ slug: 'seo-audit', file: 'services/seo-audit.md' });
    });

    it('accepts a quoted date string and an unquoted YAML date alike, as YYYY-MM-DD strings', () => {
      expect(find(content.intelligence, 'rag-evaluation')).toMatchObject({ date: '2025-07-30', updated: '2025-11-03' });
      expect(find(content.services, 'mcp-server-development').updated).toBe('2026-01-15');
      expect(find(content.services, 'technical-seo-audit').updated).toBe('2025-11-04');
    });

    it("defaults an article's updated date to its publication date", () => {
      expect(find(content.intelligence, 'mcp-server-for-catalogue-search')).toMatchObject({ date: '2025-09-16', updated: '2025-09-16' });
    });

    it('fills in defaults: order 1000, no tags, not a draft, not an open protocol', () => {
      const article = find(content.intelligence, 'mcp-server-for-catalogue-search');
      expect(article).toMatchObject({ order: 1000, draft: false });
      expect(find(content.intelligence, 'agent-payments-draft').tags).toEqual([]);
      expect(find(content.technology, 'llm-gateway').open_protocol).toBe(false);
      expect(find(content.platforms, 'google-analytics-4').order).toBe(2);
    });

    it('keeps drafts, which the routes leave out later', () => {
      expect(find(content.intelligence, 'agent-payments-draft').draft).toBe(true);
    });

    it('keeps the Markdown body as written, raw HTML and code included', () => {
      const body = find(content.intelligence, 'rag-evaluation').body;
      expect(body).toContain('<script>alert(1)</script>');
      expect(body).toContain('```ts\nconst recallAtK');
      expect(body.startsWith('---')).toBe(false);
      expect(find(content.intelligence, 'mcp-server-for-catalogue-search').body).toContain('[specification](javascript:alert(1))');
    });

    it('drops the trailing slash of site_url', () => {
      expect(content.site.site_url).toBe('https://fixture.example');
    });
  });

  describe('on a content folder with mistakes', () => {
    it('rejects a service without a title', async () => {
      await expectProblems('missing-field', [
        { file: 'services/mcp-server-development.md', line: 2, field: 'title', words: ['is required', 'string'] },
      ]);
    });

    it('rejects a misspelt field and suggests the field meant', async () => {
      await expectProblems('unknown-field', [
        { file: 'services/seo-audit.md', line: 2, field: 'summary', words: ['is required'] },
        {
          file: 'services/seo-audit.md',
          line: 4,
          field: 'sumary',
          words: ['unknown field', 'did you mean "summary"?', 'allowed: id, order, draft, updated, title, summary, category'],
        },
      ]);
    });

    it('rejects an order that is not a whole number', async () => {
      await expectProblems('bad-type', [{ file: 'services/seo-audit.md', line: 6, field: 'order', words: ['must be a whole number'] }]);
    });

    it('rejects a day that does not exist, written as a YAML date or as a quoted string', async () => {
      await expectProblems('bad-date', [
        { file: 'intelligence/mcp-server-for-catalogue-search.md', line: 4, field: 'date', words: ['must be a date', 'YYYY-MM-DD'] },
        { file: 'resources/rag-evaluation-guide.md', line: 8, field: 'updated', words: ['must be a date', 'YYYY-MM-DD'] },
      ]);
    });

    it('reports broken YAML front matter at the line where it breaks', async () => {
      await expectProblems('bad-yaml', [
        { file: 'services/seo-audit.md', line: 4, field: '-', words: ['invalid YAML front matter', 'quote a value that contains ": "'] },
      ]);
    });

    it('rejects an unknown category and lists the categories', async () => {
      await expectProblems('unknown-category', [
        {
          file: 'services/seo-audit.md',
          line: 5,
          field: 'category',
          words: ['unknown category "seo"', `one of categories.yaml: ${CATEGORY_IDS}`],
        },
      ]);
    });

    it('rejects an unknown industry at the line of the list item', async () => {
      await expectProblems('unknown-industry', [
        {
          file: 'expertise/agent-ready-product-data-retail.md',
          line: 8,
          field: 'industries.1',
          words: ['unknown industry "automotive"', 'one of industries.yaml: retail-ecommerce, financial-services'],
        },
      ]);
    });

    it('rejects an unknown article topic', async () => {
      await expectProblems('unknown-topic', [
        {
          file: 'intelligence/rag-evaluation.md',
          line: 9,
          field: 'topics.1',
          words: ['unknown topic "blockchain"', 'one of intelligence/topics.yaml: agentic-commerce, ai-engineering'],
        },
      ]);
    });

    it('rejects an unknown technology and lists technologies and platforms', async () => {
      await expectProblems('unknown-technology', [
        {
          file: 'services/mcp-server-development.md',
          line: 8,
          field: 'technologies.1',
          words: [
            'unknown technology or platform "kubernetes"',
            'technology/*.md and platforms.yaml',
            'model-context-protocol',
            'google-analytics-4',
          ],
        },
      ]);
    });

    it('rejects a resource whose image is not under images/', async () => {
      await expectProblems('missing-image', [
        {
          file: 'resources/agentic-checkout-readiness-checklist.md',
          line: 9,
          field: 'image',
          words: ['unknown image "/images/resources/agentic-checkout-readiness-checklist.svg"', 'no such file', 'images/'],
        },
        {
          file: 'resources/rag-evaluation-guide.md',
          line: 9,
          field: 'image',
          words: ['unknown image "/images/resources/rag-guide-cover.svg"', 'no such file', 'images/'],
        },
      ]);
    });

    it('reports an id that is also a slug at both files, each naming the other', async () => {
      await expectProblems('duplicate-slug', [
        {
          file: 'services/seo-audit.md',
          line: 2,
          field: 'id',
          words: ['"technical-seo-audit"', 'services/technical-seo-audit.md', 'ids and slugs must be unique within services', 'rename'],
        },
        {
          file: 'services/technical-seo-audit.md',
          line: 2,
          field: 'id',
          words: ['"technical-seo-audit"', 'services/seo-audit.md:2', 'ids and slugs must be unique within services', 'rename'],
        },
      ]);
    });

    it('rejects an id listed twice in categories.yaml and names the first one', async () => {
      await expectProblems('duplicate-list-id', [
        {
          file: 'categories.yaml',
          line: 30,
          field: 'id',
          words: ['"growth-marketing" is also used by categories.yaml:18', 'ids must be unique in categories.yaml'],
        },
      ]);
    });

    it('rejects an id and a file name with capitals', async () => {
      await expectProblems('bad-id', [
        {
          file: 'services/Local-SEO.md',
          line: 1,
          field: '-',
          words: ['file name "Local-SEO"', 'lowercase', 'rename the file', '"local-seo.md"'],
        },
        {
          file: 'services/seo-audit.md',
          line: 2,
          field: 'id',
          words: ['must be lowercase letters, digits and single hyphens', '"paid-media"'],
        },
      ]);
    });

    it('reports an api_version of another major than the base path serves', async () => {
      await expectProblems('api-version-2', [
        { file: 'site.yaml', line: 5, field: 'api_version', words: ['must be 1.x.y', 'serves /v1/'] },
      ]);
    });

    it('reports a missing site.yaml', async () => {
      await expectProblems('missing-site-file', [
        { file: 'site.yaml', line: 1, field: '-', words: ['the file is missing', 'every content folder needs site.yaml'] },
      ]);
    });

    it('reports every problem of a run at once, grouped by file', async () => {
      const problems = await expectProblems('several-problems', [
        {
          file: 'resources/rag-evaluation-guide.md',
          line: 3,
          field: 'type',
          words: ['must be one of guide, template, checklist, research-report'],
        },
        { file: 'services/seo-audit.md', line: 5, field: 'category', words: ['unknown category "seo"', CATEGORY_IDS] },
        { file: 'services/seo-audit.md', line: 6, field: 'order', words: ['must be a whole number'] },
      ]);
      const report = formatReport(problems, 'content').split('\n');
      expect(report[0]).toBe('content/resources/rag-evaluation-guide.md');
      expect(report[1]).toMatch(/^ {2}resources\/rag-evaluation-guide\.md:3: type: /);
      expect(report[2]).toBe('');
      expect(report[3]).toBe('content/services/seo-audit.md');
      expect(report[4]).toMatch(/^ {2}services\/seo-audit\.md:5: category: /);
      expect(report[5]).toMatch(/^ {2}services\/seo-audit\.md:6: order: /);
      expect(report.at(-1)).toBe('3 problems in 2 files; nothing was built.');
    });

    it('does not report a record that failed its own schema as an unknown reference elsewhere', async () => {
      await expectProblems('invalid-referenced-record', [
        { file: 'technology/llm-gateway.md', line: 6, field: 'status', words: ['must be one of draft, stable, deprecated'] },
      ]);
    });

    it('reports a badly written reference once, not also as unknown', async () => {
      await expectProblems('bad-reference-format', [
        { file: 'services/seo-audit.md', line: 5, field: 'category', words: ['must be lowercase letters, digits and single hyphens'] },
      ]);
    });
  });
});

describe('validation without a build cache (npm run build)', () => {
  it('checks each record where it is asked, keeping no check by raw record; with a cache, the check is kept', async () => {
    const raw = await loadContent(fixtureDir('valid'));
    const first = validateContent(raw).intelligence[0]!;
    // A check kept by raw record would give the very entry again.
    expect(validateContent(raw).intelligence[0]).not.toBe(first);
    expect(validateContent(raw).intelligence[0]).toEqual(first);
    const cache = createBuildCache();
    const kept = validateContent(raw, undefined, cache).intelligence[0];
    expect(validateContent(raw, undefined, createBuildCache()).intelligence[0]).toBe(kept);
  });
});
