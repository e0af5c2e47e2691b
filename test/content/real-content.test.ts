/**
 * The real `content/` folder: it validates, it holds at least what the spec ships, and the types that
 * the schemas give it are the ones routes rely on.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { ContentError, formatProblem } from '../../generator/pipeline/problems.ts';
import type { Content } from '../../generator/schemas/content.ts';

const CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));

describe('content/', () => {
  let content: Content;

  beforeAll(async () => {
    try {
      content = validateContent(await loadContent(CONTENT_DIR));
    } catch (error) {
      // Name every problem in the failure, not only how many there are.
      if (error instanceof ContentError) throw new Error(error.problems.map(formatProblem).join('\n'));
      throw error;
    }
  });

  it('passes validation', () => {
    expect(content.site.name).toBeTruthy();
  });

  it('ships at least the records of the spec in every collection', () => {
    expect(content.categories.length).toBeGreaterThanOrEqual(7);
    expect(content.industries.length).toBeGreaterThanOrEqual(6);
    expect(content.platforms.length).toBeGreaterThanOrEqual(12);
    expect(content.services.length).toBeGreaterThanOrEqual(10);
    expect(content.expertise.length).toBeGreaterThanOrEqual(12);
    expect(content.technology.length).toBeGreaterThanOrEqual(12);
    expect(content.topics.length).toBeGreaterThanOrEqual(6);
    expect(content.intelligence.length).toBeGreaterThanOrEqual(32);
    expect(content.resources.length).toBeGreaterThanOrEqual(14);
  });

  it('has the three technology categories and at least six open protocols', () => {
    expect(content.technologyCategories.map((category) => category.id).sort()).toEqual(['agents', 'infrastructure', 'protocols']);
    expect(content.technology.filter((record) => record.open_protocol).length).toBeGreaterThanOrEqual(6);
  });

  it('has a draft article and an article dated after today, so both rules are exercised', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(content.intelligence.filter((article) => article.draft).length).toBeGreaterThanOrEqual(1);
    expect(content.intelligence.filter((article) => article.date > today).length).toBeGreaterThanOrEqual(1);
  });

  it('has resources of every type and in every category', () => {
    expect(new Set(content.resources.map((resource) => resource.type))).toEqual(new Set(content.site.resource_types));
    expect(new Set(content.resources.map((resource) => resource.category))).toEqual(
      new Set(content.categories.map((category) => category.id)),
    );
  });

  it('gives records the types the routes rely on', () => {
    expectTypeOf<Content['services'][number]['updated']>().toEqualTypeOf<string>();
    expectTypeOf<Content['intelligence'][number]['updated']>().toEqualTypeOf<string>();
    expectTypeOf<Content['intelligence'][number]['date']>().toEqualTypeOf<string>();
    expectTypeOf<Content['intelligence'][number]['topics']>().toEqualTypeOf<string[]>();
    expectTypeOf<Content['intelligence'][number]['image']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Content['services'][number]['order']>().toEqualTypeOf<number>();
    expectTypeOf<Content['services'][number]['draft']>().toEqualTypeOf<boolean>();
    expectTypeOf<Content['technology'][number]['open_protocol']>().toEqualTypeOf<boolean>();
    expectTypeOf<Content['resources'][number]['type']>().toEqualTypeOf<'guide' | 'template' | 'checklist' | 'research-report'>();
    expectTypeOf<Content['site']['resource_types']>().toEqualTypeOf<('guide' | 'template' | 'checklist' | 'research-report')[]>();
    expectTypeOf<Content['services'][number]>().toHaveProperty('slug').toEqualTypeOf<string>();
    expectTypeOf<Content['services'][number]>().toHaveProperty('body').toEqualTypeOf<string>();
  });
});
