/**
 * YAML that amplifies or misleads: anchors and aliases (one file expanding to a page a hundred times its
 * size), keys given twice, and syntax errors that must be reported where they start, not where the parser
 * gave up (an unclosed quote on line 2 was reported at the closing `---`).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { problemsOf } from '../helpers/content-problems.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

const FIELDS = ['title: Planted', 'summary: A planted article.', 'date: 2026-01-05', 'author: Someone', 'topics: [agentic-commerce]'];
const article = (lines: string[]) => `---\n${lines.join('\n')}\n---\nBody.\n`;

describe('anchors and aliases', () => {
  it('refuses 100 aliases of a 900 KB value at the line of the anchor, before anything expands', async () => {
    const content = fixtureDir('valid');
    const aliases = Array.from({ length: 100 }, () => '  - *big');
    writeFileSync(
      path.join(content, 'intelligence', 'bomb.md'),
      article([...FIELDS, `big: &big ${'x'.repeat(900_000)}`, 'tags:', ...aliases]),
    );
    const started = performance.now();
    const raw = await loadContent(content);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(raw.records.intelligence!.map((record) => record.file)).not.toContain('intelligence/bomb.md');
    expect(raw.problems).toContainEqual({
      file: 'intelligence/bomb.md',
      line: 7,
      field: '-',
      message: expect.stringContaining('anchors and aliases'),
    });
  });

  it('refuses a single anchor in front matter and in a YAML file, with its line', async () => {
    const content = fixtureDir('valid');
    writeFileSync(
      path.join(content, 'intelligence', 'anchor.md'),
      article([...FIELDS.slice(0, 2), 'extra: &x { a: 1 }', ...FIELDS.slice(2)]),
    );
    writeFileSync(path.join(content, 'categories.yaml'), '- id: one\n  name: One\n  description: &d The first.\n  order: 1\n');
    const problems = await problemsOf(content);
    expect(problems).toContainEqual({
      file: 'intelligence/anchor.md',
      line: 4,
      field: '-',
      message: expect.stringContaining('anchors and aliases'),
    });
    expect(problems).toContainEqual({
      file: 'categories.yaml',
      line: 3,
      field: '-',
      message: expect.stringContaining('anchors and aliases'),
    });
  });

  it('still reads an ampersand and an asterisk in text', async () => {
    const content = fixtureDir('valid');
    writeFileSync(
      path.join(content, 'intelligence', 'text.md'),
      article([FIELDS[0]!, 'summary: R&D costs & *all* of 5 * 3.', ...FIELDS.slice(2)]),
    );
    expect(await problemsOf(content)).toEqual([]);
  });

  it('refuses a key given twice in a YAML file, at its second line', async () => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'categories.yaml'), '- id: one\n  name: One\n  description: The first.\n  name: Again\n');
    expect(await problemsOf(content)).toContainEqual({
      file: 'categories.yaml',
      line: 4,
      field: '-',
      message: expect.stringContaining('the key "name" is given twice'),
    });
  });
});

describe('nesting', () => {
  it('refuses lists nested past 64 levels in a YAML file and in front matter, instead of exhausting the stack', async () => {
    const content = fixtureDir('valid');
    writeFileSync(path.join(content, 'categories.yaml'), `- id: one\n  name: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    writeFileSync(path.join(content, 'intelligence', 'deep.md'), article([...FIELDS, `extra: ${'['.repeat(5000)}${']'.repeat(5000)}`]));
    const problems = await problemsOf(content);
    for (const file of ['categories.yaml', 'intelligence/deep.md'])
      expect(problems).toContainEqual(expect.objectContaining({ file, message: expect.stringContaining('nested more than 64 levels') }));
  });
});

describe('syntax errors point where the problem starts', () => {
  it('reports an unclosed quote on line 2 of front matter at line 2, not at the closing ---', async () => {
    const content = fixtureDir('valid');
    const lines = ['title: "Unclosed title', ...FIELDS.slice(1), ...Array.from({ length: 8 }, (_, i) => `extra${i}: value`)];
    writeFileSync(path.join(content, 'intelligence', 'broken.md'), article(lines));
    const problems = await problemsOf(content);
    expect(problems).toContainEqual({
      file: 'intelligence/broken.md',
      line: 2,
      field: '-',
      message: expect.stringContaining('invalid YAML front matter'),
    });
  });

  it('reports an unclosed single quote and an unclosed bracket at their own lines', async () => {
    const content = fixtureDir('valid');
    writeFileSync(
      path.join(content, 'intelligence', 'single.md'),
      article([...FIELDS.slice(0, 3), "author: 'Some one", 'topics: [agentic-commerce]', 'x: 1']),
    );
    writeFileSync(
      path.join(content, 'intelligence', 'bracket.md'),
      article([...FIELDS.slice(0, 4), 'topics: [agentic-commerce', 'x: 1', 'y: 2']),
    );
    writeFileSync(path.join(content, 'categories.yaml'), '- id: one\n  name: "One\n  description: The first.\n  order: 1\n');
    const problems = await problemsOf(content);
    expect(problems).toContainEqual(expect.objectContaining({ file: 'intelligence/single.md', line: 5 }));
    expect(problems).toContainEqual(expect.objectContaining({ file: 'intelligence/bracket.md', line: 6 }));
    expect(problems).toContainEqual(expect.objectContaining({ file: 'categories.yaml', line: 2 }));
  });

  it('keeps the line of an error that is not an unclosed quote or bracket', async () => {
    const content = fixtureDir('valid');
    writeFileSync(
      path.join(content, 'intelligence', 'indent.md'),
      article([...FIELDS.slice(0, 3), 'author: a: b', 'topics: ["it\'s", "say \\"hi\\""]']),
    );
    expect(await problemsOf(content)).toContainEqual(expect.objectContaining({ file: 'intelligence/indent.md', line: 5 }));
  });
});
