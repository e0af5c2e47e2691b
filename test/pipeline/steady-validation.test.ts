/**
 * A steady validation (npm run dev) checks only the records that changed since the validation before, and
 * gives the content a validation from nothing gives; once something is a problem, even in a file no edit
 * touched, it reports exactly the problems a validation from nothing reports.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { DEFAULT_LIMITS } from '../../generator/pipeline/load/content-limits.ts';
import { ContentError, type Problem } from '../../generator/pipeline/problems.ts';
import { createSteadyValidation } from '../../generator/pipeline/validate/steady-validation.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { collections } from '../../generator/schemas/collections.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

/** The problems `validate` throws, or [] when it passes. */
function problemsOf(validate: () => unknown): Problem[] {
  try {
    validate();
    return [];
  } catch (error) {
    if (error instanceof ContentError) return error.problems;
    throw error;
  }
}

/** Longer than the time within which a changed file is read again whatever its identity (load-content.ts). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** A content folder, loaded as npm run dev loads it (each file's load kept with the cache), and validated both ways. */
async function steadyBuilds() {
  const content = fixtureDir('valid');
  await settle();
  const cache = createBuildCache();
  const steady = createSteadyValidation(collections);
  return {
    file: (name: string) => path.join(content, name),
    /** The content a steady validation gives after an edit, checked against a validation from nothing. */
    async validate() {
      const raw = await loadContent(content, { collections, limits: DEFAULT_LIMITS, cache });
      const alone = validateContent(raw);
      expect(steady.validate(raw)).toEqual(alone);
      return alone;
    },
    /** What the build's validation (with the cache) reports after an edit, checked against a validation from nothing. */
    async problems() {
      const raw = await loadContent(content, { collections, limits: DEFAULT_LIMITS, cache });
      const problems = problemsOf(() => validateContent(raw, collections, cache));
      expect(problems).toEqual(problemsOf(() => validateContent(raw)));
      expect(steady.validate(raw)).toBeUndefined();
      return problems;
    },
    get checked() {
      return steady.checked;
    },
  };
}

describe('a steady validation', () => {
  it('checks only the records that changed', async () => {
    const builds = await steadyBuilds();
    const first = await builds.validate();
    const records = Object.values(first).reduce((sum, value) => sum + (Array.isArray(value) ? value.length : 0), 0);
    expect(builds.checked).toBeGreaterThanOrEqual(records);
    await builds.validate();
    expect(builds.checked).toBe(0);
    const article = builds.file('intelligence/rag-evaluation.md');
    writeFileSync(article, readFileSync(article, 'utf8').replace(/^title: .*$/m, 'title: Edited'));
    const edited = await builds.validate();
    expect(builds.checked).toBe(1);
    expect(edited.intelligence.find((record) => record.slug === 'rag-evaluation')?.title).toBe('Edited');
  }, 30_000);

  it('reports references left naming nothing by a deleted file, in files no edit touched, and passes once it is back', async () => {
    const builds = await steadyBuilds();
    await builds.validate();
    const target = builds.file('technology/llm-gateway.md');
    const image = builds.file('images/intelligence/ai-engineering.svg');
    const [technology, drawing] = [readFileSync(target), readFileSync(image)];
    rmSync(target);
    const problems = await builds.problems();
    expect(problems.map(({ file, field }) => `${file} ${field}`)).toContain('services/mcp-server-development.md technologies.1');
    rmSync(image);
    expect((await builds.problems()).map(({ file, field }) => `${file} ${field}`)).toContain('intelligence/rag-evaluation.md image');
    writeFileSync(target, technology);
    writeFileSync(image, drawing);
    await builds.validate();
  }, 30_000);

  it('reports a new duplicate id, on both records, and passes once it is gone', async () => {
    const builds = await steadyBuilds();
    await builds.validate();
    const copy = builds.file('intelligence/a-copy.md');
    const text = readFileSync(builds.file('intelligence/rag-evaluation.md'), 'utf8');
    writeFileSync(copy, text.replace(/^title: .*$/m, 'id: rag-evaluation\ntitle: A copy'));
    const files = (await builds.problems()).map((problem) => problem.file);
    expect(files).toEqual(['intelligence/a-copy.md', 'intelligence/rag-evaluation.md']);
    rmSync(copy);
    await builds.validate();
    expect(builds.checked).toBe(0);
  }, 30_000);
});
