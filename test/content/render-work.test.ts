/**
 * The renderer's work on a body is counted where marked's own steps are not linear (render-work.ts): a body
 * shaped to hold it for minutes is refused with its file, the field and the line where the shape starts, while
 * prose, however long, costs a small part of what it may. linear-time.test.ts times the same shapes.
 */
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { renderBody, renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { WORK_PER_CHARACTER, workOfLastBody } from '../../generator/pipeline/outputs/render-work.ts';
import { nestedList, siteBodies, syntheticBodies } from '../helpers/markdown-inputs.ts';

const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const PROSE = 'Agents *compare* offers and **pay** for things, with `code`, [links](https://example.test/a_b) and snake_case. ';
/** Prose whose every sentence holds a `*` that may open and close: marked's emphasis step is quadratic in one paragraph of it. */
const STARS = 'Agents *compare* offers and **pay** for things; 2*3 = 6 and a*b. ';

/** Shapes marked is superlinear on (figures: CPU before the count, 2026-11-25). */
const HOSTILE: Record<string, string> = {
  'a* again and again (8.9 s at 200,000)': repeat('a*', 100_000),
  'strong openers that never close (6.9 s at 25,000)': repeat('**a,', 100_000),
  'emphasis nested deep (6.6 s at 200,000)': `${repeat('*a', 50_000)}${repeat('*', 50_000)}`,
  '_*a again and again (22.7 s at 50,000)': repeat('_*a', 100_000),
  'tildes that never close (3.4 s at 100,000)': repeat('about ~5 or ~10 items, ~~struck~~ text ', 100_000),
  'quoted and unquoted lines (6.6 s at 200,000)': repeat('x\n> q\n', 100_000),
  'a list nested deep (1.8 s at 400,000)': nestedList(400_000),
  'HTML comments that never close (0.7 s at 200,000)': repeat('a <!--', 200_000),
  'a link ended by 100,000 parentheses (4.2 s)': ` http://a.b${')'.repeat(100_000)}`,
  'links that each open a parenthesis (1.4 s at 100,000)': repeat('www.a.b(', 100_000),
  'links whose text opens an HTML comment (0.67 s at 200,000)': repeat('[<!-- a](u)', 200_000),
  'a link whose text opens 50,000 HTML comments': `[${repeat('<!--', 200_000)}](u)`,
  'links without a space between (1.1 s at 200,000)': repeat('[a](u)', 200_000),
};

/** Long bodies of what editors write: many times longer than any article, each one kind of block. */
const PLAUSIBLE: Record<string, string> = {
  'one long paragraph': repeat(PROSE, 200_000),
  paragraphs: repeat(`${PROSE.repeat(5)}\n\n`, 200_000),
  'paragraphs with a * that may close in every sentence': repeat(`${STARS.repeat(8)}\n\n`, 200_000),
  'a long table': `| a | b |\n|---|---|\n${repeat('| **x** | *y* z_w |\n', 100_000)}`,
  'a long list': repeat('- **term**: text *em* and more\n', 100_000),
  'lists nested four deep': repeat(`${Array.from({ length: 4 }, (_, i) => `${'  '.repeat(i)}- item *text*`).join('\n')}\n\n`, 100_000),
  'a long quote': repeat('> quoted *line* of text\n', 100_000),
  'quoted mail with lazy lines': repeat('> quoted line\n> more\nlazy continuation\n\n', 100_000),
  'verse with hard line breaks': repeat('a line of verse  \n', 100_000),
  'links one after another': repeat('[a link](https://example.test/a_b) and ![an image](/images/a.png) ', 200_000),
  'addresses and links': repeat('write to first.last+tag@example.co.uk or see https://example.com/a_b?x=1&y=2 today. ', 100_000),
};

describe("the renderer's work", () => {
  it.each(Object.entries(HOSTILE))('refuses a body of %s, naming the file, the field and the line it starts on', (_name, shape) => {
    const body = `# A title\n\nSome prose.\n\n${shape}`;
    const started = performance.now();
    // The body starts on line 10 of its file here, and the shape on the body's fifth line (the quote's on its sixth).
    expect(() => renderBody({ body, file: 'intelligence/slow.md' }, () => 10)).toThrow(
      /^intelligence\/slow\.md:1[45]: body: from about this line, .* Any prose is allowed/,
    );
    // Refused within the work a body of its length may cost, not after minutes (generous for a loaded machine).
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it.each(Object.entries(PLAUSIBLE))('renders %s at a small part of what it may cost', (_name, body) => {
    renderMarkdown(body);
    expect(workOfLastBody() / body.length).toBeLessThan(WORK_PER_CHARACTER / 4);
  });

  // marked reads these in linear time, so the count must not refuse them however odd they are.
  it.each(['[', '[a', '![', '[a][', 'a <', '<a ', '](', '`a'])('renders %s again and again, which marked reads once', (unit) => {
    expect(() => renderMarkdown(repeat(unit, 200_000))).not.toThrow();
  });

  it("costs the site's and the synthetic bodies a small part of what they may", () => {
    let worst = 0;
    for (const body of [...siteBodies(), ...syntheticBodies()]) {
      renderMarkdown(body);
      worst = Math.max(worst, workOfLastBody() / body.length);
    }
    expect(worst).toBeLessThan(WORK_PER_CHARACTER / 100);
  });

  it('counts each body afresh, and nothing for other users of marked', () => {
    expect(() => renderMarkdown(repeat('**a,', 100_000))).toThrow();
    expect(renderMarkdown('*a* and **b**')).toBe('<p><em>a</em> and <strong>b</strong></p>\n');
    // marked's closer patterns, which the count watches, cost a plain marked nothing it could run out of.
    expect(() => new Marked({ gfm: true }).parse(repeat('**a,', 4000))).not.toThrow();
  });
});
