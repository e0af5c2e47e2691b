/**
 * Front matter read without the YAML parser (plain-front-matter.ts) must be the parser's data, value for value
 * and type for type, or be left to the parser: on the site's own content, on the synthetic articles, on values
 * chosen to look like one type and be another, and on random lines made of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../generator/pipeline/load/front-matter.ts';
import { parseFrontMatter } from '../../generator/pipeline/load/parse-yaml.ts';
import { readPlainFrontMatter } from '../../generator/pipeline/load/plain-front-matter.ts';
import { syntheticFiles } from '../helpers/synthetic-content.ts';

/** The parser's data for `matter`, or its error's message. */
const parsed = (matter: string): unknown => {
  try {
    return parseFrontMatter(matter, 1);
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/** Read plainly: the parser's data exactly (a Date where it has one); undefined when left to the parser. */
function expectSameAsParser(matter: string): boolean {
  const plain = readPlainFrontMatter(matter);
  if (plain !== undefined) expect(plain, matter).toStrictEqual(parsed(matter));
  return plain !== undefined;
}

const matterOf = (text: string) => splitFrontMatter(text).matter;

describe('front matter read without the parser', () => {
  it("reads every synthetic article's and most of the site's own front matter, to the parser's data", () => {
    const synthetic = [...syntheticFiles({ articles: 300 })].filter(([file]) => file.endsWith('.md'));
    expect(synthetic.length).toBeGreaterThan(300);
    for (const [, text] of synthetic) expect(expectSameAsParser(matterOf(text))).toBe(true);
    const own = readdirSync('content', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
    const read = own.filter((file) => expectSameAsParser(matterOf(readFileSync(path.join('content', file), 'utf8'))));
    expect(read.length / own.length).toBeGreaterThan(0.9);
  });

  it('leaves to the parser what it may read otherwise, and reads the rest as it does', () => {
    const leftToParser = [
      'title: ~',
      'title: null',
      'title: NULL',
      'count: 1.5',
      'count: -3',
      'count: 0123',
      'count: 0x1F',
      'count: 1_000',
      'count: 12345678901234567890',
      'title: a: b',
      'title: a #b',
      'title: ends:',
      'title: ends ',
      'title:  two spaces',
      'title:',
      'title: "say \\"hi\\""',
      'title: "line\\nbreak"',
      "title: 'it''s'",
      'title: "open',
      'title: *alias',
      'title: &anchor x',
      'title: !tag x',
      'title: |',
      'title: >',
      'title: -x',
      'title: .inf',
      'title: .5',
      'title: +1',
      'title: @x',
      'title: `x`',
      'title: %x',
      'title: ?x',
      'title: ,x',
      'title: [a,b]',
      'title: [ a ]',
      'title: [a, 1]',
      'title: [a, true]',
      'title: [a, null]',
      'title: [a, ]',
      'title: [a,]',
      'title: ["a", ]',
      'title: ["a\\"b"]',
      "title: ['a''b']",
      'title: ["a"b]',
      'title: [a b]',
      'title: [[a]]',
      'title: {a: b}',
      'title: x\ntitle: y',
      '__proto__: x',
      '"quoted": x',
      'title:\n- zero indent',
      'title:\n  - a\n    - b',
      'title:\n  - a: b',
      'title:\n  - 1',
      'title:\n  -',
      'title:\n  - a\n  continued',
      'title: a\n  continued',
      'title:\tx',
      'title: x\r',
      'title: \u0085x',
      'title: x\u2028y',
      'title: 😀',
      'title: \uFEFFx',
      '  # indented comment\ntitle: x',
      'title: x\n...',
      'title: \u00a0',
    ];
    for (const matter of leftToParser) expect(readPlainFrontMatter(`\n${matter}\n`), matter).toBeUndefined();
    const readPlainly = [
      'title: Plain words, with commas and "quotes" and it\'s apostrophe',
      'title: "  spaced  "',
      "title: 'single # quoted: value'",
      'title: ""',
      'url: https://example.test/a#b',
      'image: /images/a.svg',
      'title: C# and F#',
      'title: Café — naïve',
      'draft: true\nfeatured: False\nlive: TRUE',
      'order: 0\ncount: 42\nbig: 999999999999999',
      'date: 2026-11-01\nupdated: "2026-11-01"',
      'date: 2025-02-30',
      'date: 2024-02-29',
      'tags: []\ntopics: [a, b-c, d_e]',
      'deliverables: ["One, two.", \'Three: four #5\', word, "", "[x]"]',
      'tags:\n  - one\n  - "two"\n\n# between\n  - three',
      'tags:\n    - deep\n    - deeper\ntitle: after',
      '# a comment\n\ntitle: x\n   \n',
      'yes: yes\nno: no\non: off',
      'constructor: x\ntoString: y',
    ];
    for (const matter of readPlainly) expect(expectSameAsParser(`\n${matter}\n`), matter).toBe(true);
  });

  it("is the parser's data or the parser's to read on random lines of look-alike values", () => {
    const keys = ['title', 'date', 'tags', 'draft', 'order', 'title', 'x_y', 'a-b'];
    const values = [
      'word',
      'two words',
      '"quoted"',
      "'single'",
      '"a: b"',
      'a: b',
      'a #b',
      'a#b',
      '2026-01-31',
      '2026-02-30',
      '"2026-01-31"',
      '0',
      '07',
      '12',
      '-1',
      '1e3',
      'true',
      'False',
      'null',
      '~',
      '[a, b]',
      '[]',
      '[a,b]',
      '[true]',
      '',
      ' x',
      'x ',
      'é',
      'x:',
      '&a x',
      '*a',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let plainly = 0;
    for (let round = 0; round < 3000; round++) {
      const lines: string[] = [];
      for (let line = 0, count = 1 + next(5); line < count; line++) {
        const value = values[next(values.length)]!;
        const kind = next(6);
        if (kind === 0)
          lines.push(`${keys[next(keys.length)]}:`, ...Array.from({ length: next(3) }, () => `${' '.repeat(1 + next(3))}- ${value}`));
        else if (kind === 1) lines.push(next(2) ? '# note' : '');
        else lines.push(`${keys[next(keys.length)]}: ${value}`);
      }
      if (expectSameAsParser(`\n${lines.join('\n')}\n`)) plainly++;
    }
    // Both sides were exercised: many read plainly, many left to the parser.
    expect(plainly).toBeGreaterThan(150);
    expect(plainly).toBeLessThan(2700);
  });
});
